package sdktest_test

// The official SDKs judge the projected bodies: each body is decoded into the SDK's request type, sent by the SDK's
// client to a local server, and what arrives on the wire must be the body promptc built. A body that survives this
// is one a platform can hand to the SDK as it is; a body the SDK rejects or rewrites fails here first.
//
// What the SDKs are allowed to change, each a form the API defines as equal (and nothing else):
//   - key order, white space, string escapes (\u003c for <) and number spelling (1e3 for 1000): bodies are compared
//     as decoded JSON, numbers by exact decimal value;
//   - Anthropic: a message's or a tool result's content given as a non-empty string is one text block holding it
//     (the SDK's types hold only blocks; sdkAnthropicNorm);
//   - OpenAI: a message's "content": null is the same as no content (the SDK leaves it out; sdkOpenAINorm);
//   - added top-level fields: none today (sdkAnthropicAdded, sdkOpenAIAdded).

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	aoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	aparam "github.com/anthropics/anthropic-sdk-go/v2/packages/param"
	"github.com/openai/openai-go/v3"
	ooption "github.com/openai/openai-go/v3/option"
	oparam "github.com/openai/openai-go/v3/packages/param"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/projection"
	toks "github.com/promptc/promptc/tokens"
)

const sdkTask = "issue"

// sdkHistory is a conversation with tool calls: one call, then a text with two parallel calls, the second
// answered by a JSON result with volatile fields and characters encoders like to escape. Numbers are spelled as
// people write them (1.50, 1e3). It ends with tool results, so a request may leave out the turn.
const sdkHistory = `{"role": "user", "content": "Look at NW-142: why do Austrian invoices show 19% VAT?"}
{"role": "assistant", "content": "", "tool_calls": [{"id": "toolu_01", "name": "tracker_issue_view", "arguments": {"id": "NW-142", "comments": true}}]}
{"role": "tool", "tool_call_id": "toolu_01", "content": {"id": "NW-142", "title": "Austrian invoices show 19% VAT", "labels": ["billing", "bug"], "fetched_at": "2026-12-01T10:00:00Z"}}
{"role": "assistant", "content": "The rate table is the likely cause; I will read it and the credit-note code.", "tool_calls": [{"id": "toolu_02", "name": "repo_read", "arguments": {"repo": "northwind/billing", "path": "tax/rates.go"}}, {"id": "toolu_03", "name": "repo_read", "arguments": {"repo": "northwind/billing", "path": "credit/notes.go", "lines": {"from": 1, "to": 1e3}, "rate": 1.50}}]}
{"role": "tool", "tool_call_id": "toolu_02", "content": "var standardRates = map[string]Rate{\n\t\"AUT\": {Standard: 20, Reduced: 10},\n}"}
{"role": "tool", "tool_call_id": "toolu_03", "content": {"path": "credit/notes.go", "text": "rate := tax.Lookup(c.Country) // <AT> & \"quotes\" — ünïcode", "request_id": "r-991"}}
`

// sdkHandTools are the tools the history calls, with the schema features a provider's types might reshape: nested
// objects, enum, pattern, minimum, required and additionalProperties.
func sdkHandTools() []*blocks.Tool {
	return []*blocks.Tool{
		{Name: "repo_read", Description: "Read a file of a connected repository, whole or a range of lines.",
			Parameters: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"repo": map[string]any{"type": "string", "enum": []any{"northwind/billing", "northwind/checkout"}},
					"path": map[string]any{"type": "string", "description": "Slash path from the repository root."},
					"lines": map[string]any{"type": "object", "properties": map[string]any{
						"from": map[string]any{"type": "integer", "minimum": int64(1)},
						"to":   map[string]any{"type": "integer"},
					}},
					"rate": map[string]any{"type": "number", "default": 0.5},
				},
				"required": []any{"repo", "path"},
			}},
		{Name: "tracker_issue_view", Description: "Show an issue: title, labels, description and, with comments, its thread.",
			Parameters: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"id":       map[string]any{"type": "string", "pattern": "^[A-Z]+-[0-9]+$"},
					"comments": map[string]any{"type": "boolean"},
				},
				"required":             []any{"id"},
				"additionalProperties": false,
			}},
	}
}

type sdkCase struct {
	name  string
	in    projection.Input
	tools []*blocks.Tool
}

type sdkFixture struct {
	cat   *projection.Catalog
	cases []sdkCase
	// first is the tracker session's first turn, with its tools: prompt_cache_key must not change between turns.
	first sdkCase
	err   error
}

var sdkCounter = sync.OnceValues(func() (*toks.Counter, error) { return toks.New(toks.O200k), nil })

// sdkLoad renders the inputs every SDK test projects, once.
var sdkLoad = sync.OnceValue(func() sdkFixture {
	prog, diags := assemble.LoadDir("../examples/tracker")
	if len(diags) > 0 {
		return sdkFixture{err: diags}
	}
	cat, err := projection.NewCatalog(prog.Project.Models)
	if err != nil {
		return sdkFixture{err: err}
	}
	var fx *blocks.Fixture
	for _, f := range prog.Project.Fixtures {
		if f.Name == "basic" {
			fx = f
		}
	}
	if fx == nil || len(fx.Turns) < 2 {
		return sdkFixture{err: fmt.Errorf("examples/tracker: fixture basic with two turns not found")}
	}
	s, err := projection.FixtureReplay(prog, sdkTask, fx)
	if err != nil {
		return sdkFixture{err: err}
	}
	// The tracker project's own tools when it has some; else the hand-written ones.
	tools := prog.Project.ToolsFor(sdkTask)
	if len(tools) == 0 {
		tools = sdkHandTools()
	}
	history, err := projection.ReadHistory(strings.NewReader(sdkHistory), "sdk.jsonl", append([]string{"fetched_at", "request_id"}, prog.Project.Volatile...))
	if err != nil {
		return sdkFixture{err: err}
	}
	late := s.Input(len(s.Turns)) // the last turn: the earlier ones and their replies are its history
	short := &assemble.Artifact{Text: "You are a careful billing agent. Use the tools; never guess a tax rate.\n"}
	return sdkFixture{cat: cat, cases: []sdkCase{
		{name: "tracker", in: late},
		{name: "tracker+tools", in: late, tools: tools},
		{name: "history+turn", in: projection.Input{Runbook: s.Runbook, History: history, Turn: "Check the credit notes too, then reply on the issue."}, tools: sdkHandTools()},
		{name: "history-no-turn", in: projection.Input{Runbook: s.Runbook, History: history}, tools: sdkHandTools()},
		// The history ends with the user's message: Anthropic merges the turn into it, and the marker goes on it.
		{name: "user-last", in: projection.Input{Runbook: s.Runbook, History: history[:1], Turn: "Start with the rate table."}, tools: sdkHandTools()},
		// Below every model's minimum: no marker anywhere.
		{name: "short-runbook", in: projection.Input{Runbook: short, History: history, Turn: "Go on."}, tools: sdkHandTools()},
	}, first: sdkCase{name: "tracker-turn-1", in: s.Input(1), tools: tools}}
})

