package codecs_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/provider"
	"github.com/promptc/promptc/provider/codecs"
)

// runbook renders a runbook of three scopes (global, task, session), so that projection splits it into parts and
// places a marker at each scope step.
func runbook(t *testing.T) *assemble.Artifact {
	t.Helper()
	prog, diags := assemble.Load(fstest.MapFS{
		"promptc.toml": {Data: []byte(`
name  = "roundtrip"
tasks = ["chat"]

[runbook]
order = ["rules", "task", "identity"]

[vars.agent_name]
scope    = "session"
type     = "string"
required = true
`)},
		"blocks/core.toml": {Data: []byte(`
[[block]]
id   = "rules"
body = "Run only the commands listed here."

[[block]]
id    = "task"
tasks = ["chat"]
body  = "Answer in the chat."

[[block]]
id   = "identity"
body = "You are {{.agent_name}}."
`)},
	})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	rb, err := prog.Runbook("chat", blocks.Values{"agent_name": "Ada"})
	if err != nil {
		t.Fatal(err)
	}
	return rb
}

// decode reads a body promptc wrote through p's codec, as miss reads it; a body to send (not Gemini's cachedContents
// create body) must pass the provider's check and be told from its shape as the provider's.
func decode(t *testing.T, p provider.Provider, body []byte, send bool) *provider.Body {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	cd := codecs.For(p)
	if err := cd.Check(doc); send && err != nil {
		t.Fatalf("%s: the body projection wrote fails its own provider's check: %v\n%s", p, err, body)
	}
	if d := codecs.Detect(doc); send && d != p {
		t.Errorf("%s: a body projection wrote is told from its shape as %s's", p, d)
	}
	b := &provider.Body{Provider: p}
	b.Model, _ = doc["model"].(string)
	if err := cd.Decode(doc, b); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return b
}

