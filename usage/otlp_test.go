package usage_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/promptc/promptc/usage"
)

// OTLP JSON builders: a request of spans, a span of attributes, an attribute and its AnyValue.
func otlpRequest(spans ...string) string {
	return `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"svc"}}]},"scopeSpans":[{"scope":{"name":"genai"},"spans":[` +
		strings.Join(spans, ",") + `]}]}]}`
}

func otlpSpan(attrs ...string) string {
	return `{"traceId":"AAECAwQFBgcICQoLDA0ODw==","spanId":"AAECAwQFBgc=","name":"chat","startTimeUnixNano":"1796119200000000000","attributes":[` +
		strings.Join(attrs, ",") + `]}`
}

func attr(key, value string) string { return `{"key":"` + key + `","value":` + value + `}` }
func sv(s string) string            { return `{"stringValue":"` + s + `"}` }
func iv(n int) string               { return fmt.Sprintf(`{"intValue":"%d"}`, n) }

// call is a model call's span: anthropic, the model and id given, input and output tokens, and more attributes.
func call(id string, input, output int, more ...string) string {
	return otlpSpan(append([]string{attr("gen_ai.operation.name", sv("chat")), attr("gen_ai.provider.name", sv("anthropic")),
		attr("gen_ai.request.model", sv("claude-sonnet-4-5")), attr("gen_ai.response.id", sv(id)),
		attr("gen_ai.usage.input_tokens", iv(input)), attr("gen_ai.usage.output_tokens", iv(output))}, more...)...)
}

// spanCase is a line whose span (or whole) has a problem.
type spanCase struct {
	name string
	line string
	// at is the text the diagnostic points at (its first occurrence in the line), or col the column; first is
	// the text at the place the message names (%d in want).
	at, first string
	col       int
	want      string
	// counted is the requests counted.
	counted int
}

var goodSpan = call("ok", 10, 1)

