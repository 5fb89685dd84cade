package projection_test

// The official SDKs judge the projected bodies: each body is decoded into the SDK's request type, sent by the SDK's
// client to a local server, and what arrives on the wire must be the body promptc built. A body that survives this
// is one a platform can hand to the SDK as it is; a body the SDK rejects or rewrites fails here first.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
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
	"github.com/openai/openai-go/v3"
	ooption "github.com/openai/openai-go/v3/option"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/guard"
	"github.com/promptc/promptc/projection"
)

const sdkTask = "issue"

// sdkHistory is a conversation with tool calls: one call, then a text with two parallel calls, the second
// answered by a JSON result with volatile fields and characters encoders like to escape. It ends with tool results,
// so a request may leave out the turn.
const sdkHistory = `{"role": "user", "content": "Look at NW-142: why do Austrian invoices show 19% VAT?"}
{"role": "assistant", "content": "", "tool_calls": [{"id": "toolu_01", "name": "tracker_issue_view", "arguments": {"id": "NW-142", "comments": true}}]}
{"role": "tool", "tool_call_id": "toolu_01", "content": {"id": "NW-142", "title": "Austrian invoices show 19% VAT", "labels": ["billing", "bug"], "fetched_at": "2026-12-01T10:00:00Z"}}
{"role": "assistant", "content": "The rate table is the likely cause; I will read it and the credit-note code.", "tool_calls": [{"id": "toolu_02", "name": "repo_read", "arguments": {"repo": "northwind/billing", "path": "tax/rates.go"}}, {"id": "toolu_03", "name": "repo_read", "arguments": {"repo": "northwind/billing", "path": "credit/notes.go", "lines": {"from": 1, "to": 40}}}]}
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

var sdkCounter = sync.OnceValues(func() (*guard.Counter, error) { return guard.NewCounter(guard.O200k) })

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
	s, err := projection.FixtureSession(prog, sdkTask, fx)
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
	pr, err := projection.Project(c.in, projection.Options{Model: m, Tools: c.tools, Implicit: implicit, Counter: counter})
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

// wire returns the recorded request body, checking that exactly one request arrived at path.
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

// Top-level fields an SDK may add to the body, with the only value each may have. Empty: neither SDK adds any
// field today (no stream=false); a new one fails the test until it is listed here as a default.
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
			want := sdkAnthropicNorm(sdkDecode(t, pr.Body))

			// a. The SDK's request type holds the whole body.
			var params anthropic.MessageNewParams
			if err := json.Unmarshal(pr.Body, &params); err != nil {
				t.Fatalf("json.Unmarshal into anthropic.MessageNewParams: %v\n%s", err, pr.Body)
			}
			if len(params.System) != sdkLen(want["system"]) || len(params.Messages) != sdkLen(want["messages"]) || len(params.Tools) != len(c.tools) {
				t.Errorf("params: %d system blocks, %d messages, %d tools; body has %d, %d, %d", len(params.System),
					len(params.Messages), len(params.Tools), sdkLen(want["system"]), sdkLen(want["messages"]), len(c.tools))
			}
			for i, tl := range params.Tools {
				if tl.OfTool == nil {
					t.Errorf("tools[%d] decoded as another variant than a custom tool (ToolParam)", i)
				}
			}
			rt, err := json.Marshal(params)
			if err != nil {
				t.Fatal(err)
			}
			sdkSame(t, "MessageNewParams", want, sdkAnthropicNorm(sdkDecode(t, rt)), nil)

			// b. The client sends it.
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
			if v := srv.header.Get("Anthropic-Version"); v == "" {
				t.Errorf("no anthropic-version header")
			}

			// c. What arrived is what promptc built.
			got := sdkAnthropicNorm(sdkDecode(t, wire))
			sdkSame(t, "wire", want, got, sdkAnthropicAdded)
			sdkSameMarkers(t, want, got)
			sdkCheckConversation(t, projection.Anthropic, got, c)
		})
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

			got := sdkSendOpenAI(t, params, "/v1")
			sdkSame(t, "wire", want, got, sdkOpenAIAdded)
			sdkSameMarkers(t, want, got)
			sdkCheckConversation(t, projection.OpenAI, got, c)
		})
	}
}

// TestSDKDashScope: DashScope's bodies are OpenAI's with cache_control inside content parts, which the OpenAI SDK's
// types do not model. Decoded into them, everything but the markers survives; set back on the typed parts as extra
// fields (param.SetExtraFields), the markers go out on the wire where promptc put them.
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
				got := sdkSendOpenAI(t, params, "/compatible-mode/v1")
				sdkSame(t, "wire", want, got, sdkOpenAIAdded)
				sdkSameMarkers(t, want, got)
				sdkCheckConversation(t, projection.DashScope, got, c)
				if n := len(sdkMarkers(got)); implicit && n != 0 {
					t.Errorf("implicit body sent %d markers", n)
				} else if !implicit && n != len(pr.Markers()) {
					t.Errorf("%d markers on the wire, the projection placed %d", n, len(pr.Markers()))
				}
			})
		}
	}
}

// sdkSendOpenAI sends params through the OpenAI client to a local server whose base URL ends in prefix, and
// returns the body that arrived.
func sdkSendOpenAI(t *testing.T, params openai.ChatCompletionNewParams, prefix string) map[string]any {
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
	return sdkOpenAINorm(sdkDecode(t, wire))
}

// sdkCheckOpenAIParams checks that each message and tool decoded into the variant its role and type name.
func sdkCheckOpenAIParams(t *testing.T, params openai.ChatCompletionNewParams, body map[string]any, ntools int) {
	t.Helper()
	msgs, _ := body["messages"].([]any)
	if len(params.Messages) != len(msgs) || len(params.Tools) != ntools {
		t.Fatalf("params: %d messages, %d tools; body has %d, %d", len(params.Messages), len(params.Tools), len(msgs), ntools)
	}
	for i, pm := range params.Messages {
		role := msgs[i].(map[string]any)["role"]
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
	msgs, _ := body["messages"].([]any)
	for i, m := range msgs {
		parts, _ := m.(map[string]any)["content"].([]any)
		for j, p := range parts {
			cc, ok := p.(map[string]any)["cache_control"]
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

// TestSDKRules checks the projected bodies against each provider's cache rules, for every built-in model: markers
// only where the counted prefix reaches the model's minimum, at most the model's (and Anthropic's) limit of four,
// exactly where the parts say; none for OpenAI, which gets prompt_cache_key instead; none for DashScope's implicit
// cache, whose messages are the explicit body's.
func TestSDKRules(t *testing.T) {
	f := sdkSetup(t)
	for _, base := range projection.Models() {
		m, err := f.cat.Model(base.Provider, base.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range f.cases {
			t.Run(m.Provider.String()+"/"+m.Name+"/"+c.name, func(t *testing.T) {
				pr := sdkProject(t, c, m, false)
				body := sdkDecode(t, pr.Body)
				marked := sdkMarkers(body)
				switch m.Provider {
				case projection.Anthropic:
					if len(marked) > 4 || len(marked) > m.MaxBreakpoints {
						t.Errorf("%d cache_control markers: Anthropic takes at most 4 (model: %d)", len(marked), m.MaxBreakpoints)
					}
					sdkCheckMarkerPlaces(t, pr, marked)
					sdkCheckAlternation(t, body)
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
			want = append(want, "call "+tc.ID+" "+tc.Name+" "+sdkCanonical(t, tc.Arguments))
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
		wantTools = append(wantTools, tl.Name+" | "+tl.Description+" | "+sdkCanonical(t, tl.SchemaJSON()))
	}
	list, _ := body["tools"].([]any)
	for _, x := range list {
		tm := x.(map[string]any)
		schemaKey := "input_schema"
		if p != projection.Anthropic {
			if tm["type"] != "function" {
				t.Errorf("tool of type %v, want function", tm["type"])
			}
			tm, _ = tm["function"].(map[string]any)
			schemaKey = "parameters"
		}
		schema, _ := json.Marshal(tm[schemaKey])
		tools = append(tools, fmt.Sprint(tm["name"])+" | "+fmt.Sprint(tm["description"])+" | "+sdkCanonical(t, schema))
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
					args, _ := json.Marshal(b["input"])
					lines = append(lines, "call "+sdkStr(b["id"])+" "+sdkStr(b["name"])+" "+sdkMustCanonical(args))
				case "tool_result":
					var text string
					for _, tb := range sdkList(b["content"]) {
						text += sdkStr(tb["text"])
					}
					lines = append(lines, "result "+sdkStr(b["tool_use_id"])+": "+text)
				default:
					lines = append(lines, role+": block of type "+sdkStr(b["type"]))
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
				lines = append(lines, "call "+sdkStr(c["id"])+" "+sdkStr(fn["name"])+" "+sdkMustCanonical([]byte(sdkStr(fn["arguments"]))))
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

// sdkAnthropicNorm rewrites the shorthands the Messages API defines as equal, which the SDK expands: a message's
// (or a tool result's) content given as a string is one text block holding it. Nothing else is touched.
func sdkAnthropicNorm(body map[string]any) map[string]any {
	block := func(v any) any {
		if s, ok := v.(string); ok {
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
		if dv, ok := added[k]; ok && reflect.DeepEqual(dv, v) {
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

func sdkDecode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, b)
	}
	return v
}

// sdkCanonical gives raw JSON with sorted keys, compact, so that equal values compare equal as strings.
func sdkCanonical(t *testing.T, raw []byte) string {
	t.Helper()
	s, err := projection.Canonical(raw, nil)
	if err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return string(s)
}

func sdkMustCanonical(raw []byte) string {
	s, err := projection.Canonical(raw, nil)
	if err != nil {
		return "invalid JSON " + string(raw)
	}
	return string(s)
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