func sdkSetup(t *testing.T) sdkFixture {
	t.Helper()
	f := sdkLoad()
	if f.err != nil {
		t.Fatal(f.err)
	}
	return f
}

func sdkProject(t *testing.T, c sdkCase, m projection.Model, implicit bool) *projection.Projection {
	t.Helper()
	counter, err := sdkCounter()
	if err != nil {
		t.Fatal(err)
	}
	pr, err := projection.New(c.in, projection.Options{Model: m, Tools: c.tools, Implicit: implicit, Counter: counter})
	if err != nil {
		t.Fatalf("%s: Project: %v", c.name, err)
	}
	return pr
}

func sdkModel(t *testing.T, cat *projection.Catalog, p projection.Provider) projection.Model {
	t.Helper()
	m, err := cat.Model(p, "")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Top-level fields an SDK may add to the body, with the only value each may have. Empty: neither SDK adds any
// field today (no stream=false); a new one fails the tests until it is listed here as a default.
var (
	sdkAnthropicAdded = map[string]any{}
	sdkOpenAIAdded    = map[string]any{}
)

// TestSDKAnthropic: every body decodes into anthropic.MessageNewParams, and client.Messages.New sends the body
// promptc built.
func TestSDKAnthropic(t *testing.T) {
	f := sdkSetup(t)
	m := sdkModel(t, f.cat, projection.Anthropic)
	for _, c := range f.cases {
		t.Run(c.name, func(t *testing.T) {
			pr := sdkProject(t, c, m, false)
			sdkCheckAnthropic(t, c, pr)
		})
	}
}

func sdkCheckAnthropic(t *testing.T, c sdkCase, pr *projection.Projection) {
	t.Helper()
	want := sdkAnthropicNorm(sdkDecode(t, pr.Body))

	// a. The SDK's request type holds the whole body.
	var params anthropic.MessageNewParams
	if err := json.Unmarshal(pr.Body, &params); err != nil {
		t.Fatalf("json.Unmarshal into anthropic.MessageNewParams: %v\n%s", err, pr.Body)
	}
	if len(params.System) != sdkLen(want["system"]) || len(params.Messages) != sdkLen(want["messages"]) || len(params.Tools) != len(c.tools) {
		t.Fatalf("params: %d system blocks, %d messages, %d tools; body has %d, %d, %d", len(params.System),
			len(params.Messages), len(params.Tools), sdkLen(want["system"]), sdkLen(want["messages"]), len(c.tools))
	}
	if params.Model != anthropic.Model(pr.Model.Name) || params.MaxTokens <= 0 {
		t.Errorf("params: model %q, max_tokens %d", params.Model, params.MaxTokens)
	}
	for i, tl := range params.Tools {
		if tl.OfTool == nil {
			t.Errorf("tools[%d] decoded as another variant than a custom tool (ToolParam)", i)
		}
	}
	for i, pm := range params.Messages {
		role := sdkStr(sdkList(want["messages"])[i]["role"])
		if (role == "user") != (pm.OfUser != nil) || (role == "assistant") != (pm.OfAssistant != nil) {
			t.Errorf("messages[%d] (role %s) decoded as another variant", i, role)
		}
	}
	rt, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	sdkSame(t, "MessageNewParams", want, sdkAnthropicNorm(sdkDecode(t, rt)), nil)

	// b. The client sends it; c. what arrived is what promptc built.
	got := sdkAnthropicNorm(sdkDecode(t, sdkSendAnthropic(t, params)))
	sdkSame(t, "wire", want, got, sdkAnthropicAdded)
	sdkSameMarkers(t, want, got)
	sdkCheckConversation(t, projection.Anthropic, got, c)
	sdkNoEmptyText(t, got)

	// d. Handed over as raw JSON (param.SetJSON), the body goes out byte for byte, compacted and HTML-escaped
	// (sdkCompact).
	var raw anthropic.MessageNewParams
	_ = json.Unmarshal(pr.Body, &raw) // the fields the client reads itself: model, max_tokens
	aparam.SetJSON(pr.Body, &raw)
	if wire := sdkSendAnthropic(t, raw); !bytes.Equal(wire, sdkCompact(t, pr.Body, true)) {
		t.Errorf("param.SetJSON: the wire holds other bytes than the projected body (compacted)")
	}
}

// TestSDKOpenAI: every body decodes into openai.ChatCompletionNewParams, and client.Chat.Completions.New sends the
// body promptc built, prompt_cache_key included.
func TestSDKOpenAI(t *testing.T) {
	f := sdkSetup(t)
	m := sdkModel(t, f.cat, projection.OpenAI)
	for _, c := range f.cases {
		t.Run(c.name, func(t *testing.T) {
			pr := sdkProject(t, c, m, false)
			sdkCheckOpenAI(t, c, pr)
		})
	}
}

func sdkCheckOpenAI(t *testing.T, c sdkCase, pr *projection.Projection) {
	t.Helper()
	want := sdkOpenAINorm(sdkDecode(t, pr.Body))

	var params openai.ChatCompletionNewParams
	if err := json.Unmarshal(pr.Body, &params); err != nil {
		t.Fatalf("json.Unmarshal into openai.ChatCompletionNewParams: %v\n%s", err, pr.Body)
	}
	if params.PromptCacheKey.Value != pr.CacheKey || pr.CacheKey == "" {
		t.Errorf("params.PromptCacheKey = %q, want %q", params.PromptCacheKey.Value, pr.CacheKey)
	}
	sdkCheckOpenAIParams(t, params, want, len(c.tools))
	rt, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	sdkSame(t, "ChatCompletionNewParams", want, sdkOpenAINorm(sdkDecode(t, rt)), nil)

	got := sdkOpenAINorm(sdkDecode(t, sdkSendOpenAI(t, params, "/v1")))
	sdkSame(t, "wire", want, got, sdkOpenAIAdded)
	sdkSameMarkers(t, want, got)
	sdkCheckConversation(t, projection.OpenAI, got, c)

	var raw openai.ChatCompletionNewParams
	_ = json.Unmarshal(pr.Body, &raw)
	oparam.SetJSON(pr.Body, &raw)
	if wire := sdkSendOpenAI(t, raw, "/v1"); !bytes.Equal(wire, sdkCompact(t, pr.Body, false)) {
		t.Errorf("param.SetJSON: the wire holds other bytes than the projected body (compacted)")
	}
}

// TestSDKDashScope: DashScope's bodies are OpenAI's with cache_control inside content parts, which the OpenAI SDK's
// types do not model. Decoded into them, everything but the markers survives; set back on the typed parts as extra
// fields (SetExtraFields), the markers go out on the wire where promptc put them. Handed over as raw JSON
// (param.SetJSON), the body goes out byte for byte (compacted), markers included.
func TestSDKDashScope(t *testing.T) {
	f := sdkSetup(t)
	m := sdkModel(t, f.cat, projection.DashScope)
	for _, c := range f.cases {
		for _, implicit := range []bool{false, true} {
			name := c.name
			if implicit {
				name += "/implicit"
			}
			t.Run(name, func(t *testing.T) {
				pr := sdkProject(t, c, m, implicit)
				sdkCheckDashScope(t, c, pr, implicit)
			})
		}
	}
}

func sdkCheckDashScope(t *testing.T, c sdkCase, pr *projection.Projection, implicit bool) {
	t.Helper()
	want := sdkOpenAINorm(sdkDecode(t, pr.Body))

	var params openai.ChatCompletionNewParams
	if err := json.Unmarshal(pr.Body, &params); err != nil {
		t.Fatalf("json.Unmarshal into openai.ChatCompletionNewParams: %v\n%s", err, pr.Body)
	}
	sdkCheckOpenAIParams(t, params, want, len(c.tools))
	rt, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	decoded := sdkOpenAINorm(sdkDecode(t, rt))
	// What survives the SDK's types: the body less its markers, every message, role and text in place.
	sdkSame(t, "ChatCompletionNewParams (markers removed)", sdkStripMarkers(want), decoded, nil)
	if n := len(sdkMarkers(decoded)); n != 0 {
		t.Errorf("the SDK's types kept %d cache_control markers: they model them now, and sdkRestoreMarkers can go", n)
	}

	sdkRestoreMarkers(t, &params, want)
	got := sdkOpenAINorm(sdkDecode(t, sdkSendOpenAI(t, params, "/compatible-mode/v1")))
	sdkSame(t, "wire", want, got, sdkOpenAIAdded)
	sdkSameMarkers(t, want, got)
	sdkCheckConversation(t, projection.DashScope, got, c)
	if n := len(sdkMarkers(got)); implicit && n != 0 {
		t.Errorf("implicit body sent %d markers", n)
	} else if !implicit && n != len(pr.Markers()) {
		t.Errorf("%d markers on the wire, the projection placed %d", n, len(pr.Markers()))
	}

	var raw openai.ChatCompletionNewParams
	_ = json.Unmarshal(pr.Body, &raw)
	oparam.SetJSON(pr.Body, &raw)
	if wire := sdkSendOpenAI(t, raw, "/compatible-mode/v1"); !bytes.Equal(wire, sdkCompact(t, pr.Body, false)) {
		t.Errorf("param.SetJSON: the wire holds other bytes than the projected body (compacted)")
	}
}

// sdkServer records the one request the SDK sends and answers it with reply.
type sdkServer struct {
	*httptest.Server
	mu     sync.Mutex
	method string
	path   string
	header http.Header
	body   []byte
	n      int
}

func newSDKServer(t *testing.T, reply string) *sdkServer {
	s := &sdkServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		s.mu.Lock()
		s.n++
		s.method, s.path, s.header, s.body = r.Method, r.URL.Path, r.Header.Clone(), b
		s.mu.Unlock()
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, reply)
	}))
	t.Cleanup(s.Close)
	return s
}