// TestRequestRoundTrip holds every provider to its request directions: a body projection writes (in every cache
// mode the provider's default model offers, with tools, a tool call and its result) decodes back, through the
// provider's package, to the same parts: the same tools, the runbook as the system text, a marker wherever
// projection placed one, and the turn last.
func TestRequestRoundTrip(t *testing.T) {
	rb := runbook(t)
	tool := &blocks.Tool{Name: "search", Description: "Search the tracker.", Parameters: map[string]any{
		"type": "object", "properties": map[string]any{"query": map[string]any{"type": "string"}}}}
	history := []projection.Message{
		{Role: projection.User, Content: "Find the invoice bug."},
		{Role: projection.Assistant, Content: "Searching.", ToolCalls: []projection.ToolCall{{ID: "call_1", Name: "search", Arguments: json.RawMessage(`{"query":"invoice"}`)}}},
		{Role: projection.ToolRole, ToolCallID: "call_1", Content: `{"issues":["NW-160"]}`},
		{Role: projection.Assistant, Content: "Found NW-160."},
	}
	one := 1
	for _, p := range provider.All() {
		if codecs.For(p) == nil {
			t.Errorf("%s has no codec in provider/codecs", p)
			continue
		}
		def := provider.NewCatalog(nil)
		m0, err := def.Model(p, "")
		if err != nil {
			t.Fatal(err)
		}
		// A minimum of one token: a marker may go on every part the rules allow.
		m, err := provider.NewCatalog([]provider.Row{{Provider: p, Name: m0.Name, MinCacheTokens: &one}}).Model(p, m0.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, mode := range m.Modes {
			t.Run(p.String()+"/"+mode.String(), func(t *testing.T) {
				pr, err := projection.New(projection.Input{Runbook: rb, History: history, Turn: "Close it."},
					projection.Options{Model: m, Tools: []*blocks.Tool{tool}, Cache: mode})
				if err != nil {
					t.Fatal(err)
				}
				b := decode(t, p, pr.Body, true)
				system := b.System()
				var parts []provider.Part
				for _, pt := range b.Parts {
					if pt.Kind != provider.Cached {
						parts = append(parts, pt)
					}
				}
				if pr.CacheBody != nil {
					// Gemini's explicit cache: the cache holds the tools and the runbook's stable parts, the body the
					// rest of the runbook as the first user content's leading parts.
					cache := decode(t, p, pr.CacheBody, false)
					if len(b.Parts) == 0 || b.Parts[0].Kind != provider.Cached || !b.Parts[0].Marker {
						t.Errorf("the body does not name its cache first: %+v", b.Parts)
					}
					rest := strings.TrimPrefix(rb.Text, cache.System())
					if rest == rb.Text || cache.System() == "" {
						t.Errorf("the cache holds %q, not a prefix of the runbook", cache.System())
					}
					got := ""
					for _, pt := range parts {
						if got == rest || pt.Kind != provider.Message {
							break
						}
						got += pt.Text
					}
					if got != rest {
						t.Errorf("the runbook after the cache is %q in the body, want %q", got, rest)
					}
					system = cache.System() + got
					// The body's cachedContent reads the cache whole: its end is the body's one marker.
					cache.Parts[len(cache.Parts)-1].Marker = true
					parts = append(cache.Parts, parts...)
				}
				if system != rb.Text {
					t.Errorf("system text decoded as %q, want the runbook %q", system, rb.Text)
				}
				tools := 0
				for _, pt := range parts {
					if pt.Kind == provider.Tool {
						tools++
						if !strings.Contains(pt.Text, `"search"`) {
							t.Errorf("tool decoded as %s", pt.Text)
						}
					}
				}
				if tools != 1 {
					t.Errorf("%d tools decoded, want 1", tools)
				}
				if last := parts[len(parts)-1]; last.Text != "Close it." {
					t.Errorf("last part %q, want the turn", last.Text)
				}
				if mode != provider.CacheExplicit {
					return
				}
				// Every marker projection placed is read back after a part of the same kind, in the same order.
				var want, got []provider.Region
				for _, i := range pr.Markers() {
					want = append(want, provider.Tool+provider.Region(pr.Parts[i].Kind))
				}
				for _, pt := range parts {
					if pt.Marker {
						got = append(got, pt.Kind)
					}
				}
				if len(want) == 0 || !equal(want, got) {
					t.Errorf("markers after parts of kinds %v, decoded after %v", want, got)
				}
			})
		}
	}
}

func equal(a, b []provider.Region) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// responses are a response fixture per provider, and the counts it holds.
var responses = map[provider.Provider]struct {
	body string
	want provider.Counts
}{
	provider.Anthropic: {`{"id":"msg_1","model":"claude-sonnet-4-5","usage":{"input_tokens":10,"cache_read_input_tokens":100,"cache_creation_input_tokens":20,"cache_creation":{"ephemeral_1h_input_tokens":5},"output_tokens":7}}`,
		provider.Counts{Input: 130, CacheRead: 100, CacheWrite: 20, CacheWrite1h: 5, Output: 7}},
	provider.OpenAI: {`{"id":"chatcmpl-1","model":"gpt-5","usage":{"prompt_tokens":1200,"completion_tokens":9,"prompt_tokens_details":{"cached_tokens":1024}}}`,
		provider.Counts{Input: 1200, CacheRead: 1024, Output: 9}},
	provider.DashScope: {`{"id":"chatcmpl-2","model":"qwen3-max","usage":{"prompt_tokens":3000,"completion_tokens":4,"prompt_tokens_details":{"cached_tokens":1000,"cache_creation_input_tokens":500,"cache_type":"ephemeral"}}}`,
		provider.Counts{Input: 3000, CacheRead: 1000, CacheWrite: 500, Output: 4}},
	provider.Bedrock: {`{"usage":{"inputTokens":10,"outputTokens":3,"cacheReadInputTokens":200,"cacheWriteInputTokens":50}}`,
		provider.Counts{Input: 260, CacheRead: 200, CacheWrite: 50, Output: 3}},
	provider.Gemini: {`{"responseId":"r1","modelVersion":"gemini-2.5-pro","usageMetadata":{"promptTokenCount":5000,"cachedContentTokenCount":4096,"candidatesTokenCount":12,"thoughtsTokenCount":30,"toolUsePromptTokenCount":8}}`,
		provider.Counts{Input: 5008, CacheRead: 4096, Output: 42}},
	provider.DeepSeek: {`{"id":"c3","model":"deepseek-chat","usage":{"prompt_tokens":800,"completion_tokens":5,"prompt_cache_hit_tokens":640,"prompt_cache_miss_tokens":160}}`,
		provider.Counts{Input: 800, CacheRead: 640, Output: 5}},
}

// TestUsageDecoding holds every provider to its response direction: a response fixture of its API is told as its
// own and decodes, through its package, to the counts it holds.
func TestUsageDecoding(t *testing.T) {
	for _, p := range provider.All() {
		tc, ok := responses[p]
		if !ok {
			t.Errorf("%s has no response fixture here: add one", p)
			continue
		}
		var body struct {
			ID, Object, Model, ModelVersion string
			Usage                           *provider.Usage
			UsageMetadata                   *provider.UsageMetadata
		}
		if err := json.Unmarshal([]byte(tc.body), &body); err != nil {
			t.Fatal(err)
		}
		r := provider.Response{Usage: body.Usage, UsageMetadata: body.UsageMetadata}
		got, err := codecs.DetectResponse(&r, body.Model+body.ModelVersion, body.ID, body.Object, false)
		if err != nil || got != p {
			t.Errorf("%s's response told as %s (%v)", p, got, err)
			continue
		}
		c, err := codecs.For(p).Usage(r)
		if err != nil || c != tc.want {
			t.Errorf("%s: counts %+v (%v), want %+v", p, c, err, tc.want)
		}
	}
}
