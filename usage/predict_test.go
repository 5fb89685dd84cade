package usage_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/report"
	"github.com/promptc/promptc/usage"
)

// predictProject is the project of cmd/promptc's usage-predict script, with three model rows alike: simulate
// predicts 63.64% at turn 2 of task chat, and 35.59% in total.
func predictProject(t *testing.T) (*assemble.Program, *projection.Catalog) {
	t.Helper()
	models := ""
	for _, m := range []string{"tiny", "tiny2", "tiny3"} {
		models += fmt.Sprintf("\n[[model]]\nprovider = \"anthropic\"\nname = %q\nmin_cache_tokens = 1\nsafety = 1.0\n", m)
	}
	prog, diags := assemble.Load(fstest.MapFS{
		"promptc.toml": {Data: []byte(`name  = "predict"
tasks = ["chat", "issue"]

[runbook]
order = ["g", "s"]

[turn]
order = ["m"]

[vars.name]
scope    = "session"
type     = "string"
required = true

[vars.msg]
scope    = "turn"
type     = "string"
required = true
` + models)},
		"blocks/all.toml": {Data: []byte(`[[block]]
id   = "g"
body = "Global rules for every task: run only the listed commands, and reply in English."

[[block]]
id   = "s"
body = "You are {{.name}}."

[[block]]
id   = "m"
body = "{{.msg}}"
`)},
		"fixtures/f.toml": {Data: []byte(`tasks = ["chat"]

[session]
name = "Ada"

[[turn]]
msg       = "Close NW-1."
assistant = "Closed."

[[turn]]
msg = "Now NW-2."
`)},
	})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	cat, err := projection.NewCatalog(prog.Project.Models)
	if err != nil {
		t.Fatal(err)
	}
	return prog, cat
}

// logLine is one Anthropic response in a wrapper naming task, turn and model; read tokens of input are cache reads.
func logLine(id, task, model string, turn, input, read int) string {
	w := map[string]any{"request_id": id, "model": model, "response": map[string]any{"type": "message",
		"usage": map[string]any{"input_tokens": input - read, "cache_read_input_tokens": read, "output_tokens": 1}}}
	if task != "" {
		w["task"] = task
	}
	if turn > 0 {
		w["turn"] = turn
	}
	b, _ := json.Marshal(w)
	return string(b) + "\n"
}

