package gemini

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/promptc/promptc/provider"
)

// The bodies of the Gemini API. It holds a conversation as Anthropic's does (alternating user and model turns of
// parts, the system instruction apart), so each provider-neutral block is written in Gemini's shape here.

// Tool is t as a function declaration.
func Tool(t provider.ToolDef) json.RawMessage {
	js, _ := provider.CanonicalJSON(geminiFunction{Name: t.Name, Description: t.Description, Parameters: t.Schema}, "")
	return js
}

// Text is c's Gemini part as JSON.
func Text(c provider.Content) string {
	js, _ := provider.CanonicalJSON(part(c, nil), "")
	return string(js)
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

// part is a block as a Gemini part. A tool's result is a functionResponse naming the function the call it answers
// made (callNames: the calls' names by id); a result that is not a JSON object is wrapped as {"content": text}.
func part(blk provider.Content, callNames map[string]string) geminiPart {
	switch blk.Type {
	case "tool_use":
		return geminiPart{FunctionCall: &geminiCall{ID: blk.ID, Name: blk.Name, Args: blk.Input}}
	case "tool_result":
		text := ""
		if blk.Text != nil {
			text = *blk.Text
		}
		resp := json.RawMessage(text)
		if len(text) == 0 || text[0] != '{' || !json.Valid(resp) {
			resp, _ = provider.CanonicalJSON(map[string]string{"content": text}, "")
		}
		return geminiPart{FunctionResponse: &geminiResponse{ID: blk.ToolUseID, Name: callNames[blk.ToolUseID], Response: resp}}
	}
	return geminiPart{Text: blk.Text}
}

func geminiRole(r provider.Role) string {
	if r == "assistant" {
		return "model"
	}
	return "user"
}

// Encode writes the generateContent body and, for explicit caching, the cachedContents create body: the cache
// holds the tools and the system parts up to the marker (the runbook's stable segments); the generateContent body
// names it and carries the rest of the runbook as the first user content, then the conversation.
func Encode(l *provider.Layout) (any, any) {
	body, create := encode(l)
	if create == nil {
		return body, nil
	}
	return body, create
}

func encode(l *provider.Layout) (geminiBody, *geminiCache) {
	body := geminiBody{GenerationConfig: geminiGeneration{MaxOutputTokens: l.MaxTokens}}
	callNames := map[string]string{}
	for _, p := range l.Units {
		if p.Content.Type == provider.ToolUseBlock {
			callNames[p.Content.ID] = p.Content.Name
		}
	}
	tools := []geminiTools(nil)
	if len(l.ToolJSON) > 0 {
		tools = []geminiTools{{FunctionDeclarations: l.ToolJSON}}
	}
	cached := -1 // the last part the cache holds
	for i := range l.Units {
		if l.Units[i].Marker {
			cached = i
		}
	}
	var create *geminiCache
	var rest []geminiPart // system parts after the cache, sent as the first user content
	if cached >= 0 {
		h := sha256.New()
		for i := 0; i <= cached; i++ {
			// The kind as projection numbers its parts: tool 0, system 1, message 2.
			fmt.Fprintf(h, "%d\x00%s\x00", l.Units[i].Kind-provider.Tool, l.Units[i].Text)
		}
		name := "promptc-" + hex.EncodeToString(h.Sum(nil))[:24]
		create = &geminiCache{Model: "models/" + l.Model.Name, DisplayName: name, Tools: tools,
			TTL: fmt.Sprintf("%ds", int(l.Model.Lifetime(l.TTL).Duration().Seconds()))}
		body.CachedContent = "cachedContents/" + name
	} else {
		body.Tools = tools
	}
	for i := range l.Units {
		p := &l.Units[i]
		switch p.Kind {
		case provider.System:
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
		case provider.Message:
			if n := len(body.Contents); n == 0 || n <= p.Message {
				body.Contents = append(body.Contents, geminiContent{Role: geminiRole(p.Role)})
			}
			c := &body.Contents[len(body.Contents)-1]
			c.Parts = append(c.Parts, part(p.Content, callNames))
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
