package guard

import (
	"fmt"
	"io"
	"strings"

	"github.com/promptc/promptc/source"

	"github.com/promptc/promptc/internal/plural"
)

// Diagnostics returns the result as diagnostics, one per problem a reviewer should see on a source line: first
// the changes, grouped by the source position of the block that owns them (GitHub shows only a few annotations per
// step), in path order of each group's first artifact; then the lint findings, with their lint id after the
// summary. A change names the definition of the constant, the template file's line or the value that wrote its first
// differing byte when one did (Change.Origin), else the block's id = "…" key; one that no block owns names the golden
// file (Check) or nothing (Diff). The summary of a group is the first artifact's headline, its origin and block, the
// other artifacts ("also P, Q") and the cached tokens the group invalidates.
func (r *Result) Diagnostics() source.Diagnostics {
	type group struct {
		at      source.Range
		changes []*Change
	}
	// A position is a file, line and column: the two sides of a diff may place the same key at different bytes.
	type pos struct {
		file      string
		line, col int
	}
	var groups []*group
	byAt := map[pos]*group{}
	for _, c := range r.Report.Changes {
		at := c.Source
		if c.Origin != nil && c.Origin.At.Known() {
			at = c.Origin.At
		}
		key := pos{at.Filename, at.Start.Line, at.Start.Column}
		g, ok := byAt[key]
		// Changes that no block owns are each their own annotation.
		if !ok || !at.Known() {
			if !at.Known() {
				at = source.Range{}
				if r.check {
					at = source.FileRange(r.Report.Old.Dir + c.Path)
				}
			}
			g = &group{at: at}
			byAt[key] = g
			groups = append(groups, g)
		}
		g.changes = append(g.changes, c)
	}
	var out source.Diagnostics
	for _, g := range groups {
		c := g.changes[0]
		msg := c.Headline()
		if owner := c.Owner(); owner != "" && c.Origin != nil {
			msg += "; " + c.Origin.String() + ", used by block " + owner
		} else if owner != "" {
			msg += "; block " + owner
		}
		tokens := 0
		for _, c := range g.changes {
			tokens += c.InvalidatedTokens
		}
		if len(g.changes) > 1 {
			paths := make([]string, 0, len(g.changes)-1)
			for _, c := range g.changes[1:] {
				paths = append(paths, c.Path)
			}
			msg += "; also " + listPaths(paths)
		}
		if tokens > 0 {
			msg += "; invalidates " + plural.Count(tokens, "token") + " of cached prefix"
		}
		out = append(out, source.Diagnostic{Summary: msg, Subject: g.at.Ptr()})
	}
	for _, f := range r.Findings {
		d := f.Diagnostic
		d.Summary += " (" + string(f.Lint) + ")"
		out = append(out, d)
	}
	return out
}

// WriteAnnotations writes the result's diagnostics (Diagnostics) as GitHub Actions workflow commands.
func (r *Result) WriteAnnotations(w io.Writer, prefix string) error {
	return WriteAnnotations(w, prefix, r.Diagnostics())
}

// WriteAnnotations writes one GitHub Actions workflow command per diagnostic, so that a workflow run shows each
// problem on its source line: ::error (::warning for a warning) with file= the subject's file name after prefix
// (the project root's path relative to the repository root, where GitHub resolves files: "" or "prompts/"), line=
// and col= where the subject starts when it has a line, and no file at all for a diagnostic without subject. The
// message is the summary, then "; " and the detail, then "; fix: " and the suggestion, when they are set. Values
// are escaped as GitHub's toolkit escapes them, so no file name or message can end the command early or forge one.
func WriteAnnotations(w io.Writer, prefix string, diags []source.Diagnostic) error {
	var b strings.Builder
	for _, d := range diags {
		b.WriteString("::" + d.Severity.String())
		if rng := d.Range(); rng.Known() {
			b.WriteString(" file=" + annotationValue(prefix+rng.Filename))
			if rng.Start.Line > 0 {
				fmt.Fprintf(&b, ",line=%d,col=%d", rng.Start.Line, max(rng.Start.Column, 1))
			}
		}
		msg := d.Summary
		if d.Detail != "" {
			msg += "; " + d.Detail
		}
		if d.Suggestion != "" {
			msg += "; fix: " + d.Suggestion
		}
		b.WriteString("::" + annotationData(msg) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// annotationData escapes a workflow command's message, as GitHub's toolkit does.
func annotationData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// annotationValue escapes a workflow command's property value.
func annotationValue(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
