package workspace

import (
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strconv"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/values"
)

// Results are what Install, Check or Uninstall did, one per target, in the order of the targets.
type Results []Result

// WriteText writes one line per file for a person (Result.String): what install or uninstall did to it, or found.
func (rs Results) WriteText(w io.Writer) error {
	for _, r := range rs {
		if _, err := fmt.Fprintln(w, r.String()); err != nil {
			return err
		}
	}
	return nil
}

// CheckReport is install --check's report on what Check found (docs/workspaces.md, "A repository that commits its
// generated AGENTS.md"): the files installing would change, each with the first line it would change, and the
// command that brings them up to date.
type CheckReport struct {
	// Task is the task whose runbook was checked; each line names it.
	Task    string
	Results Results
	// Fix is the command that installs the runbook (promptc install with the flags that were checked); the report
	// ends with it when a file is stale. "" leaves that line out.
	Fix string
}

// Stale counts the files installing would change.
func (r *CheckReport) Stale() int {
	n := 0
	for _, res := range r.Results {
		if res.Changed() {
			n++
		}
	}
	return n
}

// WriteText writes a line per stale file, FILE:LINE: and what installing would do from that line, then "To update
// it, run: FIX". When every file is current it writes nothing, as check does, so that silence means current.
func (r *CheckReport) WriteText(w io.Writer) error {
	task := strconv.Quote(r.Task)
	for _, res := range r.Results {
		var line string
		path, target := source.QuoteName(res.Path), strconv.Quote(res.Target.Name)
		switch res.Action {
		case Current, Absent:
			continue
		case Created:
			line = fmt.Sprintf("%s: missing: installing would create it, holding the runbook of task %s", path, task)
		case Appended:
			line = fmt.Sprintf("%s:%d: no block of target %s: installing would add the runbook of task %s after a blank line", path, res.Line, target, task)
		default:
			line = fmt.Sprintf("%s:%d: out of date: the block of target %s differs from the runbook of task %s from this line on", path, res.Line, target, task)
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	n := r.Stale()
	if n == 0 || r.Fix == "" {
		return nil
	}
	_, err := fmt.Fprintf(w, "To update %s, run: %s\n", plural.Noun(n, "it", "them"), r.Fix)
	return err
}

// LoadTargets loads the project in fsys as far as Uninstall needs: the targets of its promptc.toml. A project whose
// blocks, templates or fixtures do not compile (the usual state in the middle of an edit) must still let its
// runbook be taken out, so the problems returned are those of promptc.toml alone, less those at an entry of
// runbook.order or turn.order: those name blocks, and a block renamed or a blocks/ file broken puts them there.
// With no problem returned, the project's Targets can be trusted; the rest of it may be incomplete.
func LoadTargets(fsys fs.FS) (*blocks.Project, source.Diagnostics) {
	p, diags := values.Load(fsys)
	var order []source.Range
	for _, s := range []blocks.Section{p.Runbook, p.Turn} {
		for i := range s.Order {
			order = append(order, s.EntryRange(i))
		}
	}
	var out source.Diagnostics
	for _, d := range diags {
		if d.Subject == nil || d.Subject.Filename != blocks.ManifestFile || slices.Contains(order, *d.Subject) {
			continue
		}
		out = append(out, d)
	}
	return p, out
}
