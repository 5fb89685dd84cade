package guard

import (
	"errors"
	"fmt"
	"github.com/promptc/promptc"
	"io"
	"path/filepath"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/internal/gitfs"
	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/source"
)

// Diff compares the artifacts of the project at root as committed at git revision rev ("" means HEAD) with those of
// its working tree, staged or not: what promptc diff does. The revision is read from git objects (gitfs): the working
// tree, the index and the refs are never touched, and nothing is written.
//
// Both sides are compiled, so a change is attributed through the old side's source map too. A revision whose
// commit has no promptc.toml in root's directory, or whose project does not compile, is compared as empty, every
// artifact new; the result says why (OldMissing, OldProblems, WriteNote). The error is a source.Diagnostics when
// the working tree does not compile, listing every problem; otherwise it says that root is not in a git work tree
// or that git knows no commit rev, or it is a *assemble.LinkError when the working tree's golden/ (or anything
// beneath it) is a symbolic link, as for CheckDir.
func Diff(root, rev string, opts Options) (*Result, error) {
	return diff(root, rev, nil, opts)
}

// DiffArtifacts is Diff with the working tree's side already built: arts are the artifacts of the project at root as
// the caller compiled them (a preview that holds the loaded project), so the working tree is not compiled again. The
// revision is read and compiled as Diff does, and the result is the same.
func DiffArtifacts(root, rev string, arts []*assemble.Artifact, opts Options) (*Result, error) {
	if arts == nil {
		arts = []*assemble.Artifact{}
	}
	return diff(root, rev, arts, opts)
}

// diff is Diff, comparing built when it is not nil instead of compiling the working tree.
func diff(root, rev string, built []*assemble.Artifact, opts Options) (*Result, error) {
	if rev == "" {
		rev = "HEAD"
	}
	opts.Counter = opts.counter() // one counter for both sides, the comparison and the price
	// The same rule as check's: a project whose golden/ is a link is refused before anything is read.
	if err := goldenLinks(filepath.Join(root, "golden")); err != nil {
		return nil, err
	}
	type side struct {
		arts    []*assemble.Artifact
		prog    *assemble.Program
		missing error
		diags   source.Diagnostics
		err     error
	}
	// git and the old compilation run while the working tree compiles.
	olds := make(chan side, 1)
	go func() {
		var s side
		fsys, err := gitfs.Open(root, rev)
		switch {
		case errors.Is(err, gitfs.ErrNoProject):
			s.missing = err
		case err != nil:
			s.err = err
		default:
			pl, diags := open(fsys, opts)
			if len(diags) == 0 {
				s.arts, diags = pl.Program().Build()
			}
			if len(diags) > 0 {
				s.arts, s.diags = nil, diags
			} else {
				s.prog = pl.Program()
			}
		}
		olds <- s
	}()
	arts := built
	var diags source.Diagnostics
	var pl *promptc.Pipeline
	if arts == nil {
		pl, diags = openDir(root, opts)
		if len(diags) == 0 {
			arts, diags = pl.Program().Build()
		}
	}
	old := <-olds
	if len(diags) > 0 {
		return nil, diags
	}
	if old.err != nil {
		return nil, old.err
	}
	report := Compare(
		Side{Label: rev, Dir: "a/", Arts: old.arts},
		Side{Label: "working tree", Dir: "b/", Arts: arts},
		opts.counter())
	res := &Result{Report: report, Checked: assemble.CoverageOf(arts), OldMissing: old.missing, OldProblems: old.diags}
	if pl != nil && res.Changed() {
		var err error
		if res.Prices, err = priceChange(old.prog, pl, report, opts); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// WriteNote writes why the old side was compared as empty, as promptc diff prints it on stderr: that the revision
// has no project, or that its project does not compile, followed by its diagnostics. It writes nothing when the old
// side was compiled, and always for a Check result.
func (r *Result) WriteNote(w io.Writer) error {
	var err error
	switch {
	case r.OldMissing != nil:
		_, err = fmt.Fprintf(w, "promptc: %v; comparing against nothing\n", r.OldMissing)
	case len(r.OldProblems) > 0:
		_, err = fmt.Fprintf(w, "promptc: the project at %s does not compile (%s); comparing against nothing:\n%s",
			r.Report.Old.Label, plural.Count(len(r.OldProblems), "problem"), r.OldProblems.String())
	}
	return err
}
