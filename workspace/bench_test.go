package workspace_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/workspace"
)

// trackerRunbook renders the reference project and returns its largest runbook (the one install writes the most
// bytes of), its name, and the project's claude target.
func trackerRunbook(b *testing.B) (string, string, *blocks.Target) {
	b.Helper()
	prog, diags := assemble.LoadDir(filepath.Join("..", "examples", "tracker"))
	if len(diags) > 0 {
		b.Fatalf("examples/tracker: %s", diags)
	}
	arts, diags := prog.Build()
	if len(diags) > 0 {
		b.Fatalf("examples/tracker: %s", diags)
	}
	var largest *assemble.Artifact
	for _, a := range arts {
		if a.Kind == blocks.Runbook && (largest == nil || len(a.Text) > len(largest.Text)) {
			largest = a
		}
	}
	tg := prog.Project.Target("claude")
	if largest == nil || tg == nil {
		b.Fatal("examples/tracker has no runbook or no claude target")
	}
	return largest.Text, largest.Path, tg
}

// BenchmarkInstall is the work of promptc install of the reference project's largest runbook into a 1 MiB context
// file (the repository's own text and a block from an earlier install): replace writes the file each time, the
// runbooks alternating; current finds it up to date and writes nothing; check says what install would change.
func BenchmarkInstall(b *testing.B) {
	runbook, name, tg := trackerRunbook(b)
	other := runbook + "One more rule, from the next release.\n"
	var sb strings.Builder
	for i := 0; sb.Len() < 1<<20; i++ {
		fmt.Fprintf(&sb, "Line %d of the repository's own instructions for the agents that work in it.\n", i)
	}
	user := sb.String()
	withOther := user + "\n\n" + string(workspace.Block(tg, other))
	b.Logf("runbook %s: %d bytes; context file: %d bytes", name, len(runbook), len(withOther))

	setup := func(b *testing.B) string {
		b.Helper()
		dir := b.TempDir()
		if err := os.WriteFile(filepath.Join(dir, tg.File), []byte(withOther), 0o644); err != nil {
			b.Fatal(err)
		}
		return dir
	}
	run := func(b *testing.B, op func(dir, runbook string, ts ...*blocks.Target) (workspace.Results, error), dir, runbook string, want workspace.Action) {
		b.Helper()
		res, err := op(dir, runbook, tg)
		if err != nil || len(res) != 1 || res[0].Action != want {
			b.Fatalf("%v, %v; want %v", res, err, want)
		}
	}

	b.Run("replace", func(b *testing.B) {
		dir := setup(b)
		b.SetBytes(int64(len(withOther)))
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			rb := runbook
			if i%2 == 1 {
				rb = other
			}
			run(b, workspace.Install, dir, rb, workspace.Replaced)
			i++
		}
	})
	b.Run("current", func(b *testing.B) {
		dir := setup(b)
		run(b, workspace.Install, dir, runbook, workspace.Replaced)
		b.SetBytes(int64(len(withOther)))
		b.ReportAllocs()
		for b.Loop() {
			run(b, workspace.Install, dir, runbook, workspace.Current)
		}
	})
	b.Run("check", func(b *testing.B) {
		dir := setup(b)
		b.SetBytes(int64(len(withOther)))
		b.ReportAllocs()
		for b.Loop() {
			run(b, workspace.Check, dir, runbook, workspace.Replaced)
		}
	})
}