var spanCases = []spanCase{
	{name: "count as a string", line: otlpRequest(goodSpan, call("a", 5, 1, attr("gen_ai.usage.cache_read.input_tokens", sv("2")))),
		at: `{"stringValue":"2"}`, want: `attribute "gen_ai.usage.cache_read.input_tokens" is a stringValue, where an intValue belongs`, counted: 1},
	{name: "negative count", line: otlpRequest(call("a", -5, 1), goodSpan),
		at: `{"intValue":"-5"}`, want: `attribute "gen_ai.usage.input_tokens" is -5: a token count is at least 0`, counted: 1},
	{name: "fraction", line: otlpRequest(goodSpan, call("a", 5, 1, attr("gen_ai.usage.cache_creation.input_tokens", `{"doubleValue":1.5}`))),
		at: `1.5`, want: `attribute "gen_ai.usage.cache_creation.input_tokens" is the doubleValue 1.5: a count is a whole number`, counted: 1},
	{name: "exponent in an intValue", line: otlpRequest(call("a", 5, 1, attr("gen_ai.usage.cache_creation.input_tokens", `{"intValue":"1e3"}`))),
		at: `"1e3"`, want: `the intValue of attribute "gen_ai.usage.cache_creation.input_tokens" is "1e3": an intValue is a whole number`},
	{name: "past the most a count holds", line: otlpRequest(call("a", 5, 1, attr("gen_ai.usage.cache_read.input_tokens", `{"intValue":"9223372036854775808"}`))),
		at: `"9223372036854775808"`, want: `attribute "gen_ai.usage.cache_read.input_tokens" is 9223372036854775808: a count is at most 9,223,372,036,854,775,807`},
	{name: "cache beside the input", line: otlpRequest(call("a", 20, 1, attr("gen_ai.usage.cache_read.input_tokens", iv(3000)))),
		at: `{"intValue":"20"}`, want: `3,000 cache-read tokens and 0 cache-write tokens exceed the 20 input tokens: the conventions count cache reads and writes in gen_ai.usage.input_tokens, and this span does not (its instrumentation counts them beside it, as Anthropic's API does)`},
	{name: "output without input", line: otlpRequest(otlpSpan(attr("gen_ai.provider.name", sv("openai")), attr("gen_ai.usage.output_tokens", iv(3)))),
		at: `{"key":"gen_ai.usage.output_tokens"`, want: `a span with gen_ai.usage.output_tokens but no gen_ai.usage.input_tokens: a model call's span gives its input tokens`},
	{name: "no provider", line: otlpRequest(otlpSpan(attr("gen_ai.usage.input_tokens", iv(3)))),
		at: `{"traceId"`, want: `a model call's span names no provider: set gen_ai.provider.name (or the older gen_ai.system)`},
	{name: "unknown provider", line: otlpRequest(otlpSpan(attr("gen_ai.system", sv("mistral_ai")), attr("gen_ai.usage.input_tokens", iv(3)))),
		at: `{"stringValue":"mistral_ai"}`, want: `gen_ai.system "mistral_ai" is none of the providers usage knows: anthropic, aws.bedrock, az.ai.openai, azure.ai.openai, bedrock, dashscope, deepseek, gcp.gemini, gcp.gen_ai, gcp.vertex_ai, gemini, openai, vertex_ai`},
	{name: "provider not a string", line: otlpRequest(otlpSpan(attr("gen_ai.provider.name", iv(1)), attr("gen_ai.usage.input_tokens", iv(3)))),
		at: `{"intValue":"1"}`, want: `attribute "gen_ai.provider.name" is an intValue, where a stringValue belongs`},
	{name: "turn 0", line: otlpRequest(call("a", 5, 1, attr("promptc.turn", iv(0)))),
		at: `{"intValue":"0"}`, want: `attribute "promptc.turn" is 0: turns count from 1`},
	{name: "an attribute twice", line: otlpRequest(call("a", 5, 1, attr("gen_ai.usage.input_tokens", iv(6)))),
		at: `{"key":"gen_ai.usage.input_tokens","value":{"intValue":"6"}}`, first: `{"key":"gen_ai.usage.input_tokens"`, want: `attribute "gen_ai.usage.input_tokens" twice in one span (first at 1:%d): a span holds each attribute once`},
	{name: "two values", line: otlpRequest(call("a", 5, 1, attr("promptc.task", `{"stringValue":"chat","intValue":"77"}`))),
		at: `"77"`, want: `the value of attribute "promptc.task" holds both stringValue and intValue: an AnyValue holds one`},
	{name: "value not an object", line: otlpRequest(call("a", 5, 1, attr("promptc.task", `"mytask"`))),
		at: `"mytask"`, want: `the value of attribute "promptc.task" is a string, where an AnyValue object (stringValue, intValue, …) belongs`},
	{name: "no value", line: otlpRequest(call("a", 5, 1, `{"key":"promptc.turn"}`)),
		at: `{"key":"promptc.turn"}`, want: `attribute "promptc.turn" has no value (an intValue belongs)`},
	{name: "bad start time", line: otlpRequest(strings.Replace(goodSpan, `"1796119200000000000"`, `"soon"`, 1)),
		at: `"soon"`, want: `"startTimeUnixNano" is "soon": nanoseconds since 1970 are a whole number`},
	{name: "span not an object", line: otlpRequest(goodSpan, `"span"`),
		at: `"span"`, want: `a span is a string, where an object belongs`, counted: 1},
	{name: "attribute not an object", line: otlpRequest(otlpSpan(`[]`)),
		at: `[]`, want: `an attribute is an array, where an object {"key": …, "value": …} belongs`},
	{name: "not JSON", line: otlpRequest(goodSpan)[:200],
		col: 200, want: `not JSON: unexpected end of JSON input`},
	{name: "a key twice", line: strings.Replace(otlpRequest(goodSpan, goodSpan), `"name":"chat",`, `"name":"chat","name":"chat",`, 1),
		at: `"name":"chat","startTime`, first: `"name":"chat","name"`, want: `duplicate key "name" (first at 1:%d): a JSON object may hold each key once`},
	{name: "spans not an array", line: `{"resourceSpans":[{"scopeSpans":[{"spans":{}}]}]}`,
		at: `{}`, want: `"spans" is an object, where an array belongs`},
}