// wire returns the recorded request body, checking that exactly one request arrived, at path.
func (s *sdkServer) wire(t *testing.T, path string) []byte {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n != 1 {
		t.Fatalf("server got %d requests, want 1", s.n)
	}
	if s.method != http.MethodPost || s.path != path {
		t.Errorf("request %s %s, want POST %s", s.method, s.path, path)
	}
	if ct := s.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	return s.body
}

func sdkContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// Minimal valid responses, written by hand from the APIs' references.
const (
	sdkAnthropicReply = `{"id": "msg_sdk_test", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
 "content": [{"type": "text", "text": "ok"}], "stop_reason": "end_turn", "stop_sequence": null,
 "usage": {"input_tokens": 12, "output_tokens": 1}}`
	sdkOpenAIReply = `{"id": "chatcmpl-sdk-test", "object": "chat.completion", "created": 1764583200, "model": "m",
 "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok", "refusal": null}, "finish_reason": "stop", "logprobs": null}],
 "usage": {"prompt_tokens": 12, "completion_tokens": 1, "total_tokens": 13}}`
)

// sdkSendAnthropic sends params with client.Messages.New to a local server and returns the body that arrived.
func sdkSendAnthropic(t *testing.T, params anthropic.MessageNewParams) []byte {
	t.Helper()
	srv := newSDKServer(t, sdkAnthropicReply)
	client := anthropic.NewClient(
		aoption.WithoutEnvironmentDefaults(), // no key, profile or base URL from the machine running the test
		aoption.WithBaseURL(srv.URL),
		aoption.WithAPIKey("sdk-test-key"),
		aoption.WithHTTPClient(srv.Client()),
		aoption.WithMaxRetries(0),
		aoption.WithoutOpenTelemetry(),
	)
	msg, err := client.Messages.New(sdkContext(t), params)
	if err != nil {
		t.Fatalf("Messages.New: %v", err)
	}
	if msg.ID != "msg_sdk_test" || len(msg.Content) != 1 || msg.Content[0].Text != "ok" {
		t.Errorf("response decoded as %+v", msg)
	}
	wire := srv.wire(t, "/v1/messages")
	// v2.15.0's WithAPIKey sends the key as a bearer token, not as X-Api-Key; either reaches the API.
	if a, k := srv.header.Get("Authorization"), srv.header.Get("X-Api-Key"); a != "Bearer sdk-test-key" && k != "sdk-test-key" {
		t.Errorf("no API key sent: Authorization %q, X-Api-Key %q", a, k)
	}
	if srv.header.Get("Anthropic-Version") == "" {
		t.Errorf("no anthropic-version header")
	}
	return wire
}

// sdkSendOpenAI sends params with client.Chat.Completions.New to a local server whose base URL ends in prefix, and
// returns the body that arrived.
func sdkSendOpenAI(t *testing.T, params openai.ChatCompletionNewParams, prefix string) []byte {
	t.Helper()
	srv := newSDKServer(t, sdkOpenAIReply)
	client := openai.NewClient(
		ooption.WithBaseURL(srv.URL+prefix+"/"),
		ooption.WithAPIKey("sdk-test-key"),
		ooption.WithHTTPClient(srv.Client()),
		ooption.WithMaxRetries(0),
	)
	cc, err := client.Chat.Completions.New(sdkContext(t), params)
	if err != nil {
		t.Fatalf("Chat.Completions.New: %v", err)
	}
	if cc.ID != "chatcmpl-sdk-test" || len(cc.Choices) != 1 || cc.Choices[0].Message.Content != "ok" {
		t.Errorf("response decoded as %+v", cc)
	}
	wire := srv.wire(t, prefix+"/chat/completions")
	if a := srv.header.Get("Authorization"); a != "Bearer sdk-test-key" {
		t.Errorf("Authorization %q", a)
	}
	return wire
}

