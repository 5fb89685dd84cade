package guard

import (
	"fmt"
	"io"
	"strings"

	"github.com/promptc/promptc/report"
)

// Reader says who reads a report and from where: the working directory they stand in (WD, "" for none) and the
// project root (Root), from which source paths are named, links to the repository's web view made and annotations
// placed; Color colours a text report (a terminal without NO_COLOR).
type Reader struct {
	WD, Root string
	Color    bool
}

// Write writes r in format f as promptc diff prints it: text (TextOptions with the reader's colour and directory),
// a Markdown pull-request comment (paths from the top of the repository, linked to its web view when the
// repository has one: RepoLinks) or JSON (docs/guard.md).
func (r *Result) Write(w io.Writer, f report.Format, rd Reader) error {
	switch f {
	case report.Markdown:
		return r.WriteMarkdown(w, MarkdownOptions{Dir: strings.TrimSuffix(RepoPrefix(rd.Root), "/"), Links: RepoLinks(rd.Root)})
	case report.JSON:
		return r.WriteJSON(w)
	}
	return r.WriteText(w, TextOptions{Color: rd.Color, Dir: ReportDir(rd.WD, rd.Root)})
}

// WriteCheck writes the report of a check that did not pass, as promptc check prints it on stdout: the text report
// (every artifact in full with verbose when there are no golden files yet), in GitHub Actions the ::error
// annotations on the sources (InGitHubActions), then the follow-up commands, run as invocation ("promptc -C DIR").
// A check that passed writes nothing, or with verbose one line saying what it compared.
func (r *Result) WriteCheck(w io.Writer, rd Reader, invocation string, verbose bool) error {
	if r.Passed() {
		if verbose {
			_, err := fmt.Fprintf(w, "promptc check: %s match golden/; no lint errors\n", r.Checked)
			return err
		}
		return nil
	}
	if err := r.WriteText(w, TextOptions{Color: rd.Color, Verbose: verbose, Dir: ReportDir(rd.WD, rd.Root)}); err != nil {
		return err
	}
	if InGitHubActions() {
		if err := r.WriteAnnotations(w, RepoPrefix(rd.Root)); err != nil {
			return err
		}
	}
	return r.WriteFollowUp(w, invocation, verbose)
}
