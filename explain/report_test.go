package explain_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/explain"
	"github.com/promptc/promptc/report"
)

// TestBlockReportText: the text report of each kind of answer, byte for byte (docs/explain.md), and
// Write(report.Text) writes the same bytes.
func TestBlockReportText(t *testing.T) {
	prog := demo(t)
	for _, tc := range []struct {
		name, task, block, fixture, want string
	}{
		{name: "turn block", task: "issue", block: "urgent", want: `block "urgent" in task "issue": renders (blocks/core.toml:56:1)
why:
  order: it is entry 2 of turn.order (promptc.toml:8:24)
  gate: tasks is not set, so it admits every task (blocks/core.toml:56:1)
  when: when = "urgent": it renders only when turn variable "urgent" is truthy; it holds in turn 1 of fixture "basic", not in 2 (blocks/core.toml:57:9)
scope: turn
  turn: it is in turn.order: it is part of the per-turn message (promptc.toml:8:24)
placement (fixture "basic"):
  issue/basic.turn-1.md: bytes 16-32, line 3, turn message (bytes 0-32)
`},
		{name: "fixture guessed", task: "chat", block: "identity", want: `block "identity" in task "chat": renders (blocks/core.toml:43:1)
why:
  order: it is entry 6 of runbook.order (promptc.toml:5:67)
  gate: tasks is not set, so it admits every task (blocks/core.toml:43:1)
scope: session
  session: its body reads session variable "agent_name" (blocks/core.toml:44:19)
placement (fixture "basic", the first of several; choose one with --fixture):
  chat/basic.runbook.md: bytes 261-274, line 22, session part (bytes 261-274)
`},
		{name: "except", task: "quick", block: "commands", want: `block "commands" in task "quick": does not render (blocks/core.toml:24:1)
why:
  order: it is entry 4 of runbook.order (promptc.toml:5:42)
  except: except lists "quick": the block never renders in this task (blocks/core.toml:26:13)
scope: task
  replaced: block "commands-quick" replaces it (blocks/core.toml:30:1)
  gate: its gate leaves out ["quick"] (blocks/core.toml:26:12)
placement (fixture "basic"): none
`},
		{name: "when false", task: "chat", block: "leader", fixture: "basic", want: `block "leader" in task "chat": does not render (blocks/core.toml:47:1)
why:
  order: it is entry 7 of runbook.order (promptc.toml:5:79)
  gate: tasks is not set, so it admits every task (blocks/core.toml:47:1)
  when: when = "is_leader": it renders only when session variable "is_leader" is truthy; it does not hold in fixture "basic" (blocks/core.toml:48:9)
scope: session
  session: when = "is_leader" names session variable "is_leader" (blocks/core.toml:48:9)
placement (fixture "basic"): none
`},
		{name: "replacement", task: "quick", block: "commands-quick", want: `block "commands-quick" in task "quick": renders (blocks/core.toml:30:1)
why:
  replaces: it replaces "commands", taking its place in runbook.order where its gate admits the task (reason: quick may only create issues) (blocks/core.toml:31:1)
  gate: tasks lists "quick" (blocks/core.toml:33:13)
scope: task
  replaces: it replaces "commands" (blocks/core.toml:31:1)
  gate: its gate leaves out ["issue", "chat"] (blocks/core.toml:33:12)
placement (fixture "basic"):
  quick/basic.runbook.md: bytes 166-204, lines 13-15, task prefix (bytes 138-206)
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var f *blocks.Fixture
			if tc.fixture != "" {
				f = prog.Project.Fixture(tc.fixture)
			}
			r, err := explain.Block(prog, tc.task, tc.block, f)
			if err != nil {
				t.Fatal(err)
			}
			var text, via bytes.Buffer
			if err := r.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			if err := r.Write(&via, report.Text); err != nil {
				t.Fatal(err)
			}
			if text.String() != tc.want {
				t.Errorf("WriteText:\n%s\nwant:\n%s", text.String(), tc.want)
			}
			if via.String() != text.String() {
				t.Errorf("Write(text) differs from WriteText:\n%s", via.String())
			}
		})
	}
}

// jsonBlock is the JSON of a block report as docs/explain.md lists it.
type jsonBlock struct {
	Block          string `json:"block"`
	Task           string `json:"task"`
	Defined        string `json:"defined"`
	Section        string `json:"section"`
	Fixture        string `json:"fixture"`
	FixtureGuessed bool   `json:"fixture_guessed"`
	Renders        bool   `json:"renders"`
	Why            []struct {
		Kind, Text, At string
	} `json:"why"`
	Scope      string                            `json:"scope"`
	ScopeWhy   []struct{ Kind, Text, At string } `json:"scope_why"`
	Placements []struct {
		Artifact     string `json:"artifact"`
		Start        int    `json:"start"`
		TextStart    int    `json:"text_start"`
		End          int    `json:"end"`
		FirstLine    int    `json:"first_line"`
		LastLine     int    `json:"last_line"`
		Segment      string `json:"segment"`
		SegmentStart int    `json:"segment_start"`
		SegmentEnd   int    `json:"segment_end"`
	} `json:"placements"`
	Budget []json.RawMessage `json:"budget"`
}

// TestBlockReportJSON: the JSON report holds what the report holds, field by field, in the documented names and
// no others.
func TestBlockReportJSON(t *testing.T) {
	prog := demo(t)
	r, err := explain.Block(prog, "quick", "commands-quick", nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.Write(&b, report.JSON); err != nil {
		t.Fatal(err)
	}
	var got jsonBlock
	dec := json.NewDecoder(&b)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("%v in:\n%s", err, b.String())
	}
	if got.Block != "commands-quick" || got.Task != "quick" || got.Defined != "blocks/core.toml:30:1" || got.Section != "runbook" ||
		got.Fixture != "basic" || got.FixtureGuessed || !got.Renders || got.Scope != "task" || got.Budget != nil {
		t.Errorf("header fields: %+v", got)
	}
	if len(got.Why) != len(r.Why) || len(got.ScopeWhy) != len(r.ScopeWhy) {
		t.Fatalf("why %d, scope_why %d; want %d and %d", len(got.Why), len(got.ScopeWhy), len(r.Why), len(r.ScopeWhy))
	}
	for i, x := range r.Why {
		if g := got.Why[i]; g.Kind != x.Kind || g.Text != x.Text || g.At != x.At.String() {
			t.Errorf("why[%d] = %+v, want %+v", i, g, x)
		}
	}
	if len(got.Placements) != 1 {
		t.Fatalf("placements %+v, want one", got.Placements)
	}
	p, w := got.Placements[0], r.Placements[0]
	if p.Artifact != w.Artifact || p.Start != w.Start || p.TextStart != w.TextStart || p.End != w.End || p.FirstLine != 13 ||
		p.LastLine != 15 || p.Segment != "task" || p.SegmentStart != w.SegmentStart || p.SegmentEnd != w.SegmentEnd {
		t.Errorf("placement %+v, want %+v", p, w)
	}
}