// sdkCheckOpenAIParams checks that each message and tool decoded into the variant its role and type name.
func sdkCheckOpenAIParams(t *testing.T, params openai.ChatCompletionNewParams, body map[string]any, ntools int) {
	t.Helper()
	msgs := sdkList(body["messages"])
	if len(params.Messages) != len(msgs) || len(params.Tools) != ntools {
		t.Fatalf("params: %d messages, %d tools; body has %d, %d", len(params.Messages), len(params.Tools), len(msgs), ntools)
	}
	for i, pm := range params.Messages {
		role := msgs[i]["role"]
		var ok bool
		switch role {
		case "system":
			ok = pm.OfSystem != nil
		case "user":
			ok = pm.OfUser != nil
		case "assistant":
			ok = pm.OfAssistant != nil
		case "tool":
			ok = pm.OfTool != nil
		}
		if !ok {
			t.Errorf("messages[%d] (role %v) decoded as another variant", i, role)
		}
	}
	for i, tl := range params.Tools {
		if tl.OfFunction == nil {
			t.Errorf("tools[%d] decoded as another variant than a function tool", i)
		}
	}
}

// sdkRestoreMarkers sets every cache_control of the projected body on the typed content part it belongs to, as an
// extra field: the SDK's documented way to send a field its types lack. (option.WithJSONSet with the part's path
// would do as well, but keeps the marker out of the params value a platform builds and passes around.)
func sdkRestoreMarkers(t *testing.T, params *openai.ChatCompletionNewParams, body map[string]any) {
	t.Helper()
	for i, m := range sdkList(body["messages"]) {
		for j, p := range sdkList(m["content"]) {
			cc, ok := p["cache_control"]
			if !ok {
				continue
			}
			pm := &params.Messages[i]
			var part interface{ SetExtraFields(map[string]any) }
			switch {
			case pm.OfSystem != nil && j < len(pm.OfSystem.Content.OfArrayOfContentParts):
				part = &pm.OfSystem.Content.OfArrayOfContentParts[j]
			case pm.OfUser != nil && j < len(pm.OfUser.Content.OfArrayOfContentParts):
				part = pm.OfUser.Content.OfArrayOfContentParts[j].OfText
			case pm.OfAssistant != nil && j < len(pm.OfAssistant.Content.OfArrayOfContentParts):
				part = pm.OfAssistant.Content.OfArrayOfContentParts[j].OfText
			case pm.OfTool != nil && j < len(pm.OfTool.Content.OfArrayOfContentParts):
				part = &pm.OfTool.Content.OfArrayOfContentParts[j]
			}
			if part == nil || reflect.ValueOf(part).IsNil() {
				t.Fatalf("messages[%d].content[%d] carries cache_control but decoded into no text part", i, j)
			}
			part.SetExtraFields(map[string]any{"cache_control": cc})
		}
	}
}

// TestSDKNumbers: both SDKs decode free-form JSON (a tool's schema, Anthropic's tool_use input) into Go's any,
// whose numbers are float64: an integer beyond 2^53 changes on the way to the wire (12345678901234567890 goes out
// as 12345678901234567000), and 1.50 or 1e3 change their spelling. A platform that hands the body over with
// param.SetJSON sends promptc's bytes (compacted); that is what this test holds the SDKs to, and it logs what the
// json.Unmarshal path changes.
func TestSDKNumbers(t *testing.T) {
	f := sdkSetup(t)
	history, err := projection.ReadHistory(strings.NewReader(`{"role": "user", "content": "Show invoice 12345678901234567890."}
{"role": "assistant", "tool_calls": [{"id": "c1", "name": "invoice_show", "arguments": {"id": 12345678901234567890, "total": 1.50, "lines": 1e3}}]}
{"role": "tool", "tool_call_id": "c1", "content": {"id": 12345678901234567890, "total": 1.50}}
`), "numbers.jsonl", nil)
	if err != nil {
		t.Fatal(err)
	}
	tool := &blocks.Tool{Name: "invoice_show", Description: "Show an invoice.", Parameters: map[string]any{
		"type":       "object",
		"properties": map[string]any{"id": map[string]any{"type": "integer", "maximum": int64(1<<63 - 1)}},
	}}
	c := sdkCase{name: "numbers", in: projection.Input{Runbook: f.cases[0].in.Runbook, History: history, Turn: "Go on."}, tools: []*blocks.Tool{tool}}
	for _, p := range []projection.Provider{projection.Anthropic, projection.OpenAI, projection.DashScope} {
		t.Run(p.String(), func(t *testing.T) {
			pr := sdkProject(t, c, sdkModel(t, f.cat, p), false)
			var rt []byte
			var wire []byte
			if p == projection.Anthropic {
				var params anthropic.MessageNewParams
				if err := json.Unmarshal(pr.Body, &params); err != nil {
					t.Fatal(err)
				}
				rt, _ = json.Marshal(params)
				aparam.SetJSON(pr.Body, &params)
				wire = sdkSendAnthropic(t, params)
			} else {
				var params openai.ChatCompletionNewParams
				if err := json.Unmarshal(pr.Body, &params); err != nil {
					t.Fatal(err)
				}
				rt, _ = json.Marshal(params)
				oparam.SetJSON(pr.Body, &params)
				wire = sdkSendOpenAI(t, params, "/v1")
			}
			if !bytes.Equal(wire, sdkCompact(t, pr.Body, p == projection.Anthropic)) {
				t.Errorf("param.SetJSON: the wire holds other bytes than the projected body (compacted)")
			}
			var diffs []string
			want, got := sdkDecode(t, pr.Body), sdkDecode(t, rt)
			if p == projection.Anthropic {
				want, got = sdkAnthropicNorm(want), sdkAnthropicNorm(got)
			} else {
				want, got = sdkOpenAINorm(want), sdkOpenAINorm(got)
			}
			for k, v := range sdkStripMarkers(want) {
				sdkDiff(k, v, sdkStripMarkers(got)[k], &diffs)
			}
			sort.Strings(diffs)
			t.Logf("SDK quirk, json.Unmarshal into the params type then json.Marshal changes:\n  %s", strings.Join(diffs, "\n  "))
		})
	}
}

