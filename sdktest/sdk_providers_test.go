package sdktest_test

// The providers added after Anthropic, OpenAI and DashScope, judged by their official Go SDKs as sdk_test.go judges
// those: the body decoded into the SDK's request types, sent by the SDK's client to a local server, and what arrives
// compared field by field with what promptc built (as decoded JSON, numbers by exact value).
//
//   - DeepSeek's OpenAI-compatible body and OpenAI's new fields (prompt_cache_retention, prompt_cache_breakpoint,
//     prompt_cache_options): openai-go, which models them all;
//   - Bedrock's Converse body: aws-sdk-go-v2's bedrockruntime, whose unions are filled from the JSON by hand
//     (sdkConverseInput) since its types do not decode JSON;
//   - Gemini's generateContent and cachedContents bodies: google.golang.org/genai, whose types decode the REST JSON.

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	bdoc "github.com/aws/aws-sdk-go-v2/service/bedrockruntime/document"
	btypes "github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"
	"github.com/openai/openai-go/v3"
	"google.golang.org/genai"

	"github.com/promptc/promptc/projection"
)

func sdkProjectWith(t *testing.T, c sdkCase, opt projection.Options) *projection.Projection {
	t.Helper()
	counter, err := sdkCounter()
	if err != nil {
		t.Fatal(err)
	}
	opt.Tools, opt.Counter = c.tools, counter
	pr, err := projection.New(c.in, opt)
	if err != nil {
		t.Fatalf("%s: Project: %v", c.name, err)
	}
	return pr
}

// TestSDKDeepSeek: DeepSeek's body is OpenAI's without prompt_cache_key or markers; openai-go sends it unchanged.
func TestSDKDeepSeek(t *testing.T) {
	f := sdkSetup(t)
	m := sdkModel(t, f.cat, projection.DeepSeek)
	for _, c := range f.cases {
		t.Run(c.name, func(t *testing.T) {
			pr := sdkProjectWith(t, c, projection.Options{Model: m})
			want := sdkOpenAINorm(sdkDecode(t, pr.Body))
			if _, ok := want["prompt_cache_key"]; ok || strings.Contains(string(pr.Body), "cache_control") {
				t.Errorf("DeepSeek body carries OpenAI's or DashScope's cache fields")
			}
			var params openai.ChatCompletionNewParams
			if err := json.Unmarshal(pr.Body, &params); err != nil {
				t.Fatalf("json.Unmarshal into openai.ChatCompletionNewParams: %v", err)
			}
			sdkCheckOpenAIParams(t, params, want, len(c.tools))
			got := sdkOpenAINorm(sdkDecode(t, sdkSendOpenAI(t, params, "/v1")))
			sdkSame(t, "wire", want, got, sdkOpenAIAdded)
			sdkCheckConversation(t, projection.DeepSeek, got, c)
		})
	}
}

// TestSDKOpenAICacheFields: GPT-5.6's explicit breakpoints (one system message whose segments are text parts, the
// markers as prompt_cache_breakpoint, the implicit breakpoint turned off by prompt_cache_options) and the 24h
// retention survive openai-go's types and client.
func TestSDKOpenAICacheFields(t *testing.T) {
	f := sdkSetup(t)
	m56, err := f.cat.Model(projection.OpenAI, "gpt-5.6")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range f.cases {
		for _, tc := range []struct {
			name string
			opt  projection.Options
		}{
			{"explicit", projection.Options{Model: m56, Cache: projection.CacheExplicit}},
			{"explicit-30m", projection.Options{Model: m56, Cache: projection.CacheExplicit, TTL: projection.TTL30m}},
			{"24h", projection.Options{Model: sdkModel(t, f.cat, projection.OpenAI), TTL: projection.TTL24h}},
		} {
			t.Run(c.name+"/"+tc.name, func(t *testing.T) {
				pr := sdkProjectWith(t, c, tc.opt)
				sdkCheckOpenAI(t, c, pr)
				got := sdkDecode(t, pr.Body)
				if tc.opt.Cache == projection.CacheExplicit {
					opts, _ := got["prompt_cache_options"].(map[string]any)
					if opts["mode"] != "explicit" {
						t.Errorf("prompt_cache_options %v, want mode explicit", opts)
					}
					if n := strings.Count(string(pr.Body), `"prompt_cache_breakpoint"`); n != len(pr.Markers()) || n > 4 {
						t.Errorf("%d breakpoints in the body, %d markers placed (at most 4)", n, len(pr.Markers()))
					}
					for _, i := range pr.Markers() {
						if p := pr.Parts[i]; p.Kind == projection.MessagePart && p.Role != projection.User {
							t.Errorf("breakpoint on a %s message: OpenAI takes them on user content", p.Role)
						}
					}
				} else if got["prompt_cache_retention"] != "24h" {
					t.Errorf("prompt_cache_retention %v, want 24h", got["prompt_cache_retention"])
				}
			})
		}
	}
}

