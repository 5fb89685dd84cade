package projection

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
)

// The bodies of AWS Bedrock's Converse API and of the Gemini API. Both hold a conversation as Anthropic's does
// (alternating user and assistant turns of content blocks, the system apart), so a request is built as Anthropic's
// parts and each block is written in the provider's own shape here.

// nativeBlock is an Anthropic content block in the provider's shape, for counting its tokens.
func (b *builder) nativeBlock(blk contentBlock) any {
	switch b.m.Provider {
	case Bedrock:
		return bedrockContent(blk, nil)
	case Gemini:
		return b.geminiPart(blk)
	}
	return blk
}

type bedrockBody struct {
	System          []bedrockBlock     `json:"system,omitempty"`
	Messages        []bedrockMessage   `json:"messages"`
	ToolConfig      *bedrockToolConfig `json:"toolConfig,omitempty"`
	InferenceConfig bedrockInference   `json:"inferenceConfig"`
}

type bedrockMessage struct {
	Role    Role           `json:"role"`
	Content []bedrockBlock `json:"content"`
}

// bedrockBlock is one Converse content block: a text, a tool use, a tool result, or a cache point.
type bedrockBlock struct {
	Text       *string            `json:"text,omitempty"`
	ToolUse    *bedrockToolUse    `json:"toolUse,omitempty"`
	ToolResult *bedrockToolResult `json:"toolResult,omitempty"`
	CachePoint *bedrockCachePoint `json:"cachePoint,omitempty"`
}

type bedrockCachePoint struct {
	Type string `json:"type"`
	TTL  string `json:"ttl,omitempty"`
}

type bedrockToolUse struct {
	ToolUseID string          `json:"toolUseId"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
}

type bedrockToolResult struct {
	ToolUseID string          `json:"toolUseId"`
	Content   []bedrockResult `json:"content"`
}

// bedrockResult is a tool result's content: a JSON object as json, anything else as text.
type bedrockResult struct {
	Text *string         `json:"text,omitempty"`
	JSON json.RawMessage `json:"json,omitempty"`
}

type bedrockToolConfig struct {
	Tools []json.RawMessage `json:"tools"`
}

// bedrockTool is one entry of toolConfig.tools: a tool's spec, or the cache point that follows the specs.
type bedrockTool struct {
	ToolSpec   *bedrockToolSpec   `json:"toolSpec,omitempty"`
	CachePoint *bedrockCachePoint `json:"cachePoint,omitempty"`
}

type bedrockToolSpec struct {
	Name        string        `json:"name"`
	Description string        `json:"description"`
	InputSchema bedrockSchema `json:"inputSchema"`
}

type bedrockSchema struct {
	JSON json.RawMessage `json:"json"`
}

type bedrockInference struct {
	MaxTokens int `json:"maxTokens"`
}

func cachePoint(t TTL) bedrockBlock {
	cp := &bedrockCachePoint{Type: "default"}
	if t == TTL1h {
		cp.TTL = "1h"
	}
	return bedrockBlock{CachePoint: cp}
}

// markedTools returns the last tool's part when a cache marker follows the tools (placeMarkers), else nil.
func (b *builder) markedTools() *Part {
	n := len(b.toolJSON)
	if n == 0 || n > len(b.parts) || b.parts[n-1].Kind != ToolPart || !b.parts[n-1].Marker || b.mode != CacheExplicit {
		return nil
	}
	return &b.parts[n-1]
}

// bedrockContent is an Anthropic block as a Converse block.
func bedrockContent(blk contentBlock, _ *Part) bedrockBlock {
	switch blk.Type {
	case "tool_use":
		return bedrockBlock{ToolUse: &bedrockToolUse{ToolUseID: blk.ID, Name: blk.Name, Input: blk.Input}}
	case "tool_result":
		r := &bedrockToolResult{ToolUseID: blk.ToolUseID, Content: []bedrockResult{}}
		if blk.Content != nil {
			if c := *blk.Content; len(c) > 0 && c[0] == '{' && json.Valid([]byte(c)) {
				r.Content = append(r.Content, bedrockResult{JSON: json.RawMessage(c)})
			} else {
				r.Content = append(r.Content, bedrockResult{Text: blk.Content})
			}
		}
		return bedrockBlock{ToolResult: r}
	}
	return bedrockBlock{Text: blk.Text}
}

// bedrock writes the Converse body: the model is not in it (the API takes it in the URL, /model/ID/converse).
// A cache marker is a cachePoint block after the part it follows.
func (b *builder) bedrock() bedrockBody {
	body := bedrockBody{InferenceConfig: bedrockInference{MaxTokens: b.opt.MaxTokens}}
	if len(b.toolJSON) > 0 {
		body.ToolConfig = &bedrockToolConfig{Tools: b.toolJSON}
		if t := b.markedTools(); t != nil {
			// The Converse API's tools checkpoint: a tool of its own, {"cachePoint": …}, after the specs it caches.
			cp, _ := blocks.CanonicalJSON(bedrockTool{CachePoint: cachePoint(t.TTL).CachePoint}, "")
			body.ToolConfig.Tools = append(slices.Clip(b.toolJSON), cp)
		}
	}
	for i := range b.parts {
		p := &b.parts[i]
		switch p.Kind {
		case SystemPart:
			text := p.Text
			body.System = append(body.System, bedrockBlock{Text: &text})
			if p.Marker {
				body.System = append(body.System, cachePoint(p.TTL))
			}
		case MessagePart:
			if n := len(body.Messages); n == 0 || n <= p.Message {
				body.Messages = append(body.Messages, bedrockMessage{Role: p.Role})
			}
			m := &body.Messages[len(body.Messages)-1]
			m.Content = append(m.Content, bedrockContent(p.ab, p))
			if p.Marker {
				m.Content = append(m.Content, cachePoint(p.TTL))
			}
		}
	}
	return body
}

type geminiBody struct {
	// CachedContent names the cachedContents resource holding the request's stable prefix (explicit caching).
	CachedContent     string           `json:"cachedContent,omitempty"`
	SystemInstruction *geminiContent   `json:"systemInstruction,omitempty"`
	Contents          []geminiContent  `json:"contents"`
	Tools             []geminiTools    `json:"tools,omitempty"`
	GenerationConfig  geminiGeneration `json:"generationConfig"`
}

// geminiCache is the body of cachedContents.create.
type geminiCache struct {
	Model             string         `json:"model"`
	DisplayName       string         `json:"displayName"`
	SystemInstruction *geminiContent `json:"systemInstruction,omitempty"`
	Tools             []geminiTools  `json:"tools,omitempty"`
	TTL               string         `json:"ttl"`
}

type geminiContent struct {
	Role  string       `json:"role,omitempty"`
	Parts []geminiPart `json:"parts"`
}

type geminiPart struct {
	Text             *string         `json:"text,omitempty"`
	FunctionCall     *geminiCall     `json:"functionCall,omitempty"`
	FunctionResponse *geminiResponse `json:"functionResponse,omitempty"`
}

type geminiCall struct {
	ID   string          `json:"id,omitempty"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

type geminiResponse struct {
	ID       string          `json:"id,omitempty"`
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response"`
}

type geminiTools struct {
	FunctionDeclarations []json.RawMessage `json:"functionDeclarations"`
}

// geminiFunction is a function declaration; its parameters are the tool's JSON Schema as it is
// (parametersJsonSchema), not Gemini's own schema subset.
type geminiFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parametersJsonSchema"`
}

