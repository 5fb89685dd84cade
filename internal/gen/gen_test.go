package gen

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/lint"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/tokens"
)

// TestProjectBuilds compiles generated projects of several sizes: they must load, compile and build with no
// diagnostic, hold exactly the requested number of blocks and tasks, and exercise the features the benchmarks are
// meant to measure.
func TestProjectBuilds(t *testing.T) {
	for _, tc := range []struct {
		blocks, tasks int
	}{
		{blocks: 10, tasks: 3},
		{blocks: 10, tasks: 20},
		{blocks: 200, tasks: 20},
		{blocks: 2000, tasks: 20},
	} {
		t.Run(fmt.Sprintf("blocks=%d/tasks=%d", tc.blocks, tc.tasks), func(t *testing.T) {
			if tc.blocks >= 2000 && testing.Short() {
				t.Skip("large project skipped in -short mode")
			}
			files := Files(tc.blocks, tc.tasks)
			prog, diags := assemble.Load(FS(files))
			if len(diags) > 0 {
				t.Fatalf("load: %d diagnostics:\n%s", len(diags), diags)
			}
			arts, diags := prog.Build()
			if len(diags) > 0 {
				t.Fatalf("build: %d diagnostics:\n%s", len(diags), diags)
			}
			p := prog.Project
			if len(p.Blocks) != tc.blocks {
				t.Errorf("project has %d blocks, want %d", len(p.Blocks), tc.blocks)
			}
			if len(p.Tasks) != tc.tasks {
				t.Errorf("project has %d tasks, want %d", len(p.Tasks), tc.tasks)
			}
			if len(p.Fixtures) != 3 {
				t.Errorf("project has %d fixtures, want 3", len(p.Fixtures))
			}
			for _, f := range p.Fixtures {
				if len(f.Turns) != 2 {
					t.Errorf("fixture %s has %d turns, want 2", f.Name, len(f.Turns))
				}
			}
			// alpha and gamma render in every task, beta in half of them; each gives a runbook and two turns.
			if want := 3 * (2*tc.tasks + tc.tasks/2); len(arts) != want {
				t.Errorf("build gave %d artifacts, want %d", len(arts), want)
			}
			for _, a := range arts {
				if a.Kind == blocks.Runbook && a.Text == "" {
					t.Errorf("%s is empty", a.Path)
				}
			}
			checkCoverage(t, p, files)
		})
	}
}

// checkCoverage checks that the generated project uses what a real one does.
func checkCoverage(t *testing.T, p *blocks.Project, files map[string][]byte) {
	t.Helper()
	types := map[string]bool{}
	for _, v := range p.Vars {
		types[v.Scope.String()+" "+v.Type.String()] = true
		if v.Type != blocks.TypeBool && v.Type != blocks.TypeInt {
			types[v.Scope.String()+" "+v.Trust.String()] = true
		}
	}
	for _, scope := range []string{"session", "turn"} {
		for _, kind := range []string{"string", "text", "bool", "int", "list", "trusted", "untrusted", "background"} {
			if !types[scope+" "+kind] {
				t.Errorf("no %s variable of type or trust %s", scope, kind)
			}
		}
	}
	if len(p.Consts) < 4 {
		t.Errorf("only %d constants", len(p.Consts))
	}
	count := func(pred func(b *blocks.Block) bool) int {
		n := 0
		for _, b := range p.Blocks {
			if pred(b) {
				n++
			}
		}
		return n
	}
	features := map[string]int{
		"titled":        count(func(b *blocks.Block) bool { return b.Title != "" }),
		"task subset":   count(func(b *blocks.Block) bool { return len(b.Tasks) > 0 && b.Tasks[0] != "*" }),
		"except":        count(func(b *blocks.Block) bool { return len(b.Except) > 0 }),
		"when":          count(func(b *blocks.Block) bool { return b.When != "" }),
		"raw":           count(func(b *blocks.Block) bool { return b.Raw }),
		"template file": count(func(b *blocks.Block) bool { return b.Template != "" }),
		"ref":           count(func(b *blocks.Block) bool { return strings.Contains(b.Body, "{{ref ") }),
		"const":         count(func(b *blocks.Block) bool { return strings.Contains(b.Body, "const \"") }),
		"static":        count(func(b *blocks.Block) bool { return !b.Raw && !strings.Contains(b.Body, "{{") }),
		"turn":          count(func(b *blocks.Block) bool { return b.Section == blocks.Turn }),
	}
	if len(p.Blocks) >= 100 {
		features["replaces"] = count(func(b *blocks.Block) bool { return b.Replaces != "" })
		for _, action := range []string{"{{if ", "{{range ", "{{bullets ", "{{quote ", "{{json ", "{{.task}}", "{{join "} {
			features[action] = count(func(b *blocks.Block) bool { return strings.Contains(b.Body, action) })
		}
	}
	for name, n := range features {
		if n == 0 {
			t.Errorf("no block has feature %q", name)
		}
	}
	blockFiles := 0
	for name := range files {
		if strings.HasPrefix(name, "blocks/") {
			blockFiles++
		}
	}
	if want := len(p.Blocks)/blocksPerFile + 1; blockFiles < want {
		t.Errorf("%d files under blocks/, want at least %d", blockFiles, want)
	}
}

