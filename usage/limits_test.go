package usage_test

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/report"
	"github.com/promptc/promptc/usage"
)

// Two responses of 5e18 input tokens used to total -8,446,744,073,709,551,616: a total stops at math.MaxInt, says
// so (Saturated, ≥ in the table, n/a for the hit rate and cost), and the other buckets and the lines after are
// counted as before.
func TestSumsSaturate(t *testing.T) {
	cat, err := projection.NewCatalog(nil)
	if err != nil {
		t.Fatal(err)
	}
	log := `{"id":"a","type":"message","model":"claude-sonnet-4-5","usage":{"input_tokens":5000000000000000000,"output_tokens":1}}
{"id":"b","type":"message","model":"claude-sonnet-4-5","usage":{"input_tokens":5000000000000000000,"output_tokens":1}}
{"id":"c","type":"message","model":"claude-opus-4-6","usage":{"input_tokens":100,"cache_read_input_tokens":900,"output_tokens":1}}
`
	tally := usage.NewTally()
	if diags, err := tally.Read(strings.NewReader(log), "log"); err != nil || len(diags) > 0 {
		t.Fatal(err, diags)
	}
	rep := usage.NewReport(tally, cat)
	big, small := rep.Rows[1], rep.Rows[0]
	if big.Model != "claude-sonnet-4-5" || !big.Saturated || big.InputTokens != math.MaxInt || big.Requests != 2 || big.OutputTokens != 2 ||
		big.HitRate != 0 || big.Cost != 0 || big.RelativeCost != 0 || big.UncachedTokens != 0 {
		t.Errorf("the saturated row: %+v", big)
	}
	if small.Saturated || small.InputTokens != 1000 || small.HitRate != 0.9 {
		t.Errorf("the other row: %+v", small)
	}
	if !big.Priced || !rep.Total.Saturated || rep.Total.InputTokens != math.MaxInt || rep.Total.Requests != 3 || rep.Total.Cost != 0 {
		t.Errorf("the total: %+v", rep.Total)
	}
	var out bytes.Buffer
	if err := rep.Write(&out, report.Text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"anthropic  claude-sonnet-4-5  -     2         ≥9,223,372,036,854,775,807  0           0            2       n/a       n/a\n",
		"total                               3         ≥9,223,372,036,854,775,807  900         0            3       n/a       n/a\n",
		// Both models have a row in the model table: no "n/a: no row" note.
		"; ≥: a total reached 9,223,372,036,854,775,807, the most a count holds, and stopped there (its hit rate and cost are n/a).\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report does not hold %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := rep.Write(&out, report.JSON); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"saturated": true`) || strings.Contains(out.String(), "-") && strings.Contains(out.String(), `": -`) {
		t.Errorf("JSON:\n%s", out.String())
	}
}

// A cost too large for an int64 once scaled to four decimals (10^15 input-price units) is still rounded, not wrapped.
func TestLargeCostRounds(t *testing.T) {
	cat, _ := projection.NewCatalog(nil)
	tally := usage.NewTally()
	log := `{"id":"a","type":"message","model":"claude-sonnet-4-5","usage":{"input_tokens":1000000000000000,"output_tokens":1}}`
	if diags, err := tally.Read(strings.NewReader(log), "log"); err != nil || len(diags) > 0 {
		t.Fatal(err, diags)
	}
	if r := usage.NewReport(tally, cat).Rows[0]; r.Cost != 1e15 || r.RelativeCost != 1 {
		t.Errorf("row %+v: want cost 10^15 and relative cost 1", r)
	}
}

// A line whose counts no response can hold is refused with what is wrong, and placed.
func TestRecordLimits(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`{"usage":{"input_tokens":9223372036854775807,"cache_read_input_tokens":1}}`,
			"log:1:1: input token count overflows: its parts add up to more than 9,223,372,036,854,775,807"},
		{`{"usage":{"input_tokens":-5,"cache_read_input_tokens":10}}`, "log:1:1: input token count has a negative part (-5)"},
		{`{"usage":{"inputTokens":1,"cacheDetails":[{"ttl":"1h","inputTokens":9223372036854775807},{"ttl":"1h","inputTokens":9}],"cacheWriteInputTokens":5}}`,
			"log:1:1: one-hour cache-write token count overflows: its parts add up to more than 9,223,372,036,854,775,807"},
		{`{"usage":{"inputTokens":10,"cacheDetails":[{"ttl":"1h","inputTokens":6}],"cacheWriteInputTokens":5}}`,
			"log:1:1: 6 one-hour cache-write tokens, of 5 written"},
		{`{"usageMetadata":{"promptTokenCount":9223372036854775807,"toolUsePromptTokenCount":1}}`,
			"log:1:1: input token count overflows: its parts add up to more than 9,223,372,036,854,775,807"},
		{`{"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":-1}}`, "log:1:1: output token count has a negative part (-1)"},
		{`{"object":"chat.completion","usage":{"prompt_tokens":10,"prompt_tokens_details":{"cache_write_tokens":-1}}}`,
			"log:1:1: cache-write token count has a negative part (-1)"},
		{`{"model":"deepseek-chat","usage":{"prompt_cache_hit_tokens":-3,"prompt_cache_miss_tokens":4}}`,
			"log:1:1: input token count has a negative part (-3)"},
		{`{"object":"response","id":"resp_1","usage":{"input_tokens":-2}}`, "log:1:1: input token count is negative (-2)"},
		{`{"turn":-1,"usage":{"input_tokens":1}}`, `log:1:1: "turn" is -1: turns count from 1`},
		{`{"provider":"vertex","usage":{"input_tokens":1}}`, `log:1:1: unknown provider "vertex": use anthropic, openai, dashscope, bedrock, gemini or deepseek`},
		{`{"usage":{"input_tokens":1e3}}`, `log:1:26: "usage.input_tokens" is 1e3: a token count is a whole number, written without a fraction or an exponent`},
		{`{"usage":{"input_tokens":99999999999999999999}}`, `log:1:26: "usage.input_tokens" is 99999999999999999999: a token count is at most 9,223,372,036,854,775,807`},
		{`{"usage":"many"}`, `log:1:10: "usage" is a string, where an object belongs`},
		{`{"usage":{"cacheDetails":{}}}`, `log:1:26: "usage.cacheDetails" is an object, where an array belongs`},
		{`{"task":true,"usage":{"input_tokens":1}}`, `log:1:9: "task" is a boolean, where a string belongs`},
		{`{"task":1.5,"usage":{"input_tokens":1}}`, `log:1:9: "task" is a number, where a string belongs`},
		{`"just a string"`, `log:1:1: a log line is a JSON object, not a string`},
		{`{"usage":{}}`, `log:1:1: "usage" holds no input token count this reader knows (input_tokens, prompt_tokens, inputTokens)`},
		{`{"id":"x"}`, `log:1:1: no "usage" or "usageMetadata": not a response body of a known provider (a wrapper holds it under "response")`},
	} {
		tally := usage.NewTally()
		diags, err := tally.Read(strings.NewReader(tc.line), "log")
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSuffix(diags.String(), "\n"); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.line, got, tc.want)
		}
	}
}

// A key twice in one object is refused at its second place, naming the first: encoding/json would take the last.
// Where encoding/json matches keys to a record's fields without regard to case, two keys differing in case are one
// field, and a duplicate too; elsewhere (a content block's keys) they are two keys.
func TestDuplicateKeys(t *testing.T) {
	log := `{"id":"a","type":"message","usage":{"input_tokens":5,"output_tokens":1}}
{"id":"b","type":"message","usage":{"input_tokens":5,"input_tokens":500000}}
{"request_id":"r","task":"chat","task":"other","response":{"id":"c","usage":{"input_tokens":5}}}
{"id":"d","usage":{"input_tokens":1},"Usage":{"input_tokens":2}}
{"id":"e","usage":{"input_tokens":1,"INPUT_TOKENS":2}}
{"id":"f","content":[{"type":"text","text":"x","text":"y"}],"usage":{"input_tokens":1}}
{"id":"g","content":[{"Type":"text","type":"text"}],"usage":{"input_tokens":7}}
{"id":"h","Usage":{"input_tokens":9}}
{"id":"i","usage":{"input_tokens":1,"\u0069nput_tokens":2}}
{"id":"j","usage":{"input_tokens":1,"cache_creation":{"ephemeral_1h_input_tokens":0,"Ephemeral_1h_input_tokens":0}}}
`
	tally := usage.NewTally()
	diags, err := tally.Read(strings.NewReader(log), "log")
	if err != nil {
		t.Fatal(err)
	}
	want := `log:2:54: duplicate key "input_tokens" (first at 2:37): a JSON object may hold each key once
log:3:33: duplicate key "task" (first at 3:19): a JSON object may hold each key once
log:4:38: duplicate key "Usage" (first at 4:11, as "usage": keys are matched without regard to case): a JSON object may hold each key once
log:5:37: duplicate key "INPUT_TOKENS" (first at 5:20, as "input_tokens": keys are matched without regard to case): a JSON object may hold each key once
log:6:48: duplicate key "text" (first at 6:37): a JSON object may hold each key once
log:9:37: duplicate key "input_tokens" (first at 9:20): a JSON object may hold each key once
log:10:85: duplicate key "Ephemeral_1h_input_tokens" (first at 10:55, as "ephemeral_1h_input_tokens": keys are matched without regard to case): a JSON object may hold each key once
`
	if got := diags.String(); got != want {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", got, want)
	}
	// a, g (two keys of a content block) and h (encoding/json reads "Usage" as usage) are counted.
	if c := tally.Counts(usage.Key{Provider: "anthropic"}); c.Requests != 3 || c.InputTokens != 21 {
		t.Errorf("counted %+v, want a, g and h: 3 requests, 21 tokens", c)
	}
}

// A log of junk keeps the diagnostics of its first MaxDiagnostics lines and counts the rest in one per file, so that
// memory does not grow with the junk; the lines are all counted as skipped.
func TestDiagnosticsCapped(t *testing.T) {
	tally := usage.NewTally()
	junk := strings.Repeat("junk\n", usage.MaxDiagnostics-10)
	diags, err := tally.Read(strings.NewReader(junk), "a.jsonl")
	if err != nil || len(diags) != usage.MaxDiagnostics-10 {
		t.Fatalf("first file: %d diagnostics, %v", len(diags), err)
	}
	diags, err = tally.Read(strings.NewReader(junk+`{"id":"x","usage":{"input_tokens":1}}`+"\n"), "b.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) != 11 {
		t.Fatalf("second file: %d diagnostics, want the 10 left and one that counts the rest", len(diags))
	}
	if got, want := diags[9].String(), "b.jsonl:10:1: not JSON: 'j' looking for beginning of value"; got != want {
		t.Errorf("the last line reported: %q, want %q", got, want)
	}
	if got, want := diags[10].String(), fmt.Sprintf("b.jsonl:?:?: %d more lines not read besides (not listed: only the first %d problems are)", usage.MaxDiagnostics-20, usage.MaxDiagnostics); got != want {
		t.Errorf("the count: %q, want %q", got, want)
	}
	diags, _ = tally.Read(strings.NewReader("junk\n"), "c.jsonl")
	if got, want := diags.String(), fmt.Sprintf("c.jsonl:?:?: 1 more line not read besides (not listed: only the first %d problems are)\n", usage.MaxDiagnostics); got != want {
		t.Errorf("third file: %q, want %q", got, want)
	}
	if tally.Skipped != 2*(usage.MaxDiagnostics-10)+1 || tally.Counts(usage.Key{Provider: "anthropic"}).Requests != 1 {
		t.Errorf("skipped %d, counted %+v", tally.Skipped, tally.Counts(usage.Key{Provider: "anthropic"}))
	}
}

// A line nested deeper than encoding/json decodes is refused, not recursed into (a 16 MiB line of "[" took the stack
// past its limit: a fatal error).
func TestDeepLine(t *testing.T) {
	line := `{"usage":{"input_tokens":1},"x":` + strings.Repeat("[", 1<<20) + "\n" + `{"id":"ok","usage":{"input_tokens":1}}`
	tally := usage.NewTally()
	diags, err := tally.Read(strings.NewReader(line), "deep")
	if err != nil {
		t.Fatal(err)
	}
	if got := diags.String(); got != "deep:1:10032: not JSON: '[' exceeded max depth\n" {
		t.Errorf("diagnostics %q", got)
	}
	if tally.Counts(usage.Key{Provider: "anthropic"}).Requests != 1 {
		t.Error("the line after the deep one was not counted")
	}
}

// Read returns the reader's own error, with the diagnostics of the lines before it.
func TestReadError(t *testing.T) {
	tally := usage.NewTally()
	diags, err := tally.Read(&failing{data: "junk\n"}, "f")
	if err != errBroken || len(diags) != 1 {
		t.Errorf("Read: %v, %v", diags, err)
	}
}

var errBroken = fmt.Errorf("broken pipe")

type failing struct{ data string }

func (f *failing) Read(p []byte) (int, error) {
	if f.data == "" {
		return 0, errBroken
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

// Counts in messages and the summary take their noun's number: "1 input token", "2 lines of requests".
func TestPlurals(t *testing.T) {
	tally := usage.NewTally()
	log := `{"usage":{"input_tokens":0,"input_tokens_details":{"cached_tokens":1}},"object":"response","id":"resp_1"}
{"usage":{"inputTokens":1,"cacheDetails":[{"ttl":"1h","inputTokens":1}],"cacheWriteInputTokens":0}}
{"id":"a","usage":{"input_tokens":1}}
{"id":"a","usage":{"input_tokens":1}}
{"id":"a","usage":{"input_tokens":1}}
{"usage":{"input_tokens":1}}
`
	diags, err := tally.Read(strings.NewReader(log), "log")
	if err != nil {
		t.Fatal(err)
	}
	want := "log:1:1: 1 cache-read token and 0 cache-write tokens exceed the 0 input tokens\nlog:2:1: 1 one-hour cache-write token, of 0 written\n"
	if got := diags.String(); got != want {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", got, want)
	}
	var out bytes.Buffer
	if err := usage.NewReport(tally, nil).Write(&out, report.Markdown); err != nil {
		t.Fatal(err)
	}
	if want := "2 requests counted from 1 file (6 lines); 2 lines of requests already counted; 1 request without an id, counted as its own; 2 lines not read"; !strings.Contains(out.String(), want) {
		t.Errorf("summary:\n%s\nwant it to hold %q", out.String(), want)
	}
}

// A total that reaches math.MaxInt exactly is exact, not saturated; one token more saturates it.
func TestSaturationBoundary(t *testing.T) {
	for _, tc := range []struct {
		second    int
		saturated bool
	}{{7, false}, {8, true}} {
		log := fmt.Sprintf(`{"id":"a","usage":{"input_tokens":9223372036854775800}}`+"\n"+`{"id":"b","usage":{"input_tokens":%d}}`, tc.second)
		tally := usage.NewTally()
		if diags, err := tally.Read(strings.NewReader(log), "log"); err != nil || len(diags) > 0 {
			t.Fatal(err, diags)
		}
		c := tally.Counts(usage.Key{Provider: "anthropic"})
		if c.InputTokens != math.MaxInt || c.Saturated != tc.saturated || c.Requests != 2 {
			t.Errorf("9,223,372,036,854,775,800 + %d: %+v, want saturated %v", tc.second, c, tc.saturated)
		}
	}
}
