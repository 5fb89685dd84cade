package guard

import (
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"unsafe"

	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/source"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/golden"
	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/lint"
	"github.com/promptc/promptc/tokens"
)

// Options tune Check and Diff.
type Options struct {
	// Counter prices each change in tokens of cached prefix; nil means an o200k_base counter. Its vocabulary loads
	// on the first count, so a comparison where nothing differs loads none.
	Counter *tokens.Counter
	// Traffic prices a Check's or Diff's change per task and model (docs/usage.md#the-price-of-a-change); nil takes
	// the new side's [traffic], and no traffic at all prices nothing (the report is as without it). CheckDir prices
	// against the project as committed at HEAD when that builds golden/'s bytes exactly (golden files hold text, not
	// the source map a replay needs); otherwise, and in Check, nothing is priced.
	Traffic []projection.Traffic
}

func (o Options) counter() *tokens.Counter {
	if o.Counter != nil {
		return o.Counter
	}
	tok := tokens.New(tokens.O200k)
	return tok
}

// Result is what Check or Diff found: the report of every artifact that differs, the error-level lint findings
// (Check), and why the old side was compared as empty when it was (Diff). Its writers print it as text, markdown,
// JSON or GitHub Actions annotations; Changed and Passed are the exit policy.
type Result struct {
	// Report compares the old side (golden/, or the project at the revision) with the new one (the artifacts built
	// now, or the working tree's).
	Report *Report
	// Findings are the error-level lint findings of the new side, sorted by position (Check only: warnings are
	// promptc lint's business, and Diff runs no lints).
	Findings []lint.Finding
	// OldMissing is set by Diff when the revision has no project in the root's directory (no promptc.toml there in
	// that commit: from before the project was added, say): the old side was compared as empty, and this says which
	// commit and where it looked.
	OldMissing error
	// OldProblems are set by Diff when the project at the revision does not compile (the change under review may
	// be the fix): the old side was compared as empty, and these are its diagnostics.
	OldProblems source.Diagnostics

	// Checked counts the artifacts compared (the new side's): what promptc check --verbose names on a pass.
	Checked assemble.Coverage

	// NoGolden is set by Check when the golden tree holds no file at all (golden/ does not exist yet): nothing has
	// been accepted, every artifact is new, and WriteText summarises them rather than print every byte.
	NoGolden bool

	// Prices are what the change costs in production, per traffic entry (with traffic only; nil otherwise, and
	// for a check whose golden/ is not what HEAD builds).
	Prices []projection.ChangePrice

	// check is set by Check: the title then names golden/ instead of a revision.
	check bool
}

// Changed reports whether an artifact differs: promptc check fails on it, and so does promptc diff --exit-code.
func (r *Result) Changed() bool { return len(r.Report.Changes) > 0 }

// Passed reports whether no artifact differs and no lint finding is an error: promptc check exits 0 exactly when it
// does (1 otherwise; problems that stop Check from comparing are its error, exit status 2).
func (r *Result) Passed() bool {
	errs, _ := lint.CountSeverities(r.Findings)
	return !r.Changed() && errs == 0
}

// Title is the report's first line: "promptc check: 2 artifacts differ from golden/" ("1 artifact differs"),
// "promptc check: no golden files yet: 2 artifacts to accept" (NoGolden), or "promptc diff REV: 2 artifacts
// changed", with REV as given to Diff.
func (r *Result) Title() string {
	n := len(r.Report.Changes)
	if r.NoGolden {
		return "promptc check: no golden files yet: " + plural.Count(n, "artifact") + " to accept"
	}
	if r.check {
		return "promptc check: " + plural.Thousands(n) + " " + plural.Noun(n, "artifact differs", "artifacts differ") + " from golden/"
	}
	return "promptc diff " + r.Report.Old.Label + ": " + plural.Count(n, "artifact") + " changed"
}

// Check compares the artifacts prog builds with the golden tree in goldenDir, byte for byte, and runs the
// error-level lints: what promptc check does, for a Go test that asserts the prompts still match golden/.
//
// goldenDir is compared while the lints run, files holding the built bytes a chunk at a time without being read into
// memory; tokens are counted only for what differs. In the report the
// old side is labelled golden/ and the new one build/, whatever goldenDir is called. The error is a
// source.Diagnostics when an artifact cannot be rendered (a fixture lacks a required value, say), listing every
// problem; otherwise it is a problem reading goldenDir: a *assemble.LinkError, before any golden file is read, when
// goldenDir or anything beneath it is a symbolic link (golden.CheckLinks). A missing goldenDir is an empty
// tree: every artifact is new.
func Check(prog *assemble.Program, goldenDir string, opts Options) (*Result, error) {
	arts, diags := prog.Build()
	if len(diags) > 0 {
		return nil, diags
	}
	linted := make(chan []lint.Finding, 1)
	go func() { linted <- lint.Errors(prog, arts) }()
	// A golden file that holds the built bytes is compared in chunks, not read: its text is then the built one,
	// and Compare finds them equal at once.
	tree, err := golden.ReadAgainst(goldenDir, assemble.TreeOf(arts))
	if err != nil {
		<-linted
		return nil, err
	}
	gold := fromBytes(tree, func(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) })
	report := Compare(
		Side{Label: "golden", Dir: "golden/", Arts: gold},
		Side{Label: "build", Dir: "build/", Arts: arts},
		opts.counter())
	return &Result{Report: report, Findings: <-linted, Checked: assemble.CoverageOf(arts), NoGolden: len(tree) == 0 && len(arts) > 0, check: true}, nil
}

