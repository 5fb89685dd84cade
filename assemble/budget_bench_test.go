package assemble_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/promptc/promptc/assemble"
)

// BenchmarkTurnBudget renders a turn message of 400 comments, one a line, with the o200k_base counter: within its
// budget, and over it (the budget drops the last comments one at a time, about 200 of them). Reported per turn
// message.
func BenchmarkTurnBudget(b *testing.B) {
	for _, max := range []int{100000, 3000} {
		prog := budgetBenchProgram(b, 400, max, "'''\nnotes:\n{{range .notes}}- {{.}}\n{{end}}'''", false)
		s, err := prog.NewSession("t", nil)
		if err != nil {
			b.Fatal(err)
		}
		f := prog.Project.Fixtures[0]
		b.Run(fmt.Sprintf("max_tokens=%d", max), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				a, err := s.Turn(f.Turns[0])
				if err != nil {
					b.Fatal(err)
				}
				if max < 100000 && !a.Budget.Over() {
					b.Fatal("not over the budget")
				}
			}
		})
	}
}

// BenchmarkTurnBudgetLarge is the turn budget at the sizes docs/reference.md#turn-budget is held to: 8,000 comments
// in one block, printed by a range or by bullets, and 16,000 printed by two blocks, cut to 200 tokens, so that the
// budget drops nearly every item one at a time (all of one block's, which it then omits, and nearly all of the
// other's). Each should take well under a second and 300 MB; the one-at-a-time loop it replaces took 13 s and 3.4
// GB for the first, and more than 300 s for the last.
func BenchmarkTurnBudgetLarge(b *testing.B) {
	for _, bc := range []struct {
		name  string
		items int
		body  string
		twice bool
	}{
		{"items=8000/range", 8000, "'''\nnotes:\n{{range .notes}}- {{.}}\n{{end}}'''", false},
		{"items=8000/bullets", 8000, "'''\nnotes:\n\n{{bullets .notes}}'''", false},
		{"items=16000/two_blocks", 16000, "'''\nnotes:\n{{range .notes}}- {{.}}\n{{end}}'''", true},
	} {
		prog := budgetBenchProgram(b, bc.items, 200, bc.body, bc.twice)
		s, err := prog.NewSession("t", nil)
		if err != nil {
			b.Fatal(err)
		}
		f := prog.Project.Fixtures[0]
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				a, err := s.Turn(f.Turns[0])
				if err != nil {
					b.Fatal(err)
				}
				if cut := a.Budget.Cuts[0].Items; cut < bc.items*9/10 {
					b.Fatalf("the budget dropped %d items: %s", cut, a.Budget)
				}
			}
		})
	}
}

// budgetBenchProgram is budgetProject with n comments in the notes, printed by body (and by a second block
// "notes2", later, when twice), and a budget of max tokens, counted with o200k_base.
func budgetBenchProgram(b *testing.B, n, max int, body string, twice bool) *assemble.Program {
	b.Helper()
	var items []string
	for i := range n {
		items = append(items, fmt.Sprintf("%q", fmt.Sprintf("comment %d: the build failed on step %d, retry with a clean cache", i, i%7)))
	}
	src := strings.Replace(budgetProject, "MAX", fmt.Sprint(max), 1)
	src = strings.Replace(src, "max_items = 3\n", "", 1)
	src = strings.Replace(src, "body = 'notes:{{range .notes}} {{.}}{{end}}'", "body = "+body, 1)
	if twice {
		src = strings.Replace(src, `order = ["notes", "files", "ask"]`, `order = ["notes", "files", "notes2", "ask"]`, 1)
		src = strings.Replace(src, "[[block]]\nid = \"ask\"", "[[block]]\nid = \"notes2\"\nbody = "+body+"\n\n[[block]]\nid = \"ask\"", 1)
	}
	src = strings.Replace(src, `notes = ["n1", "n2", "n3", "n4"]`, "notes = ["+strings.Join(items, ", ")+"]", 1)
	prog := mustLoad(b, archive(src))
	if len(prog.Project.Fixtures) == 0 || (twice && prog.Project.ByID["notes2"] == nil) {
		b.Fatal("the project is not as the benchmark means")
	}
	return prog
}
