package assemble_test

import (
	"os"
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/gen"
)

// TestPickTask: the gates decided at compile time pick, in every slot of both orders and every task, the block
// Pick(task, nil) picks by reading them, on the reference project and on generated projects (replacing blocks,
// tasks lists and except included), and on a project where replacements and except meet in one slot.
func TestPickTask(t *testing.T) {
	progs := map[string]*assemble.Program{
		"generated": mustLoad(t, gen.FS(gen.Files(200, 7))),
		"scattered": mustLoad(t, gen.FS(gen.Scattered(300, 5))),
		"gates":     mustLoad(t, archive(pickGates)),
	}
	if p, diags := assemble.Load(os.DirFS("../examples/tracker")); len(diags) == 0 {
		progs["tracker"] = p
	} else {
		t.Fatal(diags)
	}
	for name, prog := range progs {
		picks := 0
		for _, kind := range []blocks.Kind{blocks.Runbook, blocks.Turn} {
			for _, s := range prog.Slots(kind) {
				for _, ti := range []int{-1, len(prog.Project.Tasks)} {
					if b := s.PickTask(ti); b != nil {
						t.Errorf("%s: slot %s: PickTask(%d), outside the tasks, picks %s", name, s.Base.ID, ti, b.ID)
					}
				}
				for ti, task := range prog.Project.Tasks {
					want, got := s.Pick(task, nil), s.PickTask(ti)
					if got != want {
						t.Errorf("%s: slot %s, task %s: PickTask picks %v, Pick %v", name, s.Base.ID, task, got, want)
					}
					if want != nil && want != s.Base {
						picks++
					}
				}
			}
		}
		if name == "gates" && picks == 0 {
			t.Errorf("gates: no slot is filled by a replacing block: the case is not tested")
		}
	}
}

const pickGates = `
-- promptc.toml --
name = "gates"
tasks = ["a", "b", "c"]

[runbook]
order = ["one", "two"]
-- blocks/x.toml --
[[block]]
id = "one"
body = "one"

[[block]]
id = "one_b"
replaces = "one"
reason = "b reads it otherwise"
tasks = ["b", "c"]
except = ["c"]
body = "one for b"

[[block]]
id = "two"
except = ["a"]
body = "two"
-- fixtures/f.toml --
`