// CheckDir is Check of the project at root against root/golden, as promptc check runs it. The error is a
// source.Diagnostics when the project does not compile or an artifact cannot be rendered, listing every problem;
// otherwise it is a problem reading golden/, a *assemble.LinkError naming the link as golden/… when golden/ or
// anything beneath it is a symbolic link (found before the project is loaded).
func CheckDir(root string, opts Options) (*Result, error) {
	dir := filepath.Join(root, "golden")
	if err := goldenLinks(dir); err != nil {
		return nil, err
	}
	opts.Counter = opts.counter() // one counter for the pipeline, the comparison and the price
	pl, diags := openDir(root, opts)
	if len(diags) > 0 {
		return nil, diags
	}
	res, err := Check(pl.Program(), dir, opts)
	if err != nil || !res.Changed() || res.NoGolden {
		return res, err
	}
	if before := committedGolden(root, res.Report.Old.Arts, opts); before != nil {
		if res.Prices, err = priceChange(before, pl, res.Report, opts); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// goldenLinks is golden.CheckLinks of a project's golden/, the link named from the project root.
func goldenLinks(dir string) error {
	err := golden.CheckLinks(dir)
	var le *assemble.LinkError
	if errors.As(err, &le) {
		le.Dir = "golden"
	}
	return err
}

// Updated is what Update did to a golden tree: the files it wrote and removed, and how many it left alone.
type Updated struct {
	assemble.TreeChanges
}

// Update makes goldenDir hold exactly the artifacts prog builds, as golden.Update writes them (atomically, stale
// files removed, unchanged files left alone, a .gitattributes created when there is none): what promptc check
// --update does to accept the current prompts. It runs no lints. The error is a source.Diagnostics when an artifact
// cannot be rendered, and then goldenDir is left as it was; otherwise a problem writing the tree, a
// *assemble.LinkError (nothing built, written or removed) when goldenDir or anything beneath it is a symbolic link.
func Update(prog *assemble.Program, goldenDir string) (*Updated, error) {
	if err := golden.CheckLinks(goldenDir); err != nil {
		return nil, err
	}
	arts, diags := prog.Build()
	if len(diags) > 0 {
		return nil, diags
	}
	ch, err := golden.Update(goldenDir, assemble.TreeOf(arts))
	return &Updated{ch}, err
}

// UpdateDir is Update of the project at root into root/golden, as promptc check --update runs it. The error is a
// source.Diagnostics when the project does not compile or an artifact cannot be rendered, and then golden/ is left as
// it was; otherwise a problem writing golden/, a *assemble.LinkError naming the link as golden/… when golden/ or
// anything beneath it is a symbolic link (found before the project is loaded, as CheckDir finds it).
func UpdateDir(root string) (*Updated, error) {
	dir := filepath.Join(root, "golden")
	if err := goldenLinks(dir); err != nil {
		return nil, err
	}
	pl, diags := openDir(root, Options{})
	if len(diags) > 0 {
		return nil, diags
	}
	return Update(pl.Program(), dir)
}

// WriteText writes what the update did, as promptc check --update prints it on stderr: one line per file written
// or removed, in path order, then how many files were left unchanged. It writes nothing when the update wrote and
// removed nothing. Paths are given under golden/, quoted as source.QuoteName quotes names.
func (u *Updated) WriteText(w io.Writer) error {
	if len(u.Written) == 0 && len(u.Removed) == 0 {
		return nil
	}
	type line struct{ path, verb string }
	lines := make([]line, 0, len(u.Written)+len(u.Removed))
	for _, p := range u.Written {
		lines = append(lines, line{p, "wrote"})
	}
	for _, p := range u.Removed {
		lines = append(lines, line{p, "removed"})
	}
	// A path is written or removed, never both: sorting by path alone is enough.
	slices.SortFunc(lines, func(a, b line) int { return strings.Compare(a.path, b.path) })
	var b strings.Builder
	for _, l := range lines {
		b.WriteString("promptc: " + l.verb + " " + source.QuoteName("golden/"+l.path) + "\n")
	}
	b.WriteString("promptc: " + plural.Count(u.Unchanged, "file") + " in golden/ left unchanged\n")
	_, err := io.WriteString(w, b.String())
	return err
}