// TestReadSpans: each span's problem is reported at the place in the line where it lies, and the line's other
// spans are counted; a line that is not JSON, or holds a key twice, or is not a request's shape, is reported whole.
func TestReadSpans(t *testing.T) {
	for _, tc := range spanCases {
		t.Run(tc.name, func(t *testing.T) {
			tally := usage.NewTally()
			diags, err := tally.Read(strings.NewReader(tc.line), "traces.json")
			if err != nil {
				t.Fatal(err)
			}
			col := tc.col
			if tc.at != "" {
				col = columnOf(t, tc.line, tc.at)
			}
			want := tc.want
			if tc.first != "" {
				want = fmt.Sprintf(want, columnOf(t, tc.line, tc.first))
			}
			want = fmt.Sprintf("traces.json:1:%d: %s\n", col, want)
			if got := diags.String(); got != want {
				t.Errorf("diagnostics\n got %s\nwant %s", got, want)
			}
			if got := tally.Counts(usage.Key{Provider: "anthropic", Model: "claude-sonnet-4-5"}).Requests; got != tc.counted {
				t.Errorf("%d requests counted, want %d", got, tc.counted)
			}
		})
	}
}

// columnOf is the column (in runes, from 1) where text first occurs in line.
func columnOf(t *testing.T, line, text string) int {
	t.Helper()
	i := strings.Index(line, text)
	if i < 0 {
		t.Fatalf("%q is not in the line", text)
	}
	return utf8.RuneCountInString(line[:i]) + 1
}

