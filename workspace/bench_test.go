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
	withOther := user + "\n\n" + string(workspace.Bytes(tg, other))
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

// BenchmarkFind is Find on files of 1x and 10x a size, for the shapes that could make it quadratic: prose
// mentioning the markers on every line, a fence on every few lines, fences that never close with runs growing
// shorter (each could search the rest of the file for its close), and a thousand half-blocks (begin marker lines
// with no end). The time per byte should stay flat from 1x to 10x.
func BenchmarkFind(b *testing.B) {
	tg := target()
	shapes := map[string]func(n int) string{
		"prose": func(n int) string {
			return strings.Repeat("Never edit between the `<!-- BEGIN T -->` lines, or <!-- END T --> either.\n", n)
		},
		"closed fences": func(n int) string {
			return strings.Repeat("Text.\n```\n<!-- BEGIN T -->\n<!-- END T -->\n```\n", n)
		},
		"unclosed fences, shorter and shorter": func(n int) string {
			var sb strings.Builder
			for i := n; i > 0; i-- {
				sb.WriteString(strings.Repeat("`", 3+i%200))
				sb.WriteString("\ncode\n")
			}
			return sb.String() + "<!-- BEGIN T -->\nRules.\n<!-- END T -->\n"
		},
		"begin markers in a fence": func(n int) string {
			return "```\n" + strings.Repeat("<!-- BEGIN T -->\nx\n", n) + "```\n" + old
		},
	}
	for _, name := range []string{"prose", "closed fences", "unclosed fences, shorter and shorter", "begin markers in a fence"} {
		for _, n := range []int{2000, 20000} {
			data := []byte(shapes[name](n))
			b.Run(fmt.Sprintf("%s/%dKB", name, len(data)>>10), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					if _, err := workspace.Find(data, tg); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