// TestSDKAnthropicCacheModes: the 1h lifetime (on the system's markers, the history's left at 5m) and automatic
// caching's top-level cache_control go through anthropic-sdk-go as built.
func TestSDKAnthropicCacheModes(t *testing.T) {
	f := sdkSetup(t)
	m := sdkModel(t, f.cat, projection.Anthropic)
	for _, c := range f.cases {
		t.Run(c.name+"/1h", func(t *testing.T) {
			pr := sdkProjectWith(t, c, projection.Options{Model: m, TTL: projection.TTL1h})
			sdkCheckAnthropic(t, c, pr)
			for _, i := range pr.Markers() {
				if p := pr.Parts[i]; (p.TTL == projection.TTL1h) != (p.Kind == projection.SystemPart) {
					t.Errorf("marker after a %v part with lifetime %v: 1h on the system's, 5m on the history's", p.Kind, p.TTL)
				}
			}
			if strings.Count(string(pr.Body), `"ttl": "1h"`) == 0 && len(pr.Markers()) > 0 {
				t.Errorf("no 1h marker in the body")
			}
		})
		t.Run(c.name+"/automatic", func(t *testing.T) {
			pr := sdkProjectWith(t, c, projection.Options{Model: m, Cache: projection.CacheAutomatic})
			sdkCheckAnthropic(t, c, pr)
			body := sdkDecode(t, pr.Body)
			if _, ok := body["cache_control"]; !ok {
				t.Errorf("automatic caching without a top-level cache_control")
			}
			if n := strings.Count(string(pr.Body), "cache_control"); n != 1 {
				t.Errorf("%d cache_control in the body, want the one top-level", n)
			}
		})
	}
}

const sdkBedrockReply = `{"output": {"message": {"role": "assistant", "content": [{"text": "ok"}]}}, "stopReason": "end_turn",
 "usage": {"inputTokens": 12, "outputTokens": 1, "totalTokens": 13}, "metrics": {"latencyMs": 1}}`

// TestSDKBedrock: every Converse body, explicit and simplified (automatic), 5m and 1h, fills bedrockruntime's
// ConverseInput, and client.Converse sends what promptc built.
func TestSDKBedrock(t *testing.T) {
	f := sdkSetup(t)
	for _, name := range []string{"anthropic.claude-sonnet-4-5-20250929-v1:0", "amazon.nova-pro-v1:0"} {
		m, err := f.cat.Model(projection.Bedrock, name)
		if err != nil {
			t.Fatal(err)
		}
		opts := []projection.Options{{Model: m}}
		if m.Supports(projection.CacheAutomatic) {
			opts = append(opts, projection.Options{Model: m, TTL: projection.TTL1h}, projection.Options{Model: m, Cache: projection.CacheAutomatic})
		}
		for _, c := range f.cases {
			for _, opt := range opts {
				t.Run(name+"/"+c.name+"/"+opt.Cache.String()+"/"+opt.TTL.String(), func(t *testing.T) {
					pr := sdkProjectWith(t, c, opt)
					want := sdkDecode(t, pr.Body)
					in := sdkConverseInput(t, want)
					in.ModelId = aws.String(m.Name)
					srv := newSDKServer(t, sdkBedrockReply)
					client := bedrockruntime.New(bedrockruntime.Options{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL),
						Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
							return aws.Credentials{AccessKeyID: "AKIDSDKTEST", SecretAccessKey: "sdk-test-secret"}, nil
						}), AuthSchemePreference: []string{"sigv4"}, HTTPClient: srv.Client()})
					if _, err := client.Converse(sdkContext(t), in); err != nil {
						t.Fatalf("Converse: %v", err)
					}
					got := sdkDecode(t, srv.wire(t, "/model/"+url.PathEscape(m.Name)+"/converse"))
					sdkSame(t, "wire", want, got, nil)
					sdkCheckConversation(t, projection.Bedrock, got, c)
					if n := strings.Count(string(pr.Body), `"cachePoint"`); n != len(pr.Markers()) || n > 4 {
						t.Errorf("%d cachePoints, %d markers (at most 4)", n, len(pr.Markers()))
					}
				})
			}
		}
	}
}