// TestProjectDeterministic: the same sizes give the same bytes, and different sizes different projects.
func TestProjectDeterministic(t *testing.T) {
	a, b := Files(200, 20), Files(200, 20)
	if len(a) != len(b) {
		t.Fatalf("two generations hold %d and %d files", len(a), len(b))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between two generations", name)
		}
	}
	if bytes.Equal(a["promptc.toml"], Files(201, 20)["promptc.toml"]) {
		t.Errorf("promptc.toml does not depend on the number of blocks")
	}
}

// TestWriteDir: a project written to disk builds to the same bytes as the in-memory one.
func TestWriteDir(t *testing.T) {
	files := Files(50, 5)
	dir := t.TempDir()
	if err := WriteDir(dir, files); err != nil {
		t.Fatal(err)
	}
	build := func(prog *assemble.Program, diags source.Diagnostics) []*assemble.Artifact {
		t.Helper()
		if len(diags) > 0 {
			t.Fatalf("load: %s", diags)
		}
		arts, diags := prog.Build()
		if len(diags) > 0 {
			t.Fatalf("build: %s", diags)
		}
		return arts
	}
	disk := build(assemble.LoadDir(dir))
	mem := build(assemble.Load(FS(files)))
	if len(disk) != len(mem) {
		t.Fatalf("%d artifacts from disk, %d from memory", len(disk), len(mem))
	}
	for i := range disk {
		if disk[i].Path != mem[i].Path || disk[i].Text != mem[i].Text {
			t.Errorf("artifact %d: %s from disk differs from %s in memory", i, disk[i].Path, mem[i].Path)
		}
	}
}

func TestProjectTooSmall(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Errorf("Project(%d, %d) did not panic", MinBlocks-1, MinTasks)
		}
	}()
	Files(MinBlocks-1, MinTasks)
}

// TestScattered: the scattered shape builds as cleanly as Files's, keeps runbook.order by block number, and puts
// session blocks among global ones, so that scope-inversion finds blocks to move.
func TestScattered(t *testing.T) {
	files := Scattered(200, 5)
	prog, diags := assemble.Load(FS(files))
	if len(diags) > 0 {
		t.Fatalf("load: %s", diags)
	}
	arts, diags := prog.Build()
	if len(diags) > 0 {
		t.Fatalf("build: %s", diags)
	}
	order := prog.Project.Runbook.Order
	if !slices.IsSorted(order) {
		t.Errorf("runbook.order is not by block number: %q…", order[:10])
	}
	session, inverted := 0, 0
	for i, id := range order {
		if s, _ := prog.Scope(id); s != blocks.ScopeSession {
			continue
		}
		session++
		for _, later := range order[i+1:] {
			if s, _ := prog.Scope(later); s == blocks.ScopeGlobal {
				inverted++
				break
			}
		}
	}
	if session < len(order)/7 || inverted < session/2 {
		t.Errorf("%d session blocks of %d, %d of them before a global block; want at least a seventh, most of them inverted", session, len(order), inverted)
	}
	findings := lint.Run(prog, arts, tokens.New(tokens.O200k))
	n := 0
	for _, f := range findings {
		if f.Lint == lint.ScopeInversion {
			n++
		}
	}
	if n < inverted/2 {
		t.Errorf("scope-inversion found %d blocks to move, want at least %d", n, inverted/2)
	}
	if o := Files(200, 5)["promptc.toml"]; bytes.Equal(o, files["promptc.toml"]) {
		t.Error("Scattered's manifest is Project's")
	}
}
