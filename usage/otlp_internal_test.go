package usage

import "testing"

// TestSpanTime: a span's time is its start, in UTC as RFC 3339 (what a log's "time" holds), to the nanosecond; a span
// that gives none has none.
func TestSpanTime(t *testing.T) {
	for _, tc := range []struct{ start, want string }{
		{`"1796119200000000000"`, "2026-12-01T10:00:00Z"},
		{`1796119200000000000`, "2026-12-01T10:00:00Z"},
		{`"1796119200123456789"`, "2026-12-01T10:00:00.123456789Z"},
		{`"0"`, ""},
		{`null`, ""},
	} {
		line := `{"resourceSpans":[{"scopeSpans":[{"spans":[{"startTimeUnixNano":` + tc.start + `,"attributes":[` +
			`{"key":"gen_ai.provider.name","value":{"stringValue":"openai"}},{"key":"gen_ai.usage.input_tokens","value":{"intValue":"1"}}]}]}]}]}`
		spans, err := readSpans([]byte(line), Attributes{}, nil)
		if err != nil || len(spans) != 1 || spans[0].err != nil {
			t.Fatalf("%s: %v %+v", tc.start, err, spans)
		}
		if got := spans[0].rec.Time; got != tc.want {
			t.Errorf("%s: time %q, want %q", tc.start, got, tc.want)
		}
	}
}