// TestSDKToolCachePoint: the tools' own checkpoint (a cachePoint entry closing Bedrock's toolConfig.tools, a
// cache_control on Anthropic's last tool) fills the SDKs' request types, ToolMemberCachePoint for Bedrock, and goes
// out as built. The rows' minimum is lowered so that the tools alone reach it; turn 1 has no history, so a
// breakpoint is left for them.
func TestSDKToolCachePoint(t *testing.T) {
	f := sdkSetup(t)
	c := sdkCase{name: "turn-1+tools", in: f.first.in, tools: sdkHandTools()}
	for _, p := range []projection.Provider{projection.Bedrock, projection.Anthropic} {
		for _, ttl := range []projection.TTL{projection.TTLDefault, projection.TTL1h} {
			t.Run(p.String()+"/"+ttl.String(), func(t *testing.T) {
				m := sdkModel(t, f.cat, p)
				m.MinCacheTokens, m.Safety = 1, 1
				pr := sdkProjectWith(t, c, projection.Options{Model: m, TTL: ttl})
				marks := pr.Markers()
				if len(marks) == 0 || pr.Parts[marks[0]].Kind != projection.ToolPart || marks[0] != len(c.tools)-1 {
					t.Fatalf("no marker after the last tool: markers at %v", marks)
				}
				if p == projection.Anthropic {
					sdkCheckAnthropic(t, c, pr)
					return
				}
				want := sdkDecode(t, pr.Body)
				in := sdkConverseInput(t, want)
				tools := in.ToolConfig.Tools
				if len(tools) != len(c.tools)+1 {
					t.Fatalf("%d entries in toolConfig.tools, want %d specs and a cache point", len(tools), len(c.tools))
				}
				last, ok := tools[len(tools)-1].(*btypes.ToolMemberCachePoint)
				if !ok || last.Value.Type != btypes.CachePointTypeDefault {
					t.Fatalf("toolConfig.tools ends with %T, want a default ToolMemberCachePoint", tools[len(tools)-1])
				}
				if wantTTL := map[bool]btypes.CacheTTL{true: "1h", false: ""}[ttl == projection.TTL1h]; last.Value.Ttl != wantTTL {
					t.Errorf("tools cache point ttl %q, want %q", last.Value.Ttl, wantTTL)
				}
				in.ModelId = aws.String(m.Name)
				srv := newSDKServer(t, sdkBedrockReply)
				client := bedrockruntime.New(bedrockruntime.Options{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL),
					Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
						return aws.Credentials{AccessKeyID: "AKIDSDKTEST", SecretAccessKey: "sdk-test-secret"}, nil
					}), AuthSchemePreference: []string{"sigv4"}, HTTPClient: srv.Client()})
				if _, err := client.Converse(sdkContext(t), in); err != nil {
					t.Fatalf("Converse: %v", err)
				}
				got := sdkDecode(t, srv.wire(t, "/model/"+url.PathEscape(m.Name)+"/converse"))
				sdkSame(t, "wire", want, got, nil)
				if n := strings.Count(string(pr.Body), `"cachePoint"`); n != len(marks) || n > 4 {
					t.Errorf("%d cachePoints, %d markers (at most 4)", n, len(marks))
				}
			})
		}
	}
}

