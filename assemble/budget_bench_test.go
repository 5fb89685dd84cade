package assemble_test

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkTurnBudget renders a turn message of 400 comments, one a line, with the o200k_base counter: within its
// budget, and over it (the budget drops the last comments one at a time, about 200 of them). Reported per turn
// message.
func BenchmarkTurnBudget(b *testing.B) {
	for _, max := range []int{100000, 3000} {
		var items []string
		for i := range 400 {
			items = append(items, fmt.Sprintf("%q", fmt.Sprintf("comment %d: the build failed on step %d, retry with a clean cache", i, i%7)))
		}
		src := strings.Replace(budgetProject, "MAX", fmt.Sprint(max), 1)
		src = strings.Replace(src, "max_items = 3\n", "", 1)
		src = strings.Replace(src, "body = 'notes:{{range .notes}} {{.}}{{end}}'", "body = '''\nnotes:\n{{range .notes}}- {{.}}\n{{end}}'''", 1)
		src = strings.Replace(src, `notes = ["n1", "n2", "n3", "n4"]`, "notes = ["+strings.Join(items, ", ")+"]", 1)
		prog := mustLoad(b, archive(src))
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