// TestSDKEmptyToolResult: a tool that printed nothing gives a tool message with empty content. For Anthropic the
// projection writes {"type": "tool_result", "content": ""}; json.Unmarshal into MessageNewParams turns that string
// into [{"type": "text", "text": ""}] (the SDK's types hold only blocks), an empty text block the Messages API
// refuses with 400 "text content blocks must be non-empty". The projection should leave an empty tool result's
// content out (the API's content is optional), which every SDK sends as it is.
func TestSDKEmptyToolResult(t *testing.T) {
	f := sdkSetup(t)
	c := sdkCase{name: "empty-tool-result", tools: []*blocks.Tool{{Name: "tracker_inbox", Description: "List the open issues assigned to you.",
		Parameters: blocks.DefaultParameters()}}}
	c.in = projection.Input{Runbook: f.cases[0].in.Runbook, Turn: "Then pick the oldest issue of the backlog.", History: []projection.Message{
		{Role: projection.User, Content: "What is in my inbox?"},
		{Role: projection.Assistant, ToolCalls: []projection.ToolCall{{ID: "c1", Name: "tracker_inbox", Arguments: json.RawMessage(`{}`)}}},
		{Role: projection.ToolRole, ToolCallID: "c1", Content: ""},
	}}
	t.Run("anthropic", func(t *testing.T) {
		pr := sdkProject(t, c, sdkModel(t, f.cat, projection.Anthropic), false)
		sdkNoEmptyText(t, sdkDecode(t, pr.Body))
		sdkCheckAnthropic(t, c, pr)
	})
	t.Run("openai", func(t *testing.T) {
		sdkCheckOpenAI(t, c, sdkProject(t, c, sdkModel(t, f.cat, projection.OpenAI), false))
	})
	t.Run("dashscope", func(t *testing.T) {
		sdkCheckDashScope(t, c, sdkProject(t, c, sdkModel(t, f.cat, projection.DashScope), false), false)
	})
}

// TestSDKEmptyUserMessage: New drops an Anthropic message with no content (it would be an empty text block),
// but still counts it as a message: the assistant messages around it go out as two consecutive assistant messages,
// and every later part's Message is one past the body's message that holds it. Skipping the message before the
// roles are compared would merge the two assistant messages into one, as tool results and the turn are merged.
func TestSDKEmptyUserMessage(t *testing.T) {
	f := sdkSetup(t)
	c := sdkCase{name: "empty-user-message", in: projection.Input{Runbook: f.cases[0].in.Runbook, Turn: "No, thanks.", History: []projection.Message{
		{Role: projection.User, Content: "Is NW-142 fixed?"},
		{Role: projection.Assistant, Content: "Yes, in northwind/billing#412."},
		{Role: projection.User, Content: ""}, // a message that held only an attachment
		{Role: projection.Assistant, Content: "Anything else?"},
	}}}
	for _, p := range []projection.Provider{projection.Anthropic, projection.OpenAI, projection.DashScope} {
		t.Run(p.String(), func(t *testing.T) {
			pr := sdkProject(t, c, sdkModel(t, f.cat, p), false)
			body := sdkDecode(t, pr.Body)
			sdkCheckPartMessages(t, pr, body)
			sdkCheckMarkerPlaces(t, pr, sdkMarkers(body))
			switch p {
			case projection.Anthropic:
				sdkCheckAlternation(t, body)
				sdkCheckAnthropic(t, c, pr)
			case projection.OpenAI:
				sdkCheckOpenAI(t, c, pr)
			case projection.DashScope:
				sdkCheckDashScope(t, c, pr, false)
			}
		})
	}
}

