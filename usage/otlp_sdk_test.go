package usage_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/promptc/promptc/usage"
)

// modelCall is one request a platform made, as the test sends it: a span following the GenAI conventions, and the
// provider's response body.
type modelCall struct {
	// provider is the span's gen_ai.provider.name (gen_ai.system when system is set); promptc is promptc's name.
	provider, promptc string
	system            bool
	requestModel      string
	model, id         string
	task              string
	turn              int
	// input includes read and write, as the conventions count it.
	input, read, write, output int
}

var modelCalls = []modelCall{
	{provider: "anthropic", promptc: "anthropic", requestModel: "claude-sonnet-4-5", model: "claude-sonnet-4-5-20250929", id: "msg_01", task: "chat", turn: 1, input: 3020, write: 3000, output: 50},
	{provider: "anthropic", promptc: "anthropic", requestModel: "claude-sonnet-4-5", model: "claude-sonnet-4-5-20250929", id: "msg_02", task: "chat", turn: 2, input: 3230, read: 3000, write: 200, output: 60},
	// The same request logged twice (a retried export): counted once.
	{provider: "anthropic", promptc: "anthropic", requestModel: "claude-sonnet-4-5", model: "claude-sonnet-4-5-20250929", id: "msg_02", task: "chat", turn: 2, input: 3230, read: 3000, write: 200, output: 60},
	{provider: "openai", promptc: "openai", requestModel: "gpt-5", model: "gpt-5-2025-08-07", id: "chatcmpl-1", task: "issue", turn: 1, input: 2006, read: 1920, output: 300},
	{provider: "azure.ai.openai", promptc: "openai", requestModel: "gpt-5", model: "gpt-5-2025-08-07", id: "chatcmpl-2", task: "issue", turn: 2, input: 2100, read: 1920, output: 12},
	// Bedrock's response has no id: a request of its own.
	{provider: "aws.bedrock", promptc: "bedrock", requestModel: "anthropic.claude-sonnet-4-5-20250929-v1:0", task: "chat", turn: 3, input: 2040, write: 2000, output: 25},
	{provider: "gemini", system: true, promptc: "gemini", requestModel: "gemini-2.5-flash", model: "gemini-2.5-flash", id: "resp-g1", task: "quick_create", turn: 1, input: 5000, read: 4096, output: 120},
	{provider: "deepseek", promptc: "deepseek", requestModel: "deepseek-chat", model: "deepseek-chat", id: "ds-1", task: "chat", turn: 1, input: 1800, read: 1664, output: 60},
	{provider: "dashscope", promptc: "dashscope", requestModel: "qwen3-max", model: "qwen3-max", id: "chatcmpl-q1", task: "autopilot", turn: 1, input: 3000, write: 1500, output: 94},
}

var callTime = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// collector is an OTLP/HTTP receiver that writes what it receives as the collector's file exporter does: each
// ExportTraceServiceRequest as one line of protojson.
type collector struct {
	mu       sync.Mutex
	lines    bytes.Buffer
	requests int
}

