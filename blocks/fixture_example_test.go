package blocks_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/blocks"
)

// A command that writes bytes takes the only fixture rendering a task and refuses to guess between several; one
// that measures or explains samples the first by name (docs/reference.md#default-and-sample-fixtures).
func ExampleProject_SampleFixture() {
	fsys := fstest.MapFS{
		"promptc.toml":         {Data: []byte("name = \"acme\"\ntasks = [\"issue\", \"chat\", \"triage\"]\n")},
		"fixtures/zeta.toml":   {Data: []byte("tasks = [\"issue\", \"chat\"]\n")},
		"fixtures/alpha.toml":  {Data: []byte("tasks = [\"issue\"]\n")},
		"fixtures/unused.toml": {Data: []byte("tasks = []\n")},
	}
	p, diags := blocks.Load(fsys)
	if len(diags) > 0 {
		fmt.Print(diags)
		return
	}
	for _, task := range p.Tasks {
		sample := "none"
		if f := p.SampleFixture(task); f != nil {
			sample = f.Name
		}
		if f, names := p.DefaultFixture(task); f != nil {
			fmt.Printf("%s: default %s, sample %s\n", task, f.Name, sample)
		} else {
			fmt.Printf("%s: no default (rendered by %q), sample %s\n", task, names, sample)
		}
	}
	// Output:
	// issue: no default (rendered by ["alpha" "zeta"]), sample alpha
	// chat: default zeta, sample zeta
	// triage: no default (rendered by []), sample none
}

// A command that renders a task takes the fixture named, or the task's only one; each refusal says which of four it
// is, so that a command can add how to choose.
func ExampleProject_FixtureFor() {
	fsys := fstest.MapFS{
		"promptc.toml":        {Data: []byte("name = \"acme\"\ntasks = [\"issue\", \"chat\", \"triage\"]\n")},
		"fixtures/zeta.toml":  {Data: []byte("tasks = [\"issue\", \"chat\"]\n")},
		"fixtures/alpha.toml": {Data: []byte("tasks = [\"issue\"]\n")},
	}
	p, diags := blocks.Load(fsys)
	if len(diags) > 0 {
		fmt.Print(diags)
		return
	}
	for _, q := range [][2]string{{"chat", ""}, {"issue", "alpha"}, {"issue", ""}, {"triage", ""}, {"chat", "alpha"}, {"chat", "zata"}} {
		f, err := p.FixtureFor(q[0], q[1])
		if err != nil {
			fmt.Printf("%s %q: %v\n", q[0], q[1], err)
			continue
		}
		fmt.Printf("%s %q: %s\n", q[0], q[1], f.Name)
	}
	// Output:
	// chat "": zeta
	// issue "alpha": alpha
	// issue "": 2 fixtures render task "issue" (alpha, zeta): choose one
	// triage "": no fixture renders task "triage"
	// chat "alpha": fixture "alpha" does not render task "chat" (see its tasks)
	// chat "zata": no fixture "zata" (did you mean "zeta"?)
}

func TestFixtureForProblems(t *testing.T) {
	fsys := fstest.MapFS{
		"promptc.toml":        {Data: []byte("name = \"acme\"\ntasks = [\"issue\", \"chat\", \"triage\"]\n")},
		"fixtures/zeta.toml":  {Data: []byte("tasks = [\"issue\", \"chat\"]\n")},
		"fixtures/alpha.toml": {Data: []byte("tasks = [\"issue\"]\n")},
	}
	p, diags := blocks.Load(fsys)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	for _, tt := range []struct {
		task, name string
		want       blocks.FixtureProblem
		names      []string
	}{
		{"issue", "", blocks.SeveralFixturesForTask, []string{"alpha", "zeta"}},
		{"triage", "", blocks.NoFixtureForTask, nil},
		{"chat", "alpha", blocks.FixtureExcludesTask, nil},
		{"chat", "zata", blocks.UnknownFixture, []string{"alpha", "zeta"}},
	} {
		_, err := p.FixtureFor(tt.task, tt.name)
		var fe *blocks.FixtureError
		if !errors.As(err, &fe) || fe.Problem != tt.want || fe.Task != tt.task || fe.Name != tt.name || !slices.Equal(fe.Names, tt.names) {
			t.Errorf("FixtureFor(%q, %q) = %#v, want problem %d with names %q", tt.task, tt.name, err, tt.want, tt.names)
		}
	}
}
