package usage_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/usage"
)

// The sums below are worked out by hand from testdata/providers.jsonl, each provider's real response shape.
func TestReadProviders(t *testing.T) {
	f, err := os.Open("testdata/providers.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tally := usage.NewTally()
	diags, err := tally.Read(f, "providers.jsonl")
	if err != nil || len(diags) > 0 {
		t.Fatalf("Read: %v %v", err, diags)
	}
	want := map[usage.Key]usage.Counts{
		// msg_01A (50 + 2,000 written) and msg_01B (20 + 100 written + 2,000 read); msg_01A's second line is a
		// duplicate.
		{"anthropic", "claude-sonnet-4-5-20250929", ""}: {Requests: 2, InputTokens: 4170, CacheReadTokens: 2000, CacheWriteTokens: 2100, OutputTokens: 70},
		// Bedrock's inputTokens excludes the 2,000 written, all with a one-hour lifetime.
		{"bedrock", "anthropic.claude-sonnet-4-5-20250929-v1:0", "chat"}: {Requests: 1, InputTokens: 2040, CacheWriteTokens: 2000, CacheWrite1hTokens: 2000, OutputTokens: 25},
		{"dashscope", "qwen3-max", ""}:                                   {Requests: 2, InputTokens: 6069, CacheReadTokens: 1500, CacheWriteTokens: 1500, OutputTokens: 194},
		{"deepseek", "deepseek-chat", ""}:                                {Requests: 1, InputTokens: 1800, CacheReadTokens: 1664, OutputTokens: 60},
		// Gemini's output is its candidates' and thoughts' tokens: 80 + 40.
		{"gemini", "gemini-2.5-flash", ""}: {Requests: 1, InputTokens: 5000, CacheReadTokens: 4096, OutputTokens: 120},
		{"openai", "gpt-5", ""}:            {Requests: 1, InputTokens: 1500, CacheReadTokens: 1280, OutputTokens: 100},
		{"openai", "gpt-5-2025-08-07", ""}: {Requests: 1, InputTokens: 2006, CacheReadTokens: 1920, OutputTokens: 300},
	}
	keys := tally.Buckets()
	if len(keys) != len(want) {
		t.Errorf("buckets %v, want %d", keys, len(want))
	}
	for k, w := range want {
		if got := tally.Counts(k); got != w {
			t.Errorf("%v:\n got %+v\nwant %+v", k, got, w)
		}
	}
	if tally.Lines != 10 || tally.Duplicates != 1 || tally.Skipped != 0 || tally.NoID != 0 {
		t.Errorf("lines %d duplicates %d skipped %d noid %d, want 10 1 0 0", tally.Lines, tally.Duplicates, tally.Skipped, tally.NoID)
	}
}

func TestReportCost(t *testing.T) {
	cat, err := projection.NewCatalog(nil)
	if err != nil {
		t.Fatal(err)
	}
	tally := usage.NewTally()
	log := `{"id":"msg_01A","type":"message","model":"claude-sonnet-4-5-20250929","usage":{"input_tokens":50,"cache_creation_input_tokens":2000,"cache_read_input_tokens":0,"output_tokens":30}}
{"id":"msg_01B","type":"message","model":"claude-sonnet-4-5-20250929","usage":{"input_tokens":20,"cache_creation_input_tokens":100,"cache_read_input_tokens":2000,"output_tokens":40}}
{"id":"msg_01C","type":"message","model":"claude-sonnet-4-5","usage":{"input_tokens":10,"cache_creation_input_tokens":1000,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":1000},"output_tokens":5}}
{"id":"x","object":"chat.completion","model":"no-such-model","usage":{"prompt_tokens":100,"completion_tokens":1}}
`
	if diags, err := tally.Read(strings.NewReader(log), "log"); err != nil || len(diags) > 0 {
		t.Fatal(err, diags)
	}
	rep := usage.NewReport(tally, cat)
	if len(rep.Rows) != 3 {
		t.Fatalf("rows %+v", rep.Rows)
	}
	// claude-sonnet-4-5: reads 0.1, writes 1.25, one-hour writes 2.
	// Dated: 4,170 input; 70 uncached + 2,000 × 0.1 + 2,100 × 1.25 = 2,895; 2,895 ÷ 4,170 = 0.69424.
	dated := rep.Rows[1]
	if dated.Model != "claude-sonnet-4-5-20250929" || dated.PricedAs != "claude-sonnet-4-5" || dated.Cost != 2895 || dated.RelativeCost != 0.6942 || dated.HitRate != 0.4796 {
		t.Errorf("dated row %+v", dated)
	}
	// 1,010 input: 10 uncached + 1,000 × 2 = 2,010; ÷ 1,010 = 1.99010.
	hour := rep.Rows[0]
	if hour.Cost != 2010 || hour.RelativeCost != 1.9901 || hour.PricedAs != "" {
		t.Errorf("one-hour row %+v", hour)
	}
	if unknown := rep.Rows[2]; unknown.Priced || unknown.Cost != 0 {
		t.Errorf("unknown model priced: %+v", unknown)
	}
	if rep.Total.Priced || rep.Total.InputTokens != 5280 || rep.Total.CacheReadTokens != 2000 || rep.Total.Requests != 4 {
		t.Errorf("total %+v", rep.Total)
	}
}

func TestReadMalformed(t *testing.T) {
	log := "{\"id\":\"a\",\"type\":\"message\",\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}\n" +
		"{\"id\":\"b\", oops}\n" +
		"not json\n" +
		"{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n" +
		"\n" +
		"{\"id\":\"c\",\"type\":\"message\",\"usage\":{\"input_tokens\":\"five\"}}\n" +
		"{\"id\":\"d\",\"object\":\"chat.completion\",\"usage\":{\"prompt_tokens\":10,\"prompt_tokens_details\":{\"cached_tokens\":11}}}\n" +
		"[1]\n" +
		"{\"é\":1, x}\n" +
		"{\"id\":\"e\",\"type\":\"message\",\"usage\":{\"input_tokens\":7,\"output_tokens\":2}}"
	tally := usage.NewTally()
	diags, err := tally.Read(strings.NewReader(log), "logs/a.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want := `logs/a.jsonl:2:12: not JSON: 'o' looking for beginning of object key string
logs/a.jsonl:3:2: not JSON: 'o' in literal null (expecting 'u')
logs/a.jsonl:4:1: an error response, with no usage
logs/a.jsonl:6:52: "usage.input_tokens" is a string, where a whole number belongs
logs/a.jsonl:7:1: 11 cache-read tokens and 0 cache-write tokens exceed the 10 input tokens
logs/a.jsonl:8:1: a log line is a JSON object, not an array
logs/a.jsonl:9:9: not JSON: 'x' looking for beginning of object key string
`
	if got := diags.String(); got != want {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", got, want)
	}
	k := usage.Key{Provider: "anthropic"}
	if c := tally.Counts(k); c.Requests != 2 || c.InputTokens != 12 || c.OutputTokens != 3 {
		t.Errorf("the good lines: %+v", c)
	}
	if tally.Lines != 9 || tally.Skipped != 7 {
		t.Errorf("lines %d skipped %d, want 9 and 7", tally.Lines, tally.Skipped)
	}
}

// A request logged twice, once raw and once in a wrapper with its request id, counts once; the wrapper's model
// and task win over the body's.
func TestDuplicates(t *testing.T) {
	log := `{"id":"msg_1","type":"message","model":"claude-sonnet-4-5","usage":{"input_tokens":100,"output_tokens":1}}
{"request_id":"req_1","task":"chat","response":{"id":"msg_1","type":"message","model":"claude-sonnet-4-5","usage":{"input_tokens":100,"output_tokens":1}}}
{"request_id":"req_1","task":"chat","response":{"id":"msg_2","type":"message","usage":{"input_tokens":100,"output_tokens":1}}}
{"id":"msg_2","type":"message","usage":{"input_tokens":100,"output_tokens":1}}
{"request_id":"req_2","model":"claude-opus-4-6","task":"chat","response":{"id":"msg_3","type":"message","model":"claude-opus-4-6-20260101","usage":{"input_tokens":100,"output_tokens":1}}}
{"request_id":"req_2","model":"claude-opus-4-6","task":"chat","response":{"id":"msg_3","type":"message","model":"claude-opus-4-6-20260101","usage":{"input_tokens":100,"output_tokens":1}}}
`
	tally := usage.NewTally()
	if diags, err := tally.Read(strings.NewReader(log), "log"); err != nil || len(diags) > 0 {
		t.Fatal(err, diags)
	}
	// msg_2 is req_1's response (the third line says so), so its raw line is a duplicate too.
	if tally.Duplicates != 4 {
		t.Errorf("duplicates %d, want 4", tally.Duplicates)
	}
	if c := tally.Counts(usage.Key{"anthropic", "claude-sonnet-4-5", ""}); c.Requests != 1 {
		t.Errorf("msg_1 counted %d times", c.Requests)
	}
	if c := tally.Counts(usage.Key{"anthropic", "claude-opus-4-6", "chat"}); c.Requests != 1 {
		t.Errorf("req_2 counted %d times", c.Requests)
	}
}

func TestLongLine(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"id":"a","type":"message","usage":{"input_tokens":5,"output_tokens":1},"pad":"`)
	b.WriteString(strings.Repeat("x", usage.MaxLineBytes))
	b.WriteString("\"}\n")
	b.WriteString(`{"id":"b","type":"message","usage":{"input_tokens":7,"output_tokens":1},"pad":"` + strings.Repeat("y", 100<<10) + "\"}\n")
	tally := usage.NewTally()
	diags, err := tally.Read(&b, "big.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if got := diags.String(); got != "big.jsonl:1:1: line longer than 16 MiB: not read\n" {
		t.Errorf("diagnostics %q", got)
	}
	if c := tally.Counts(usage.Key{Provider: "anthropic"}); c.Requests != 1 || c.InputTokens != 7 {
		t.Errorf("the line after the long one: %+v", c)
	}
}

// TestReportCostBedrock1h: a Bedrock Claude request that wrote with the one-hour lifetime is priced at the row's
// 2×, as Anthropic's is. Counted by hand: 40 uncached + 2,000 written for 1h × 2 = 4,040; ÷ 2,040 = 1.98039.
func TestReportCostBedrock1h(t *testing.T) {
	cat, err := projection.NewCatalog(nil)
	if err != nil {
		t.Fatal(err)
	}
	tally := usage.NewTally()
	log := `{"request_id":"b1","model":"anthropic.claude-sonnet-4-5-20250929-v1:0","response":{"output":{"message":{"role":"assistant","content":[{"text":"ok"}]}},"usage":{"inputTokens":40,"outputTokens":25,"totalTokens":2065,"cacheReadInputTokens":0,"cacheWriteInputTokens":2000,"cacheDetails":[{"ttl":"1h","inputTokens":2000}]}}}
`
	if diags, err := tally.Read(strings.NewReader(log), "log"); err != nil || len(diags) > 0 {
		t.Fatal(err, diags)
	}
	rep := usage.NewReport(tally, cat)
	if len(rep.Rows) != 1 {
		t.Fatalf("rows %+v", rep.Rows)
	}
	if r := rep.Rows[0]; r.Provider != "bedrock" || r.Cost != 4040 || r.RelativeCost != 1.9804 {
		t.Errorf("row %+v: want cost 4,040 and 1.9804", r)
	}
}
