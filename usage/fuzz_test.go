package usage_test

import (
	"strings"
	"testing"

	"github.com/promptc/promptc/usage"
)

// FuzzRead: no log makes Read panic, every non-blank line is counted or reported (the first MaxDiagnostics each by a
// diagnostic, the rest by one that counts them), no bucket holds more cache tokens than input, and no count is
// negative.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		`{"id":"a","type":"message","usage":{"input_tokens":5,"cache_read_input_tokens":3,"output_tokens":1}}`,
		`{"request_id":"r","task":"t","turn":2,"response":{"id":"chatcmpl","object":"chat.completion","usage":{"prompt_tokens":9,"prompt_tokens_details":{"cached_tokens":4}}}}`,
		`{"usage":{"inputTokens":1,"cacheDetails":[{"inputTokens":1,"ttl":"1h"}],"cacheWriteInputTokens":1}}`,
		`{"usageMetadata":{"promptTokenCount":3,"cachedContentTokenCount":2},"responseId":"g"}`,
		`{"id":"x", oops}`,
		`{"usage":{"prompt_tokens":1e3}}`,
		`{"usage":{"input_tokens":-1}}`,
		`{"usage":{"input_tokens":9223372036854775807,"cache_read_input_tokens":1}}`,
		`{"usage":{"input_tokens":1},"usage":{"input_tokens":2}}` + "\n" + `{"usage":{"input_tokens":1},"Usage":{"input_tokens":2}}`,
		`{"id":"a","usage":{"input_tokens":5000000000000000000}}` + "\n" + `{"id":"b","usage":{"input_tokens":5000000000000000000}}`,
		strings.Repeat("junk\n", 120),
	} {
		f.Add(s)
	}
	for _, c := range spanCases {
		f.Add(c.line)
	}
	f.Fuzz(func(t *testing.T, log string) {
		tally := usage.NewTally()
		diags, err := tally.Read(strings.NewReader(log), "f")
		if err != nil {
			t.Fatal(err)
		}
		skipped := tally.Skipped + tally.SkippedSpans
		want := min(skipped, usage.MaxDiagnostics)
		if skipped > usage.MaxDiagnostics {
			want++
		}
		if len(diags) != want {
			t.Fatalf("%d diagnostics for %d skipped lines and %d skipped spans", len(diags), tally.Skipped, tally.SkippedSpans)
		}
		for _, k := range tally.Buckets() {
			c := tally.Counts(k)
			if c.CacheReadTokens > c.InputTokens-c.CacheWriteTokens || min(c.InputTokens, c.CacheReadTokens, c.CacheWriteTokens, c.OutputTokens, c.CacheWrite1hTokens) < 0 {
				t.Fatalf("%v: %+v", k, c)
			}
		}
	})
}

// FuzzSpans: no OTLP line makes Read panic, and each of its spans is counted as a request, a duplicate, another
// span or a skipped one, once.
func FuzzSpans(f *testing.F) {
	for _, c := range spanCases {
		f.Add(c.line)
	}
	f.Add(otlpRequest(call("a", 5, 1), call("a", 5, 1), otlpSpan(attr("gen_ai.operation.name", sv("invoke_agent")), attr("gen_ai.usage.input_tokens", iv(1)))))
	f.Fuzz(func(t *testing.T, line string) {
		if strings.Contains(line, "\n") {
			return
		}
		tally := usage.NewTally()
		if _, err := tally.Read(strings.NewReader(line), "f"); err != nil {
			t.Fatal(err)
		}
		if tally.Spans == 0 {
			return
		}
		requests := 0
		for _, k := range tally.Buckets() {
			requests += tally.Counts(k).Requests
		}
		if got := requests + tally.DuplicateSpans + tally.OtherSpans + tally.SkippedSpans; got != tally.Spans {
			t.Fatalf("%d spans: %d requests, %d duplicates, %d other, %d skipped", tally.Spans, requests, tally.DuplicateSpans, tally.OtherSpans, tally.SkippedSpans)
		}
	})
}