// sdkConverseInput fills a ConverseInput from a Converse body's JSON.
func sdkConverseInput(t *testing.T, body map[string]any) *bedrockruntime.ConverseInput {
	t.Helper()
	cp := func(x any) *btypes.CachePointBlock {
		m := x.(map[string]any)
		b := &btypes.CachePointBlock{Type: btypes.CachePointType(sdkStr(m["type"]))}
		if ttl, ok := m["ttl"]; ok {
			b.Ttl = btypes.CacheTTL(sdkStr(ttl))
		}
		return b
	}
	in := &bedrockruntime.ConverseInput{}
	for _, b := range sdkList(body["system"]) {
		switch {
		case b["text"] != nil:
			in.System = append(in.System, &btypes.SystemContentBlockMemberText{Value: sdkStr(b["text"])})
		case b["cachePoint"] != nil:
			in.System = append(in.System, &btypes.SystemContentBlockMemberCachePoint{Value: *cp(b["cachePoint"])})
		default:
			t.Fatalf("system block %v", b)
		}
	}
	for _, m := range sdkList(body["messages"]) {
		msg := btypes.Message{Role: btypes.ConversationRole(sdkStr(m["role"]))}
		for _, b := range sdkList(m["content"]) {
			switch {
			case b["text"] != nil:
				msg.Content = append(msg.Content, &btypes.ContentBlockMemberText{Value: sdkStr(b["text"])})
			case b["cachePoint"] != nil:
				msg.Content = append(msg.Content, &btypes.ContentBlockMemberCachePoint{Value: *cp(b["cachePoint"])})
			case b["toolUse"] != nil:
				u := b["toolUse"].(map[string]any)
				msg.Content = append(msg.Content, &btypes.ContentBlockMemberToolUse{Value: btypes.ToolUseBlock{
					ToolUseId: aws.String(sdkStr(u["toolUseId"])), Name: aws.String(sdkStr(u["name"])), Input: bdoc.NewLazyDocument(sdkPlain(u["input"]))}})
			case b["toolResult"] != nil:
				r := b["toolResult"].(map[string]any)
				res := btypes.ToolResultBlock{ToolUseId: aws.String(sdkStr(r["toolUseId"])), Content: []btypes.ToolResultContentBlock{}}
				for _, c := range sdkList(r["content"]) {
					if c["json"] != nil {
						res.Content = append(res.Content, &btypes.ToolResultContentBlockMemberJson{Value: bdoc.NewLazyDocument(sdkPlain(c["json"]))})
					} else {
						res.Content = append(res.Content, &btypes.ToolResultContentBlockMemberText{Value: sdkStr(c["text"])})
					}
				}
				msg.Content = append(msg.Content, &btypes.ContentBlockMemberToolResult{Value: res})
			default:
				t.Fatalf("content block %v", b)
			}
		}
		in.Messages = append(in.Messages, msg)
	}
	if tc, ok := body["toolConfig"].(map[string]any); ok {
		in.ToolConfig = &btypes.ToolConfiguration{}
		for _, x := range sdkList(tc["tools"]) {
			if x["cachePoint"] != nil {
				in.ToolConfig.Tools = append(in.ToolConfig.Tools, &btypes.ToolMemberCachePoint{Value: *cp(x["cachePoint"])})
				continue
			}
			spec := x["toolSpec"].(map[string]any)
			schema := spec["inputSchema"].(map[string]any)
			in.ToolConfig.Tools = append(in.ToolConfig.Tools, &btypes.ToolMemberToolSpec{Value: btypes.ToolSpecification{
				Name: aws.String(sdkStr(spec["name"])), Description: aws.String(sdkStr(spec["description"])),
				InputSchema: &btypes.ToolInputSchemaMemberJson{Value: bdoc.NewLazyDocument(sdkPlain(schema["json"]))}}})
		}
	}
	if ic, ok := body["inferenceConfig"].(map[string]any); ok {
		n, err := ic["maxTokens"].(json.Number).Int64()
		if err != nil {
			t.Fatal(err)
		}
		in.InferenceConfig = &btypes.InferenceConfiguration{MaxTokens: aws.Int32(int32(n))}
	}
	return in
}

// sdkPlain turns a value decoded with json.Number into plain Go values (float64 numbers, exact for the integers
// and short decimals the tests hold), as the SDK's document encoder takes them.
func sdkPlain(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = sdkPlain(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = sdkPlain(e)
		}
		return l
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	}
	return v
}

const (
	sdkGeminiReply = `{"candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP", "index": 0}],
 "usageMetadata": {"promptTokenCount": 12, "candidatesTokenCount": 1, "totalTokenCount": 13}}`
	sdkGeminiCacheReply = `{"name": "cachedContents/abc123", "model": "models/gemini-2.5-flash", "displayName": "x",
 "createTime": "2026-12-01T10:00:00Z", "updateTime": "2026-12-01T10:00:00Z", "expireTime": "2026-12-01T11:00:00Z",
 "usageMetadata": {"totalTokenCount": 2000}}`
)