// TestSDKRules checks the projected bodies against each provider's cache rules, for every built-in model: markers
// only where the counted prefix reaches the model's minimum, at most the model's (and Anthropic's) limit of four,
// exactly where the parts say; none for OpenAI, which gets prompt_cache_key instead; none for DashScope's implicit
// cache, whose messages are the explicit body's.
func TestSDKRules(t *testing.T) {
	f := sdkSetup(t)
	for _, base := range projection.Models() {
		if base.Provider > projection.DashScope {
			continue // TestSDKBedrock, TestSDKGemini, TestSDKDeepSeek
		}
		m, err := f.cat.Model(base.Provider, base.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range f.cases {
			t.Run(m.Provider.String()+"/"+m.Name+"/"+c.name, func(t *testing.T) {
				pr := sdkProject(t, c, m, false)
				sdkCheckPrefixes(t, pr)
				body := sdkDecode(t, pr.Body)
				marked := sdkMarkers(body)
				switch m.Provider {
				case projection.Anthropic:
					if len(marked) > 4 || len(marked) > m.MaxBreakpoints {
						t.Errorf("%d cache_control markers: Anthropic takes at most 4 (model: %d)", len(marked), m.MaxBreakpoints)
					}
					sdkCheckMarkerPlaces(t, pr, marked)
					sdkCheckAlternation(t, body)
					sdkNoEmptyText(t, body)
				case projection.OpenAI:
					if len(marked) != 0 || bytes.Contains(pr.Body, []byte("cache_control")) || len(pr.Markers()) != 0 {
						t.Errorf("OpenAI body carries cache_control")
					}
					key, _ := body["prompt_cache_key"].(string)
					if !strings.HasPrefix(key, "promptc-") || key != pr.CacheKey {
						t.Errorf("prompt_cache_key = %q, want the projection's key %q", key, pr.CacheKey)
					}
				case projection.DashScope:
					if len(marked) > m.MaxBreakpoints {
						t.Errorf("%d cache_control markers, the model takes %d", len(marked), m.MaxBreakpoints)
					}
					sdkCheckMarkerPlaces(t, pr, marked)
					imp := sdkProject(t, c, m, true)
					if bytes.Contains(imp.Body, []byte("cache_control")) || len(imp.Markers()) != 0 {
						t.Errorf("implicit body carries cache_control")
					}
					if _, ok := body["prompt_cache_key"]; ok {
						t.Errorf("DashScope body carries prompt_cache_key")
					}
					exp, im := sdkMessages(body), sdkMessages(sdkDecode(t, imp.Body))
					if !slices.Equal(exp, im) {
						t.Errorf("implicit messages differ from the explicit ones:\n%s\nwant\n%s", strings.Join(im, "\n"), strings.Join(exp, "\n"))
					}
				}
				sdkCheckPartMessages(t, pr, body)
				if m.Provider == projection.Anthropic {
					body = sdkAnthropicNorm(body)
				}
				sdkCheckConversation(t, m.Provider, body, c)
			})
		}
	}

	// prompt_cache_key names the cacheable prefix: the same for every turn of a session, changed by the tools.
	m := sdkModel(t, f.cat, projection.OpenAI)
	var first, late, bare string
	for _, c := range f.cases {
		switch c.name {
		case "tracker+tools":
			late = sdkProject(t, c, m, false).CacheKey
		case "tracker":
			bare = sdkProject(t, c, m, false).CacheKey
		}
	}
	first = sdkProject(t, f.first, m, false).CacheKey
	if first != late || first == bare {
		t.Errorf("prompt_cache_key: turn 1 %q, late turn %q (want equal), without tools %q (want different)", first, late, bare)
	}
}

// sdkCheckPrefixes: each part's Tokens are its text's, counted, and its Prefix the sum of the Tokens so far, which
// the marker checks rely on.
func sdkCheckPrefixes(t *testing.T, pr *projection.Projection) {
	t.Helper()
	counter, err := sdkCounter()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for i, p := range pr.Parts {
		sum += p.Tokens
		if n := counter.Count(p.Text); p.Tokens != n || p.Prefix != sum {
			t.Errorf("part %d: %d tokens, prefix %d; its text counts %d, the parts so far %d", i, p.Tokens, p.Prefix, n, sum)
		}
	}
	if pr.Tokens != sum {
		t.Errorf("Tokens = %d, the parts count %d", pr.Tokens, sum)
	}
}

// sdkCheckMarkerPlaces checks that the body's markers follow exactly the parts marked, each on a prefix that reaches
// the model's minimum.
func sdkCheckMarkerPlaces(t *testing.T, pr *projection.Projection, marked []string) {
	t.Helper()
	paths := sdkPartPaths(pr)
	var want []string
	for _, i := range pr.Markers() {
		p := pr.Parts[i]
		if p.Prefix < pr.Model.Minimum() {
			t.Errorf("marker after part %d (%s) on a prefix of %d tokens, below the minimum %d", i, paths[i], p.Prefix, pr.Model.Minimum())
		}
		if p.Kind == projection.ToolPart {
			t.Errorf("marker after tool part %d", i)
		}
		want = append(want, paths[i])
	}
	sort.Strings(want)
	if !slices.Equal(marked, want) {
		t.Errorf("cache_control at %v, the marked parts are at %v", marked, want)
	}
}

// sdkPartPaths gives each part's place in the body, as sdkMarkers writes it.
func sdkPartPaths(pr *projection.Projection) []string {
	out := make([]string, len(pr.Parts))
	tools, system, block, msg := 0, 0, 0, -1
	for i, p := range pr.Parts {
		switch {
		case p.Kind == projection.ToolPart:
			out[i] = fmt.Sprintf("tools[%d]", tools)
			tools++
		case pr.Model.Provider == projection.Anthropic && p.Kind == projection.SystemPart:
			out[i] = fmt.Sprintf("system[%d]", system)
			system++
		case pr.Model.Provider == projection.Anthropic:
			if p.Message != msg {
				msg, block = p.Message, 0
			}
			out[i] = fmt.Sprintf("messages[%d].content[%d]", p.Message, block)
			block++
		default: // a whole message; a marked one is one text part
			out[i] = fmt.Sprintf("messages[%d].content[0]", p.Message)
		}
	}
	return out
}

// sdkCheckPartMessages: each part's Message is the index of the body's message that holds it, with the part's role.
func sdkCheckPartMessages(t *testing.T, pr *projection.Projection, body map[string]any) {
	t.Helper()
	msgs := sdkList(body["messages"])
	for i, p := range pr.Parts {
		if p.Message < 0 {
			continue
		}
		want := string(p.Role)
		if p.Kind == projection.SystemPart {
			want = "system"
		}
		if p.Message >= len(msgs) {
			t.Errorf("part %d (%s %q) says message %d; the body has %d messages", i, want, sdkCut(p.Text), p.Message, len(msgs))
		} else if role := sdkStr(msgs[p.Message]["role"]); role != want {
			t.Errorf("part %d (%s %q) says message %d, which is the %s's", i, want, sdkCut(p.Text), p.Message, role)
		}
	}
}

// sdkNoEmptyText: the Messages API refuses an empty text block (400 "text content blocks must be non-empty"),
// wherever it is: in the system, a message or a tool result.
func sdkNoEmptyText(t *testing.T, body map[string]any) {
	t.Helper()
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			if text, ok := x["text"].(string); ok && x["type"] == "text" && text == "" {
				t.Errorf("%s is an empty text block, which the Messages API refuses", path)
			}
			for k, e := range x {
				walk(path+"."+k, e)
			}
		case []any:
			for i, e := range x {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		}
	}
	for _, k := range []string{"system", "messages"} {
		walk(k, body[k])
	}
}

// sdkCheckAlternation: Anthropic's messages start with the user's and alternate.
func sdkCheckAlternation(t *testing.T, body map[string]any) {
	t.Helper()
	prev := "assistant"
	for i, m := range body["messages"].([]any) {
		role := m.(map[string]any)["role"].(string)
		if role == prev || (role != "user" && role != "assistant") {
			t.Errorf("messages[%d] has role %s after %s", i, role, prev)
		}
		prev = role
	}
}

// sdkCheckConversation checks that body (as sent, or as built) carries the case's conversation in the provider's
// shape: the runbook as the system text, every message with its role and text, every tool call with its id, name
// and arguments, every tool result with its id, and the tools with their names, descriptions and schemas.
func sdkCheckConversation(t *testing.T, p projection.Provider, body map[string]any, c sdkCase) {
	t.Helper()
	system, lines := sdkTranscript(p, body)
	if system != c.in.Runbook.Text {
		t.Errorf("system text (%d bytes) is not the runbook (%d bytes)", len(system), len(c.in.Runbook.Text))
	}
	var want []string
	for _, m := range c.in.History {
		switch {
		case m.Role == projection.ToolRole:
			want = append(want, "result "+m.ToolCallID+": "+m.Content)
		case m.Content != "":
			want = append(want, string(m.Role)+": "+m.Content)
		}
		for _, tc := range m.ToolCalls {
			want = append(want, "call "+tc.ID+" "+tc.Name+" "+sdkValueOf(tc.Arguments))
		}
	}
	if c.in.Turn != "" {
		want = append(want, "user: "+c.in.Turn)
	}
	if !slices.Equal(lines, want) {
		t.Errorf("%s conversation:\n%s\nwant\n%s", p, sdkShort(lines), sdkShort(want))
	}

	var tools, wantTools []string
	for _, tl := range c.tools {
		wantTools = append(wantTools, tl.Name+" | "+tl.Description+" | "+sdkValueOf(tl.SchemaJSON()))
	}
	list, _ := body["tools"].([]any)
	switch p {
	case projection.Bedrock:
		tc, _ := body["toolConfig"].(map[string]any)
		list = nil
		for _, x := range sdkList(tc["tools"]) {
			if spec, ok := x["toolSpec"].(map[string]any); ok {
				schema, _ := spec["inputSchema"].(map[string]any)
				list = append(list, map[string]any{"name": spec["name"], "description": spec["description"], "input_schema": schema["json"]})
			}
		}
	case projection.Gemini:
		groups := list
		list = nil
		for _, g := range groups {
			for _, x := range sdkList(g.(map[string]any)["functionDeclarations"]) {
				list = append(list, map[string]any{"name": x["name"], "description": x["description"], "input_schema": x["parametersJsonSchema"]})
			}
		}
	}
	for _, x := range list {
		tm := x.(map[string]any)
		schemaKey := "input_schema"
		if p != projection.Anthropic && p != projection.Bedrock && p != projection.Gemini {
			if tm["type"] != "function" {
				t.Errorf("tool of type %v, want function", tm["type"])
			}
			tm, _ = tm["function"].(map[string]any)
			schemaKey = "parameters"
		}
		tools = append(tools, fmt.Sprint(tm["name"])+" | "+fmt.Sprint(tm["description"])+" | "+sdkValue(tm[schemaKey]))
	}
	if !slices.Equal(tools, wantTools) {
		t.Errorf("%s tools:\n%s\nwant\n%s", p, strings.Join(tools, "\n"), strings.Join(wantTools, "\n"))
	}
}