type geminiGeneration struct {
	MaxOutputTokens int `json:"maxOutputTokens"`
}

// geminiPart is an Anthropic block as a Gemini part. A tool's result is a functionResponse naming the function
// the call it answers made; a result that is not a JSON object is wrapped as {"content": text}.
func (b *builder) geminiPart(blk contentBlock) geminiPart {
	switch blk.Type {
	case "tool_use":
		return geminiPart{FunctionCall: &geminiCall{ID: blk.ID, Name: blk.Name, Args: blk.Input}}
	case "tool_result":
		text := ""
		if blk.Content != nil {
			text = *blk.Content
		}
		resp := json.RawMessage(text)
		if len(text) == 0 || text[0] != '{' || !json.Valid(resp) {
			resp, _ = blocks.CanonicalJSON(map[string]string{"content": text}, "")
		}
		return geminiPart{FunctionResponse: &geminiResponse{ID: blk.ToolUseID, Name: b.callNames[blk.ToolUseID], Response: resp}}
	}
	return geminiPart{Text: blk.Text}
}

func geminiRole(r Role) string {
	if r == Assistant {
		return "model"
	}
	return "user"
}

// gemini writes the generateContent body and, for explicit caching, the cachedContents create body: the cache
// holds the tools and the system parts up to the marker (the runbook's stable segments); the generateContent body
// names it and carries the rest of the runbook as the first user content, then the conversation.
func (b *builder) gemini(_ *assemble.Artifact) (geminiBody, *geminiCache) {
	body := geminiBody{GenerationConfig: geminiGeneration{MaxOutputTokens: b.opt.MaxTokens}}
	tools := []geminiTools(nil)
	if len(b.toolJSON) > 0 {
		tools = []geminiTools{{FunctionDeclarations: b.toolJSON}}
	}
	cached := -1 // the last part the cache holds
	for i := range b.parts {
		if b.parts[i].Marker {
			cached = i
		}
	}
	var create *geminiCache
	var rest []geminiPart // system parts after the cache, sent as the first user content
	if cached >= 0 {
		h := sha256.New()
		for i := 0; i <= cached; i++ {
			fmt.Fprintf(h, "%d\x00%s\x00", b.parts[i].Kind, b.parts[i].Text)
		}
		name := "promptc-" + hex.EncodeToString(h.Sum(nil))[:24]
		create = &geminiCache{Model: "models/" + b.m.Name, DisplayName: name, Tools: tools,
			TTL: fmt.Sprintf("%ds", int(b.m.Lifetime(b.ttl).Duration().Seconds()))}
		body.CachedContent = "cachedContents/" + name
	} else {
		body.Tools = tools
	}
	for i := range b.parts {
		p := &b.parts[i]
		switch p.Kind {
		case SystemPart:
			text := p.Text
			switch {
			case i <= cached:
				if create.SystemInstruction == nil {
					create.SystemInstruction = &geminiContent{}
				}
				create.SystemInstruction.Parts = append(create.SystemInstruction.Parts, geminiPart{Text: &text})
			case cached >= 0:
				rest = append(rest, geminiPart{Text: &text})
			default:
				if body.SystemInstruction == nil {
					body.SystemInstruction = &geminiContent{Role: "user"} // as genai's GenerateContent sends it
				}
				body.SystemInstruction.Parts = append(body.SystemInstruction.Parts, geminiPart{Text: &text})
			}
		case MessagePart:
			if n := len(body.Contents); n == 0 || n <= p.Message {
				body.Contents = append(body.Contents, geminiContent{Role: geminiRole(p.Role)})
			}
			c := &body.Contents[len(body.Contents)-1]
			c.Parts = append(c.Parts, b.geminiPart(p.ab))
		}
	}
	if len(rest) > 0 {
		if len(body.Contents) > 0 && body.Contents[0].Role == "user" {
			body.Contents[0].Parts = append(rest, body.Contents[0].Parts...)
		} else {
			body.Contents = append([]geminiContent{{Role: "user", Parts: rest}}, body.Contents...)
		}
	}
	return body, create
}