// TestSDKGemini: the generateContent body (implicit caching) decodes into genai's Content and
// GenerateContentConfig and Models.GenerateContent sends it as built; with explicit caching, the cachedContents body
// goes out through Caches.Create, and the generateContent body names it.
func TestSDKGemini(t *testing.T) {
	f := sdkSetup(t)
	m := sdkModel(t, f.cat, projection.Gemini)
	for _, c := range f.cases {
		for _, mode := range []projection.CacheMode{projection.CacheImplicit, projection.CacheExplicit} {
			t.Run(c.name+"/"+mode.String(), func(t *testing.T) {
				pr := sdkProjectWith(t, c, projection.Options{Model: m, Cache: mode})
				want := sdkDecode(t, pr.Body)
				var contents []*genai.Content
				sdkRedecode(t, want["contents"], &contents)
				cfg := &genai.GenerateContentConfig{CachedContent: sdkStr(want["cachedContent"])}
				if si, ok := want["systemInstruction"]; ok {
					sdkRedecode(t, si, &cfg.SystemInstruction)
				}
				if tl, ok := want["tools"]; ok {
					sdkRedecode(t, tl, &cfg.Tools)
				}
				gc := want["generationConfig"].(map[string]any)
				n, _ := gc["maxOutputTokens"].(json.Number).Int64()
				cfg.MaxOutputTokens = int32(n)

				srv := newSDKServer(t, sdkGeminiReply)
				client := sdkGeminiClient(t, srv)
				if _, err := client.Models.GenerateContent(sdkContext(t), m.Name, contents, cfg); err != nil {
					t.Fatalf("GenerateContent: %v", err)
				}
				got := sdkDecode(t, srv.wire(t, "/v1beta/models/"+m.Name+":generateContent"))
				sdkSame(t, "wire", want, got, nil)

				if mode == projection.CacheImplicit {
					if pr.CacheBody != nil || want["cachedContent"] != nil {
						t.Errorf("implicit caching with a cachedContents body")
					}
					sdkCheckConversation(t, projection.Gemini, got, c)
					return
				}
				if pr.CacheBody == nil {
					if len(pr.Markers()) == 0 {
						return // too short to cache
					}
					t.Fatal("explicit caching without a cachedContents body")
				}
				cache := sdkDecode(t, pr.CacheBody)
				cc := &genai.CreateCachedContentConfig{DisplayName: sdkStr(cache["displayName"])}
				ttl, err := time.ParseDuration(sdkStr(cache["ttl"]))
				if err != nil {
					t.Fatalf("ttl %v: %v", cache["ttl"], err)
				}
				cc.TTL = ttl
				sdkRedecode(t, cache["systemInstruction"], &cc.SystemInstruction)
				if tl, ok := cache["tools"]; ok {
					sdkRedecode(t, tl, &cc.Tools)
				}
				csrv := newSDKServer(t, sdkGeminiCacheReply)
				if _, err := sdkGeminiClient(t, csrv).Caches.Create(sdkContext(t), m.Name, cc); err != nil {
					t.Fatalf("Caches.Create: %v", err)
				}
				sdkSame(t, "cachedContents wire", cache, sdkDecode(t, csrv.wire(t, "/v1beta/cachedContents")), nil)
				if !strings.HasSuffix(sdkStr(want["cachedContent"]), sdkStr(cache["displayName"])) {
					t.Errorf("generateContent names %v, the cache is %v", want["cachedContent"], cache["displayName"])
				}
				if _, ok := want["tools"]; ok {
					t.Errorf("tools in generateContent beside a cachedContent: the cache holds them")
				}
				// The runbook is the cache's system instruction followed by the rest, sent first in contents.
				var sys string
				for _, p := range sdkList(cache["systemInstruction"].(map[string]any)["parts"]) {
					sys += sdkStr(p["text"])
				}
				for _, p := range sdkList(sdkList(want["contents"])[0]["parts"]) {
					if len(sys) >= len(c.in.Runbook.Text) || p["text"] == nil {
						break
					}
					sys += sdkStr(p["text"])
				}
				if sys != c.in.Runbook.Text {
					t.Errorf("cache and contents hold %d bytes of the runbook's %d", len(sys), len(c.in.Runbook.Text))
				}
			})
		}
	}
}

func sdkGeminiClient(t *testing.T, srv *sdkServer) *genai.Client {
	t.Helper()
	client, err := genai.NewClient(sdkContext(t), &genai.ClientConfig{APIKey: "sdk-test-key", Backend: genai.BackendGeminiAPI,
		HTTPClient: srv.Client(), HTTPOptions: genai.HTTPOptions{BaseURL: srv.URL}})
	if err != nil {
		t.Fatal(err)
	}
	return client
}

// sdkRedecode turns a decoded JSON value into the SDK type dst through its JSON.
func sdkRedecode(t *testing.T, v any, dst any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, dst); err != nil {
		t.Fatalf("json.Unmarshal into %T: %v\n%s", dst, err, b)
	}
}