// sdkTranscript reads a body (Anthropic's normalised by sdkAnthropicNorm) as the runbook's text and one line per
// text, tool call and tool result, in order.
func sdkTranscript(p projection.Provider, body map[string]any) (system string, lines []string) {
	if p == projection.Anthropic {
		for _, b := range sdkList(body["system"]) {
			system += sdkStr(b["text"])
		}
		for _, m := range sdkList(body["messages"]) {
			role := sdkStr(m["role"])
			for _, b := range sdkList(m["content"]) {
				switch b["type"] {
				case "text":
					lines = append(lines, role+": "+sdkStr(b["text"]))
				case "tool_use":
					lines = append(lines, "call "+sdkStr(b["id"])+" "+sdkStr(b["name"])+" "+sdkValue(b["input"]))
				case "tool_result":
					lines = append(lines, "result "+sdkStr(b["tool_use_id"])+": "+sdkText(b["content"]))
				default:
					lines = append(lines, role+": block of type "+sdkStr(b["type"]))
				}
			}
		}
		return system, lines
	}
	if p == projection.Bedrock {
		for _, b := range sdkList(body["system"]) {
			system += sdkStr(b["text"])
		}
		for _, m := range sdkList(body["messages"]) {
			role := sdkStr(m["role"])
			for _, b := range sdkList(m["content"]) {
				switch {
				case b["text"] != nil:
					lines = append(lines, role+": "+sdkStr(b["text"]))
				case b["toolUse"] != nil:
					u := b["toolUse"].(map[string]any)
					lines = append(lines, "call "+sdkStr(u["toolUseId"])+" "+sdkStr(u["name"])+" "+sdkValue(u["input"]))
				case b["toolResult"] != nil:
					r := b["toolResult"].(map[string]any)
					text := ""
					for _, c := range sdkList(r["content"]) {
						if c["json"] != nil {
							text += sdkValue(c["json"])
						} else {
							text += sdkStr(c["text"])
						}
					}
					lines = append(lines, "result "+sdkStr(r["toolUseId"])+": "+text)
				case b["cachePoint"] != nil:
				default:
					lines = append(lines, role+": unknown block")
				}
			}
		}
		return system, lines
	}
	if p == projection.Gemini {
		if si, ok := body["systemInstruction"].(map[string]any); ok {
			for _, b := range sdkList(si["parts"]) {
				system += sdkStr(b["text"])
			}
		}
		for _, m := range sdkList(body["contents"]) {
			role := sdkStr(m["role"])
			if role == "model" {
				role = "assistant"
			}
			for _, b := range sdkList(m["parts"]) {
				switch {
				case b["text"] != nil:
					lines = append(lines, role+": "+sdkStr(b["text"]))
				case b["functionCall"] != nil:
					u := b["functionCall"].(map[string]any)
					lines = append(lines, "call "+sdkStr(u["id"])+" "+sdkStr(u["name"])+" "+sdkValue(u["args"]))
				case b["functionResponse"] != nil:
					r := b["functionResponse"].(map[string]any)
					resp, _ := r["response"].(map[string]any)
					text := sdkValue(resp)
					if c, ok := resp["content"].(string); ok && len(resp) == 1 {
						text = c
					}
					lines = append(lines, "result "+sdkStr(r["id"])+": "+text)
				default:
					lines = append(lines, role+": unknown part")
				}
			}
		}
		return system, lines
	}
	for _, m := range sdkList(body["messages"]) {
		role, text := sdkStr(m["role"]), sdkText(m["content"])
		switch role {
		case "system":
			system += text
		case "tool":
			lines = append(lines, "result "+sdkStr(m["tool_call_id"])+": "+text)
		default:
			if text != "" {
				lines = append(lines, role+": "+text)
			}
			for _, c := range sdkList(m["tool_calls"]) {
				fn, _ := c["function"].(map[string]any)
				lines = append(lines, "call "+sdkStr(c["id"])+" "+sdkStr(fn["name"])+" "+sdkValueOf([]byte(sdkStr(fn["arguments"]))))
				if c["type"] != "function" {
					lines = append(lines, "tool call of type "+sdkStr(c["type"]))
				}
			}
		}
	}
	return system, lines
}

// sdkMessages lists an OpenAI-shaped body's messages as role, text and tool calls, whatever the content's form.
func sdkMessages(body map[string]any) []string {
	var out []string
	for _, m := range sdkList(body["messages"]) {
		calls, _ := json.Marshal(m["tool_calls"])
		out = append(out, fmt.Sprintf("%v %v %q %s", m["role"], m["tool_call_id"], sdkText(m["content"]), calls))
	}
	return out
}

// sdkText is a message content's text: a string, or the texts of its parts.
func sdkText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	var text string
	for _, p := range sdkList(v) {
		text += sdkStr(p["text"])
	}
	return text
}

// sdkAnthropicNorm rewrites the shorthand the Messages API defines as equal, which the SDK expands: a message's
// (or a tool result's) content given as a non-empty string is one text block holding it. An empty string is left
// alone: the API refuses an empty text block, so "" and [{"type": "text", "text": ""}] are not the same request.
func sdkAnthropicNorm(body map[string]any) map[string]any {
	block := func(v any) any {
		if s, ok := v.(string); ok && s != "" {
			return []any{map[string]any{"type": "text", "text": s}}
		}
		return v
	}
	for _, m := range sdkList(body["messages"]) {
		if _, ok := m["content"]; ok {
			m["content"] = block(m["content"])
		}
		for _, b := range sdkList(m["content"]) {
			if _, ok := b["content"]; ok && b["type"] == "tool_result" {
				b["content"] = block(b["content"])
			}
		}
	}
	return body
}

