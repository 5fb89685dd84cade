package templates

import (
	"testing"

	"github.com/promptc/promptc/blocks"
)

// TestTaskUses checks that every read of .task is recorded with the bytes that name it, so that a tool can point
// at the use that makes a block task-scoped.
func TestTaskUses(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string // the body text of each use
	}{
		{name: "none", body: "plain {{.x}}"},
		{name: "printed", body: "for {{.task}}", want: []string{".task"}},
		{name: "dollar and condition", body: `{{if eq $.task "chat"}}a{{end}} {{.task}}`, want: []string{".task", ".task"}},
		{name: "index", body: `{{index . "task"}}`, want: []string{`"task"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &blocks.Block{ID: "b", Body: tc.body}
			body, diags := Parse(b, Consts{})
			if len(diags) > 0 {
				t.Fatal(diags)
			}
			var got []string
			for _, u := range body.Uses.TaskUses {
				got = append(got, tc.body[u.Off:u.End])
			}
			if len(got) != len(tc.want) {
				t.Fatalf("uses %q, want %q", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("use %d is %q, want %q", i, got[i], tc.want[i])
				}
			}
			if body.Uses.Task != (len(tc.want) > 0) {
				t.Errorf("Task = %v with %d uses", body.Uses.Task, len(tc.want))
			}
		})
	}
}