func (c *collector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		gz, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = gz
	}
	data, err := io.ReadAll(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var req coltracepb.ExportTraceServiceRequest
	if err := proto.Unmarshal(data, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	line, err := protojson.Marshal(&req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	c.mu.Lock()
	c.lines.Write(line)
	c.lines.WriteByte('\n')
	c.requests++
	c.mu.Unlock()
	resp, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(resp)
}

// exportSpans sends calls as the OpenTelemetry Go SDK's spans, through its OTLP/HTTP exporter, to a receiver, and
// returns the lines the receiver wrote and how many requests it received. Beside the model calls, an agent's span
// (with the token counts of the calls under it), a tool's span and an HTTP span of another instrumentation.
func exportSpans(t *testing.T, calls []modelCall) ([]byte, int) {
	t.Helper()
	c := &collector{}
	srv := httptest.NewServer(c)
	defer srv.Close()
	ctx := context.Background()
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(srv.URL+"/v1/traces"))
	if err != nil {
		t.Fatal(err)
	}
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithResource(resource.NewSchemaless(attribute.String("service.name", "tracker-platform"))),
		// Small batches: several requests, several spans in each.
		sdktrace.WithBatcher(exp, sdktrace.WithMaxExportBatchSize(3), sdktrace.WithBatchTimeout(time.Hour)))
	genai := tp.Tracer("platform/genai")
	httpTracer := tp.Tracer("net/http")

	agentCtx, agent := genai.Start(ctx, "invoke_agent tracker", trace.WithTimestamp(callTime))
	sum := 0
	for i, c := range calls {
		start := callTime.Add(time.Duration(i) * time.Minute)
		_, span := genai.Start(agentCtx, "chat "+c.requestModel, trace.WithSpanKind(trace.SpanKindClient), trace.WithTimestamp(start))
		providerKey := "gen_ai.provider.name"
		if c.system {
			providerKey = "gen_ai.system"
		}
		attrs := []attribute.KeyValue{
			attribute.String("gen_ai.operation.name", "chat"),
			attribute.String(providerKey, c.provider),
			attribute.String("gen_ai.request.model", c.requestModel),
			attribute.Int("gen_ai.usage.input_tokens", c.input),
			attribute.Int("gen_ai.usage.output_tokens", c.output),
			attribute.Int("gen_ai.usage.cache_read.input_tokens", c.read),
			attribute.Int("gen_ai.usage.cache_creation.input_tokens", c.write),
			// Where the platform renders the request.
			attribute.String(usage.TaskAttribute, c.task), attribute.Int(usage.TurnAttribute, c.turn),
		}
		if c.model != "" {
			attrs = append(attrs, attribute.String("gen_ai.response.model", c.model))
		}
		if c.id != "" {
			attrs = append(attrs, attribute.String("gen_ai.response.id", c.id))
		}
		span.SetAttributes(attrs...)
		span.End(trace.WithTimestamp(start.Add(time.Second)))
		sum += c.input
	}
	_, tool := genai.Start(agentCtx, "execute_tool tracker", trace.WithAttributes(attribute.String("gen_ai.operation.name", "execute_tool")))
	tool.End()
	_, get := httpTracer.Start(ctx, "GET /issues", trace.WithAttributes(attribute.String("http.request.method", "GET"), attribute.Int("http.response.status_code", 200)))
	get.End()
	agent.SetAttributes(attribute.String("gen_ai.operation.name", "invoke_agent"), attribute.String("gen_ai.provider.name", "anthropic"),
		attribute.Int("gen_ai.usage.input_tokens", sum))
	agent.End()
	if err := tp.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lines.Bytes(), c.requests
}

