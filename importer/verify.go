package importer

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing/fstest"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/lint"
)

// verify loads the project from r.Files as promptc would read it from disk, renders every task's runbook and
// compares it with r.Runbooks: an import that does not reproduce its input is an error, never a silent
// difference. An error-level lint finding (what promptc check fails on) is an error too.
func (r *Result) verify() error {
	if err := r.checkSizes(); err != nil {
		return err
	}
	fsys := fstest.MapFS{}
	for p, data := range r.Files {
		fsys[p] = &fstest.MapFile{Data: data}
	}
	prog, diags := assemble.Load(fsys)
	if len(diags) > 0 {
		return fmt.Errorf("the imported project does not compile (a bug in promptc import):\n%v", diags)
	}
	arts, diags := prog.Build()
	if len(diags) > 0 {
		return fmt.Errorf("the imported project does not render (a bug in promptc import):\n%v", diags)
	}
	got := map[string]string{}
	for _, a := range arts {
		if a.Fixture != "default" || a.Turn != 0 {
			return fmt.Errorf("the imported project renders an unexpected artifact %s (a bug in promptc import)", a.Path)
		}
		got[a.Task] = a.Text
	}
	for _, task := range r.Tasks {
		if got[task] != r.Runbooks[task] {
			return fmt.Errorf("task %q: the imported runbook differs from its input at byte %d (a bug in promptc import)", task, firstDiff(got[task], r.Runbooks[task]))
		}
	}
	if fs := lint.Errors(prog, arts); len(fs) > 0 {
		var b strings.Builder
		for _, f := range fs {
			b.WriteString("\n" + f.String())
		}
		return fmt.Errorf("promptc check would fail on the imported project (a bug in promptc import):%s", b.String())
	}
	return nil
}

// checkSizes refuses a project with a file larger than promptc reads (blocks.MaxSourceBytes): the TOML quoting and
// the comments naming each section's line make a file of blocks/ somewhat larger than the sections it holds.
func (r *Result) checkSizes() error {
	for _, p := range slices.Sorted(maps.Keys(r.Files)) {
		if n := len(r.Files[p]); n > blocks.MaxSourceBytes {
			return fmt.Errorf("the imported project's %s would be %d bytes, over the 8 MiB (%d bytes) promptc reads: split the files it comes from (%s) into smaller ones", p, n, blocks.MaxSourceBytes, r.sourcesOf(p))
		}
	}
	return nil
}

// sourcesOf names the input files whose sections are written in the project's file p.
func (r *Result) sourcesOf(p string) string {
	for i, task := range r.Tasks {
		if p == "blocks/"+task+".toml" {
			return r.names[i]
		}
	}
	return strings.Join(r.names, ", ")
}

func firstDiff(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
