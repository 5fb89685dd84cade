package assemble_test

import (
	"errors"
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/source"
)

// TestRenderValuesFiles checks Render's values files: the problems of both files and the compiler's together,
// sorted; a file that does not decode stops before the compiler; a turn file needs Turn -1; the error is always a
// source.Diagnostics.
func TestRenderValuesFiles(t *testing.T) {
	prog, diags := assemble.Load(exampleProject)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	file := func(name, data string) *assemble.ValuesFile {
		return &assemble.ValuesFile{Name: name, Data: []byte(data)}
	}
	tests := []struct {
		name string
		req  assemble.RenderRequest
		text string // the artifact's text, when want is ""
		want string // the diagnostics
	}{
		{
			name: "runbook from a session file",
			req:  assemble.RenderRequest{Task: "chat", SessionFile: file("s.toml", `agent_name = "Bo"`)},
			text: "## Rules\n\nRun only the commands listed in this runbook.\n\nYou are Bo.\n",
		},
		{
			name: "standard input is named <stdin>",
			req:  assemble.RenderRequest{Task: "chat", SessionFile: file("-", `{}`)},
			want: `<stdin>:1:1: required session variable "agent_name" has no value`,
		},
		{
			name: "a missing value is placed at the JSON object it belongs in",
			req:  assemble.RenderRequest{Task: "chat", SessionFile: file("s.json", "\n  {\n  }\n")},
			want: `s.json:2:3: required session variable "agent_name" has no value`,
		},
		{
			name: "a missing value is placed at the top of a TOML file, its root table",
			req:  assemble.RenderRequest{Task: "chat", SessionFile: file("s.toml", "# the session\n")},
			want: `s.toml:1:1: required session variable "agent_name" has no value`,
		},
		{
			name: "a missing turn value likewise",
			req: assemble.RenderRequest{Task: "chat", SessionFile: file("s.toml", `agent_name = "Bo"`), Turn: -1,
				TurnFile: file("t.json", ` {}`)},
			want: `t.json:1:2: required turn variable "issue_id" has no value`,
		},
		{
			name: "the problems of both files and the compiler's",
			req: assemble.RenderRequest{Task: "chat", SessionFile: file("s.toml", "agent = \"Bo\"\n"), Turn: -1,
				TurnFile: file("t.json", `{"comment": 3}`)},
			want: "s.toml:1:1: unknown session variable \"agent\" (the only session variable is \"agent_name\")\n" +
				"s.toml:1:1: required session variable \"agent_name\" has no value\n" +
				"t.json:1:2: variable \"comment\" is text, so its value must be a JSON string, not a JSON number",
		},
		{
			name: "a file that does not decode stops before the compiler",
			req: assemble.RenderRequest{Task: "chat", SessionFile: file("s.toml", "agent_name = \n"), Turn: -1,
				TurnFile: file("t.toml", "isue_id = \"x\"\n")},
			want: "s.toml:1:14: TOML syntax error: expected value but found '\\n' instead\n" +
				"t.toml:1:1: unknown turn variable \"isue_id\" (did you mean \"issue_id\"?)",
		},
		{
			name: "a turn file needs Turn -1",
			req:  assemble.RenderRequest{Task: "chat", SessionFile: file("s.toml", `agent_name = "Bo"`), Turn: 1, TurnFile: file("t.toml", "")},
			want: "t.toml:?:?: a turn values file gives the turn message of Turn -1, not of turn 1",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := prog.Render(tt.req)
			if tt.want == "" {
				if err != nil || a.Text != tt.text {
					t.Fatalf("Render = %q, %v; want %q", a.Text, err, tt.text)
				}
				return
			}
			var ds source.Diagnostics
			if !errors.As(err, &ds) || a != nil {
				t.Fatalf("Render = %v, %T %v; want no artifact and source.Diagnostics", a, err, err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}