// responseBodies writes calls as the providers' response bodies would report them, in wrappers that name the task and
// turn: the JSON-Lines log of the same requests.
func responseBodies(t *testing.T, calls []modelCall) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for i, c := range calls {
		var body map[string]any
		switch c.promptc {
		case "anthropic":
			body = map[string]any{"id": c.id, "type": "message", "model": c.model, "usage": map[string]any{
				"input_tokens": c.input - c.read - c.write, "cache_read_input_tokens": c.read, "cache_creation_input_tokens": c.write, "output_tokens": c.output}}
		case "openai":
			body = map[string]any{"id": c.id, "object": "chat.completion", "model": c.model, "usage": map[string]any{
				"prompt_tokens": c.input, "completion_tokens": c.output, "prompt_tokens_details": map[string]any{"cached_tokens": c.read}}}
		case "bedrock":
			body = map[string]any{"usage": map[string]any{"inputTokens": c.input - c.read - c.write, "outputTokens": c.output,
				"cacheReadInputTokens": c.read, "cacheWriteInputTokens": c.write}}
		case "gemini":
			body = map[string]any{"responseId": c.id, "modelVersion": c.model, "usageMetadata": map[string]any{
				"promptTokenCount": c.input, "cachedContentTokenCount": c.read, "candidatesTokenCount": c.output}}
		case "deepseek":
			body = map[string]any{"id": c.id, "object": "chat.completion", "model": c.model, "usage": map[string]any{
				"prompt_tokens": c.input, "completion_tokens": c.output, "prompt_cache_hit_tokens": c.read, "prompt_cache_miss_tokens": c.input - c.read}}
		case "dashscope":
			body = map[string]any{"id": c.id, "object": "chat.completion", "model": c.model, "usage": map[string]any{
				"prompt_tokens": c.input, "completion_tokens": c.output, "prompt_tokens_details": map[string]any{
					"cached_tokens": c.read, "cache_creation_input_tokens": c.write, "cache_type": "ephemeral"}}}
		default:
			t.Fatalf("no response body for %q", c.promptc)
		}
		w := map[string]any{"task": c.task, "turn": c.turn, "time": callTime.Add(time.Duration(i) * time.Minute).Format(time.RFC3339), "response": body}
		if c.model == "" {
			w["model"] = c.requestModel
		}
		if err := enc.Encode(w); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

// sent is what the test sent: each request once, per bucket and per turn.
func sent(calls []modelCall) (map[usage.Key]usage.Counts, map[usage.Key]map[int]usage.Counts) {
	totals, turns := map[usage.Key]usage.Counts{}, map[usage.Key]map[int]usage.Counts{}
	seen := map[string]bool{}
	for _, c := range calls {
		if c.id != "" && seen[c.id] {
			continue
		}
		seen[c.id] = true
		k := usage.Key{Provider: c.promptc, Model: cmpOr(c.model, c.requestModel), Task: c.task}
		add := func(n usage.Counts) usage.Counts {
			n.Requests++
			n.InputTokens += c.input
			n.CacheReadTokens += c.read
			n.CacheWriteTokens += c.write
			n.OutputTokens += c.output
			return n
		}
		totals[k] = add(totals[k])
		if turns[k] == nil {
			turns[k] = map[int]usage.Counts{}
		}
		turns[k][c.turn] = add(turns[k][c.turn])
	}
	return totals, turns
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func tallyOf(t *testing.T, log []byte, name string) *usage.Tally {
	t.Helper()
	tally := usage.NewTally()
	diags, err := tally.Read(bytes.NewReader(log), name)
	if err != nil || len(diags) > 0 {
		t.Fatalf("%s: %v %v", name, err, diags)
	}
	return tally
}

func checkTotals(t *testing.T, name string, tally *usage.Tally, totals map[usage.Key]usage.Counts, turns map[usage.Key]map[int]usage.Counts) {
	t.Helper()
	if got, want := tally.Buckets(), slices.SortedFunc(maps.Keys(totals), func(a, b usage.Key) int {
		return cmpStrings(a.Provider+"\x00"+a.Model+"\x00"+a.Task, b.Provider+"\x00"+b.Model+"\x00"+b.Task)
	}); !slices.Equal(got, want) {
		t.Errorf("%s: buckets\n got %v\nwant %v", name, got, want)
	}
	for k, want := range totals {
		if got := tally.Counts(k); got != want {
			t.Errorf("%s: %v:\n got %+v\nwant %+v", name, k, got, want)
		}
		if got := tally.Turns(k); !maps.Equal(got, turns[k]) {
			t.Errorf("%s: %v turns:\n got %+v\nwant %+v", name, k, got, turns[k])
		}
	}
}

func cmpStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestReadSDKSpans: spans made by the OpenTelemetry Go SDK, exported by its OTLP/HTTP exporter and written as the
// collector's file exporter writes them, give the counts the test sent, each request once; the agent's, the tool's
// and the HTTP span are not requests.
func TestReadSDKSpans(t *testing.T) {
	log, requests := exportSpans(t, modelCalls)
	if requests < 2 {
		t.Fatalf("the exporter sent %d requests; the test wants several spans in each of several", requests)
	}
	tally := tallyOf(t, log, "traces.json")
	totals, turns := sent(modelCalls)
	checkTotals(t, "spans", tally, totals, turns)
	spans := len(modelCalls) + 3
	if tally.Lines != requests || tally.Spans != spans || tally.OtherSpans != 3 || tally.DuplicateSpans != 1 || tally.NoID != 1 || tally.SkippedSpans != 0 {
		t.Errorf("lines %d spans %d other %d duplicates %d noid %d skipped %d; want %d %d 3 1 1 0",
			tally.Lines, tally.Spans, tally.OtherSpans, tally.DuplicateSpans, tally.NoID, tally.SkippedSpans, requests, spans)
	}
}

// TestSpansAsResponses: the same requests as the providers' response bodies (the JSON-Lines log) give the same
// totals as their spans.
func TestSpansAsResponses(t *testing.T) {
	log, _ := exportSpans(t, modelCalls)
	fromSpans := tallyOf(t, log, "traces.json")
	fromBodies := tallyOf(t, responseBodies(t, modelCalls), "responses.jsonl")
	totals, turns := sent(modelCalls)
	checkTotals(t, "responses", fromBodies, totals, turns)
	if !slices.Equal(fromSpans.Buckets(), fromBodies.Buckets()) {
		t.Fatalf("buckets: spans %v, responses %v", fromSpans.Buckets(), fromBodies.Buckets())
	}
	for _, k := range fromSpans.Buckets() {
		if a, b := fromSpans.Counts(k), fromBodies.Counts(k); a != b {
			t.Errorf("%v: spans %+v, responses %+v", k, a, b)
		}
		if a, b := fromSpans.Turns(k), fromBodies.Turns(k); !maps.Equal(a, b) {
			t.Errorf("%v turns: spans %+v, responses %+v", k, a, b)
		}
	}
	// Both logs of the same requests: each counted once (Bedrock's, which has no id, once per log).
	both := usage.NewTally()
	for name, l := range map[string][]byte{"traces.json": log, "responses.jsonl": responseBodies(t, modelCalls)} {
		if diags, err := both.Read(bytes.NewReader(l), name); err != nil || len(diags) > 0 {
			t.Fatal(err, diags)
		}
	}
	if got := both.Counts(usage.Key{Provider: "anthropic", Model: "claude-sonnet-4-5-20250929", Task: "chat"}).Requests; got != 2 {
		t.Errorf("anthropic requests from both logs: %d, want 2", got)
	}
}
