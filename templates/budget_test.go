package templates

import (
	"strings"
	"sync"
	"testing"
	"time"
)

const runaway = "the body's loops run more than 1048576 steps (iterations, each weighted by the actions it runs); a template loop is probably running away"

// TestRangeBudget: loops stop with a diagnostic at the range that ran out, in well under a second; loops within
// the budget run as text/template runs them.
func TestRangeBudget(t *testing.T) {
	data := map[string]any{"l": []string{"a", "b", "c"}, "m": map[string]any{"y": 2, "x": 1}, "empty": []string{},
		"big": make([]string, MaxSteps+1), "fits": make([]string, MaxSteps), "name": "Ada", "n": 3, "nothing": nil}
	tests := []struct {
		name, body string
		want       string // output, or the whole diagnostic when it starts with "templates/"
	}{
		{name: "nested empty loops", body: "{{range 100000}}{{range 100000}}{{end}}{{end}}",
			want: `templates/t.md:1:17: block "b": ` + runaway},
		{name: "largest int", body: "{{range 9223372036854775807}}{{end}}", want: `templates/t.md:1:1: block "b": ` + runaway},
		{name: "on a later line", body: "ok\n  {{range $i := 2000000}}{{$i}}{{end}}", want: `templates/t.md:2:3: block "b": ` + runaway},
		{name: "largest int with an early break", body: "{{range $i := 9223372036854775807}}{{if eq $i 3}}{{break}}{{end}}{{$i}}{{end}}",
			want: "012"},
		{name: "largest int with a break never taken", body: "{{range $i := 9223372036854775807}}{{if lt $i 0}}{{break}}{{end}}{{end}}",
			want: `templates/t.md:1:1: block "b": ` + runaway},
		{name: "a break of an inner range does not count", body: "{{range 9223372036854775807}}{{range 1}}{{break}}{{end}}{{end}}",
			want: `templates/t.md:1:1: block "b": ` + runaway},
		{name: "list over the budget", body: "{{range .big}}{{end}}", want: `templates/t.md:1:1: block "b": ` + runaway},
		// An empty body weighs 1 step an iteration: exactly MaxSteps iterations fit, one more does not.
		{name: "list of exactly the budget", body: "{{range .fits}}{{end}}done", want: "done"},
		{name: "int of exactly the budget", body: "{{range 1048576}}{{end}}done", want: "done"},
		{name: "int one over the budget", body: "{{range 1048577}}{{end}}", want: `templates/t.md:1:1: block "b": ` + runaway},
		{name: "weight counts the body", body: "{{range 100000}}{{if eq 1 2}}{{end}}{{end}}", want: `templates/t.md:1:1: block "b": ` + runaway},
		// The body weighs 13 steps: 1 for the iteration, 1 for the if, 1 for its command, 10 for calling eq.
		{name: "within the budget", body: "{{range 80000}}{{if eq 1 2}}{{end}}{{end}}done", want: "done"},
		{name: "a heavy body", body: "{{range 1000000}}" + strings.Repeat(`{{if eq 1 2}}{{else if eq 2 3}}{{end}}{{printf "%d" 1 | len}}`, 10) + "{{end}}",
			want: `templates/t.md:1:1: block "b": ` + runaway},
		{name: "budget is shared by all ranges", body: "{{range 600000}}{{end}}{{range 600000}}{{end}}",
			want: `templates/t.md:1:24: block "b": ` + runaway},
		{name: "list", body: "{{range $i, $e := .l}}{{$i}}={{$e}} {{end}}", want: "0=a 1=b 2=c "},
		{name: "list dot", body: "{{range .l}}{{.}}{{end}}", want: "abc"},
		{name: "map in key order", body: "{{range $k, $v := .m}}{{$k}}{{$v}}{{end}}", want: "x1y2"},
		{name: "else", body: "{{range .empty}}x{{else}}none{{end}}", want: "none"},
		{name: "int", body: "{{range $i := .n}}{{$i}}{{end}}", want: "012"},
		{name: "zero", body: "{{range 0}}x{{else}}zero{{end}}", want: "zero"},
		{name: "negative", body: "{{range -5}}x{{else}}none{{end}}", want: "none"},
		{name: "continue", body: "{{range $i := 4}}{{if eq $i 1}}{{continue}}{{end}}{{$i}}{{end}}", want: "023"},
		{name: "nil", body: "{{range $.nothing}}x{{else}}nil{{end}}", want: "nil"},
		{name: "two variables over an int", body: "x {{range $i, $e := 5}}{{end}}",
			want: `templates/t.md:1:3: block "b": can't use 5 to iterate over more than one variable`},
		{name: "over a string", body: "{{range .name}}{{end}}", want: `templates/t.md:1:1: block "b": range can't iterate over text`},
		{name: "missing variable", body: "{{range .nope}}{{end}}", want: `templates/t.md:1:9: block "b": at {{.nope}}: map has no entry for key "nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, diags := Parse(block(tt.body, false), Consts{})
			if len(diags) > 0 {
				t.Fatal(diags)
			}
			// A runaway range without the budget runs for minutes or forever; the whole table takes well under a
			// second on an idle machine. The bound is loose so that a loaded CI machine does not fail it: it catches
			// the budget missing, not a slowdown.
			start := time.Now()
			got, d := b.Execute(data, Env{})
			if el := time.Since(start); el > 30*time.Second {
				t.Errorf("took %v", el)
			}
			if d != nil {
				got = d.String()
			}
			if got != tt.want {
				t.Errorf("Execute(%q) =\n  %q\nwant\n  %q", tt.body, got, tt.want)
			}
		})
	}
}

// TestBudgetPerExecution: each execution has a budget of its own, however many run at once.
func TestBudgetPerExecution(t *testing.T) {
	b, diags := Parse(block("{{range 800000}}{{end}}{{ref \"x\"}}", false), Consts{})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := strings.Repeat("#", i%3+1)
			got, d := b.Execute(nil, Env{Ref: func(string) (string, error) { return id, nil }})
			if d != nil || got != id {
				t.Errorf("execution %d = %q, %v; want %q", i, got, d, id)
			}
		}()
	}
	wg.Wait()
}

// TestRangeRewriteInvisible: the budget command added to each range is not part of what the body uses, and a body
// cannot call the function itself.
func TestRangeRewriteInvisible(t *testing.T) {
	b, diags := Parse(block("{{range .l}}{{.}}{{end}}", false), Consts{})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if len(b.Uses.Vars) != 1 || b.Uses.Vars[0].Name != "l" || b.Uses.Data {
		t.Errorf("uses %+v", b.Uses)
	}
	if _, diags := Parse(block(`{{promptcRange 0 0 0 1 5}}`, false), Consts{}); len(diags) != 1 ||
		!strings.Contains(diags[0].Summary, `function "promptcRange" not defined`) {
		t.Errorf("calling the budget function: %v", diags)
	}
}