// sdkOpenAINorm drops a message's "content": null, which the SDK leaves out: the API reads a missing content as
// null (an assistant message that only calls tools). Nothing else is touched.
func sdkOpenAINorm(body map[string]any) map[string]any {
	for _, m := range sdkList(body["messages"]) {
		if c, ok := m["content"]; ok && c == nil {
			delete(m, "content")
		}
	}
	return body
}

// sdkSame reports every difference between the body built (want) and the body seen (got); got may have the
// top-level fields of added, with their values.
func sdkSame(t *testing.T, what string, want, got map[string]any, added map[string]any) {
	t.Helper()
	var diffs []string
	for k, v := range got {
		if _, ok := want[k]; ok {
			continue
		}
		if dv, ok := added[k]; ok && sdkValue(dv) == sdkValue(v) {
			continue
		}
		diffs = append(diffs, fmt.Sprintf("%s: added %s", k, sdkBrief(v)))
	}
	for k, v := range want {
		sdkDiff(k, v, got[k], &diffs)
	}
	if len(diffs) > 0 {
		sort.Strings(diffs)
		if len(diffs) > 12 {
			diffs = append(diffs[:12], fmt.Sprintf("… and %d more", len(diffs)-12))
		}
		t.Errorf("%s differs from the projected body:\n  %s", what, strings.Join(diffs, "\n  "))
	}
}

func sdkDiff(path string, want, got any, diffs *[]string) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*diffs = append(*diffs, fmt.Sprintf("%s: %s, want an object", path, sdkBrief(got)))
			return
		}
		for k, v := range w {
			if _, ok := g[k]; !ok {
				*diffs = append(*diffs, fmt.Sprintf("%s.%s: lost (was %s)", path, k, sdkBrief(v)))
				continue
			}
			sdkDiff(path+"."+k, v, g[k], diffs)
		}
		for k, v := range g {
			if _, ok := w[k]; !ok {
				*diffs = append(*diffs, fmt.Sprintf("%s.%s: added %s", path, k, sdkBrief(v)))
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			*diffs = append(*diffs, fmt.Sprintf("%s: %s, want %d elements", path, sdkBrief(got), len(w)))
			return
		}
		for i := range w {
			sdkDiff(fmt.Sprintf("%s[%d]", path, i), w[i], g[i], diffs)
		}
	case json.Number:
		g, ok := got.(json.Number)
		if !ok || sdkValue(w) != sdkValue(g) {
			*diffs = append(*diffs, fmt.Sprintf("%s: %s, want %s", path, sdkBrief(got), sdkBrief(want)))
		}
	default:
		if !reflect.DeepEqual(want, got) {
			*diffs = append(*diffs, fmt.Sprintf("%s: %s, want %s", path, sdkBrief(got), sdkBrief(want)))
		}
	}
}

// sdkSameMarkers: the markers are the same, at the same places.
func sdkSameMarkers(t *testing.T, want, got map[string]any) {
	t.Helper()
	if w, g := sdkMarkers(want), sdkMarkers(got); !slices.Equal(w, g) {
		t.Errorf("cache_control markers at %v, the projected body has them at %v", g, w)
	}
}

// sdkMarkers returns the paths of the objects that carry cache_control, sorted; a marker other than
// {"type": "ephemeral"} gets a path that says so, which no expected path matches.
func sdkMarkers(body map[string]any) []string {
	var out []string
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			if cc, ok := x["cache_control"]; ok {
				p := path
				if !reflect.DeepEqual(cc, map[string]any{"type": "ephemeral"}) {
					p += " (not ephemeral: " + sdkBrief(cc) + ")"
				}
				out = append(out, p)
			}
			for k, e := range x {
				if k != "cache_control" {
					walk(path+"."+k, e)
				}
			}
		case []any:
			for i, e := range x {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		}
	}
	for k, v := range body {
		walk(k, v)
	}
	sort.Strings(out)
	return out
}

// sdkStripMarkers returns a copy of body without its cache_control fields.
func sdkStripMarkers(body map[string]any) map[string]any {
	var strip func(v any) any
	strip = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			m := make(map[string]any, len(x))
			for k, e := range x {
				if k != "cache_control" {
					m[k] = strip(e)
				}
			}
			return m
		case []any:
			l := make([]any, len(x))
			for i, e := range x {
				l[i] = strip(e)
			}
			return l
		}
		return v
	}
	return strip(body).(map[string]any)
}

// sdkDecode decodes a body as generic JSON, numbers as written (json.Number), so that sdkDiff compares them
// exactly.
func sdkDecode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var v map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, b)
	}
	return v
}

// sdkValue gives a JSON value as a string that equal values share: keys sorted, numbers by their exact decimal
// value (1e3 and 1000 alike, 12345678901234567890 and 12345678901234567000 not).
func sdkValue(v any) string {
	var norm func(v any) any
	norm = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			m := make(map[string]any, len(x))
			for k, e := range x {
				m[k] = norm(e)
			}
			return m
		case []any:
			l := make([]any, len(x))
			for i, e := range x {
				l[i] = norm(e)
			}
			return l
		case json.Number:
			if r, ok := new(big.Rat).SetString(string(x)); ok {
				return json.RawMessage(r.RatString())
			}
		}
		return v
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(norm(v)); err != nil {
		return "unencodable: " + err.Error()
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// sdkCompact is the body as an SDK sends raw JSON: without insignificant white space and, for the Anthropic SDK,
// with <, > and & escaped (\u003c…) as encoding/json escapes them; nothing else changed.
func sdkCompact(t *testing.T, body []byte, escapeHTML bool) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, body); err != nil {
		t.Fatal(err)
	}
	if !escapeHTML {
		return b.Bytes()
	}
	var e bytes.Buffer
	json.HTMLEscape(&e, b.Bytes())
	return e.Bytes()
}

// sdkValueOf is sdkValue of raw JSON.
func sdkValueOf(raw []byte) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "invalid JSON " + string(raw)
	}
	return sdkValue(v)
}

func sdkList(v any) []map[string]any {
	l, _ := v.([]any)
	out := make([]map[string]any, 0, len(l))
	for _, e := range l {
		m, _ := e.(map[string]any)
		out = append(out, m)
	}
	return out
}

func sdkLen(v any) int {
	l, _ := v.([]any)
	return len(l)
}

func sdkStr(v any) string {
	s, _ := v.(string)
	return s
}

func sdkBrief(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 120 {
		return string(b[:120]) + "…"
	}
	return string(b)
}

func sdkCut(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// sdkShort cuts long lines so that a failing conversation prints readably.
func sdkShort(lines []string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if len(l) > 160 {
			l = l[:160] + fmt.Sprintf("… (%d bytes)", len(l))
		}
		out[i] = l
	}
	return strings.Join(out, "\n")
}