// TestReadSpansShapes: what protojson writes and reads, in any order: the proto field names, an intValue as a
// number, a whole doubleValue, the value before the key, resourceSpans after another key; an agent's span, a
// tool's and one of another instrumentation are no requests.
func TestReadSpansShapes(t *testing.T) {
	log := strings.Join([]string{
		// All its input read or written: the most cache a span may give.
		otlpRequest(call("a", 100, 1, attr("gen_ai.usage.cache_read.input_tokens", `{"intValue":40}`), attr("gen_ai.usage.cache_creation.input_tokens", iv(60)))),
		`{"resource_spans":[{"scope_spans":[{"spans":[{"start_time_unix_nano":1796119200000000000,"attributes":[` +
			`{"key":"gen_ai.provider.name","value":{"string_value":"anthropic"}},{"key":"gen_ai.request.model","value":{"string_value":"claude-sonnet-4-5"}},` +
			`{"value":{"int_value":"50"},"key":"gen_ai.usage.input_tokens"},{"key":"gen_ai.usage.cache_read.input_tokens","value":{"stringValue":null,"doubleValue":20.0}}]}]}]}]}`,
		`{"partialSuccess":null,"resourceSpans":[{"scopeSpans":[{"spans":[` + call("b", 10, 2) + `]}]}]}`,
		otlpRequest(
			otlpSpan(attr("gen_ai.operation.name", sv("invoke_agent")), attr("gen_ai.provider.name", sv("anthropic")), attr("gen_ai.usage.input_tokens", iv(160))),
			otlpSpan(attr("gen_ai.operation.name", sv("execute_tool")), attr("gen_ai.tool.name", sv("tracker"))),
			otlpSpan(attr("http.request.method", sv("GET")), attr("gen_ai.usage.input_tokens.note", iv(-1))),
		),
		`{"resourceSpans":[]}`,
		`{"resourceSpans":[{"scopeSpans":[{"spans":[]}]}]}`,
	}, "\n")
	tally := usage.NewTally()
	diags, err := tally.Read(strings.NewReader(log), "traces.json")
	if err != nil || len(diags) > 0 {
		t.Fatal(err, diags)
	}
	want := usage.Counts{Requests: 3, InputTokens: 160, CacheReadTokens: 60, CacheWriteTokens: 60, OutputTokens: 3}
	if got := tally.Counts(usage.Key{Provider: "anthropic", Model: "claude-sonnet-4-5"}); got != want {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if tally.Lines != 6 || tally.Spans != 6 || tally.OtherSpans != 3 || tally.NoID != 1 {
		t.Errorf("lines %d spans %d other %d noid %d, want 6 6 3 1", tally.Lines, tally.Spans, tally.OtherSpans, tally.NoID)
	}
}

// TestSpanAttributes: a platform that sets the task and turn under attributes of its own names them.
func TestSpanAttributes(t *testing.T) {
	line := otlpRequest(call("a", 10, 1, attr("app.task", sv("chat")), attr("app.turn", iv(3)), attr(usage.TaskAttribute, sv("other"))))
	for _, tc := range []struct {
		attrs usage.Attributes
		key   usage.Key
		turn  int
	}{
		{usage.Attributes{}, usage.Key{Provider: "anthropic", Model: "claude-sonnet-4-5", Task: "other"}, 0},
		{usage.Attributes{Task: "app.task", Turn: "app.turn"}, usage.Key{Provider: "anthropic", Model: "claude-sonnet-4-5", Task: "chat"}, 3},
	} {
		tally := usage.NewTally()
		tally.Attributes = tc.attrs
		if diags, err := tally.Read(strings.NewReader(line), "traces.json"); err != nil || len(diags) > 0 {
			t.Fatal(err, diags)
		}
		if tally.Counts(tc.key).Requests != 1 {
			t.Errorf("%+v: buckets %v, want %v", tc.attrs, tally.Buckets(), tc.key)
		}
		if turns := tally.Turns(tc.key); tc.turn > 0 && turns[tc.turn].Requests != 1 || tc.turn == 0 && len(turns) > 0 {
			t.Errorf("%+v: turns %v, want turn %d", tc.attrs, turns, tc.turn)
		}
	}
}

// TestSpanDiagnosticsBounded: the spans of one line past MaxDiagnostics are counted in one diagnostic, as lines
// are, and both are named when a file has more of each.
func TestSpanDiagnosticsBounded(t *testing.T) {
	bad := call("x", -1, 0)
	spans := []string{call("ok", 1, 1)}
	for range usage.MaxDiagnostics + 20 {
		spans = append(spans, bad)
	}
	log := "junk\n" + otlpRequest(spans...) + "\njunk\n"
	tally := usage.NewTally()
	diags, err := tally.Read(strings.NewReader(log), "traces.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) != usage.MaxDiagnostics+1 || tally.SkippedSpans != usage.MaxDiagnostics+20 || tally.Skipped != 2 {
		t.Fatalf("%d diagnostics, %d spans and %d lines skipped", len(diags), tally.SkippedSpans, tally.Skipped)
	}
	if got, want := diags[len(diags)-1].String(), "traces.json:?:?: 1 more line and 21 more spans not read besides (not listed: only the first 100 problems are)"; got != want {
		t.Errorf("last diagnostic %q, want %q", got, want)
	}
	// The 99th span diagnostic is placed where its span lies.
	line := strings.Split(log, "\n")[1]
	at := strings.Index(line, bad)
	for range 98 {
		at += len(bad) + 1 + strings.Index(line[at+len(bad)+1:], bad)
	}
	want := fmt.Sprintf("traces.json:2:%d: attribute \"gen_ai.usage.input_tokens\" is -1: a token count is at least 0", columnOf(t, line[at:], `{"intValue":"-1"}`)+at)
	if got := diags[99].String(); got != want {
		t.Errorf("diagnostic 100\n got %q\nwant %q", got, want)
	}
	if tally.Counts(usage.Key{Provider: "anthropic", Model: "claude-sonnet-4-5"}).Requests != 1 {
		t.Errorf("the good span was not counted: %v", tally.Buckets())
	}
}