// A real rate within Tolerance (1 point) of the prediction is not BELOW it; 1.01 points under is. Each model below
// gets turn 1 at 0% (as predicted) and turn 2 at 63.54% (0.1 point under 63.64%), 62.64% (1.0 under) or 62.63%
// (1.01 under).
func TestPredictTolerance(t *testing.T) {
	prog, cat := predictProject(t)
	var log strings.Builder
	for i, tc := range []struct {
		model string
		read  int
	}{{"tiny", 6354}, {"tiny2", 6264}, {"tiny3", 6263}} {
		log.WriteString(logLine(fmt.Sprint("a", i), "chat", tc.model, 1, 10000, 0))
		log.WriteString(logLine(fmt.Sprint("b", i), "chat", tc.model, 2, 10000, tc.read))
	}
	tally := usage.NewTally()
	if diags, err := tally.Read(strings.NewReader(log.String()), "log"); err != nil || len(diags) > 0 {
		t.Fatal(err, diags)
	}
	rep := usage.NewReport(tally, cat)
	if err := usage.Predict(rep, prog, cat, nil); err != nil {
		t.Fatal(err)
	}
	if len(rep.Predictions) != 3 || rep.Tolerance != usage.Tolerance {
		t.Fatalf("predictions %+v, tolerance %v", rep.Predictions, rep.Tolerance)
	}
	for i, want := range []bool{false, false, true} {
		p := rep.Predictions[i]
		if len(p.Turns) != 2 || p.Turns[1].Predicted != 0.6364 || p.Predicted != 0.3559 {
			t.Fatalf("%s: %+v; the figures below need a prediction of 63.64%% at turn 2 and 35.59%% in total", p.Model, p)
		}
		if got := p.Turns[1].Below; got != want {
			t.Errorf("%s turn 2: real %v, predicted %v: below %v, want %v", p.Model, p.Turns[1].Real, p.Turns[1].Predicted, got, want)
		}
		if p.Turns[0].Below || !p.Below {
			t.Errorf("%s: turn 1 below %v (0%% as predicted), total below %v (real %v, predicted %v)", p.Model, p.Turns[0].Below, p.Below, p.Real, p.Predicted)
		}
	}
	var out bytes.Buffer
	if err := rep.Write(&out, report.Text); err != nil {
		t.Fatal(err)
	}
	want := `
Prediction (promptc simulate, the project's fixtures; BELOW: more than 1.0 point under it):
  anthropic tiny, task chat: real 31.8%, predicted 35.6%: BELOW the prediction by 3.8 points
    turn 1 (1 request): real 0.0%, predicted 0.0%
    turn 2 (1 request): real 63.5%, predicted 63.6%
  anthropic tiny2, task chat: real 31.3%, predicted 35.6%: BELOW the prediction by 4.3 points
    turn 1 (1 request): real 0.0%, predicted 0.0%
    turn 2 (1 request): real 62.6%, predicted 63.6%
  anthropic tiny3, task chat: real 31.3%, predicted 35.6%: BELOW the prediction by 4.3 points
    turn 1 (1 request): real 0.0%, predicted 0.0%
    turn 2 (1 request): real 62.6%, predicted 63.6%: BELOW the prediction by 1.0 points
`
	if !strings.Contains(out.String(), want) {
		t.Errorf("text report:\n%s\nwant it to hold:%s", out.String(), want)
	}
	out.Reset()
	if err := rep.Write(&out, report.JSON); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"tolerance": 0.01`) {
		t.Errorf("the JSON report does not state the tolerance:\n%s", out.String())
	}
}

// A bucket that cannot be predicted says why, its names quoted as each format quotes them: Go-quoted in text and
// JSON, in a code span in markdown.
func TestPredictSkipped(t *testing.T) {
	prog, cat := predictProject(t)
	log := logLine("r1", "", "tiny", 1, 100, 0) + logLine("r2", "no`such\x1b", "tiny", 1, 100, 0) +
		logLine("r3", "chat", "unknown", 1, 100, 0) + logLine("r4", "issue", "tiny", 1, 100, 0)
	tally := usage.NewTally()
	if diags, err := tally.Read(strings.NewReader(log), "log"); err != nil || len(diags) > 0 {
		t.Fatal(err, diags)
	}
	rep := usage.NewReport(tally, cat)
	if err := usage.Predict(rep, prog, cat, nil); err != nil {
		t.Fatal(err)
	}
	var skipped []string
	for _, p := range rep.Predictions {
		skipped = append(skipped, p.Skipped)
	}
	wantSkipped := []string{"the log names no task (the wrapper's \"task\")", "no fixture renders task \"issue\" with [[turn]] entries",
		"the project has no task \"no`such\\x1b\"", "no model table row for anthropic \"unknown\""}
	if strings.Join(skipped, "\n") != strings.Join(wantSkipped, "\n") {
		t.Errorf("skipped:\n%s\nwant:\n%s", strings.Join(skipped, "\n"), strings.Join(wantSkipped, "\n"))
	}
	for _, tc := range []struct {
		format report.Format
		want   string
	}{
		{report.Text, `
Prediction (promptc simulate, the project's fixtures; BELOW: more than 1.0 point under it):
  anthropic tiny, no task: not predicted: the log names no task (the wrapper's "task")
  anthropic tiny, task issue: not predicted: no fixture renders task "issue" with [[turn]] entries
  anthropic tiny, task "no` + "`" + `such\x1b": not predicted: the project has no task "no` + "`" + `such\x1b"
  anthropic unknown, task chat: not predicted: no model table row for anthropic "unknown"
`},
		{report.Markdown, "\nPrediction (promptc simulate, the project's fixtures; BELOW: more than 1.0 point under it):\n" +
			"- `anthropic` `tiny`, no task: not predicted: the log names no task (the wrapper's \"task\")\n" +
			"- `anthropic` `tiny`, task `issue`: not predicted: no fixture renders task `issue` with [[turn]] entries\n" +
			"- `anthropic` `tiny`, task ``\"no`such\\x1b\"``: not predicted: the project has no task ``\"no`such\\x1b\"``\n" +
			"- `anthropic` `unknown`, task `chat`: not predicted: no model table row for anthropic `unknown`\n"},
	} {
		var out bytes.Buffer
		if err := rep.Write(&out, tc.format); err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(strings.TrimSuffix(out.String(), legend), tc.want) {
			t.Errorf("%s report:\n%s\nwant it to end:%s", tc.format, out.String(), tc.want)
		}
	}
}

// legend ends a text report.
const legend = "\ncost: input cost relative to sending every input token uncached (1.00), at the model table's prices;\n" +
	"output tokens are not priced; hit rate: cache-read tokens ÷ input tokens.\n"

// --predict needs a task's fixtures to render: a project whose fixture fails to render is an error, not a skip.
func TestPredictRenderError(t *testing.T) {
	prog, cat := predictProject(t)
	f := prog.Project.Fixture("f")
	delete(f.Session, "name") // a required value gone: the replay cannot render
	tally := usage.NewTally()
	if _, err := tally.Read(strings.NewReader(logLine("r1", "chat", "tiny", 1, 100, 0)), "log"); err != nil {
		t.Fatal(err)
	}
	if err := usage.Predict(usage.NewReport(tally, cat), prog, cat, nil); err == nil {
		t.Error("Predict rendered a fixture that misses a required value")
	}
}
