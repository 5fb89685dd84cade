package miss

import (
	"fmt"
	"slices"
)

// A body miss compares must be a request of its provider: a values file, a response, or another API's request read
// under the wrong --provider has parts too (none, or the wrong ones), and comparing them says "B extends A" of two
// things no provider would cache. shapeError checks what each API requires and what belongs to another API only; it
// does not check every field (the APIs add fields often), only enough that no body of one API passes for another's
// and no JSON that is no request passes at all.

// apiName names the API a body of provider is for, as an error says what was expected.
func apiName(provider string, responses bool) string {
	switch provider {
	case "anthropic":
		return "an Anthropic Messages request"
	case "bedrock":
		return "a Bedrock Converse request"
	case "gemini":
		return "a Gemini generateContent request"
	case "dashscope":
		return "a DashScope (OpenAI-compatible) request"
	case "deepseek":
		return "a DeepSeek (OpenAI-compatible) request"
	}
	if responses {
		return "an OpenAI Responses request"
	}
	return "an OpenAI Chat Completions request"
}

// isResponses tells an OpenAI Responses body from a Chat Completions one.
func isResponses(doc map[string]any) bool {
	_, ok := doc["messages"]
	return !ok && (doc["input"] != nil || doc["instructions"] != nil)
}

// foreign are top-level keys of one API's requests only, and whose they are.
var foreign = []struct{ key, owner string }{
	{"contents", "gemini"}, {"systemInstruction", "gemini"}, {"cachedContent", "gemini"}, {"generationConfig", "gemini"},
	{"inferenceConfig", "bedrock"}, {"additionalModelRequestFields", "bedrock"},
	{"input", "responses"}, {"instructions", "responses"},
}

// ownerName names the API a foreign key belongs to.
var ownerName = map[string]string{"gemini": "Gemini's", "bedrock": "Bedrock Converse's", "responses": "the OpenAI Responses API's"}

// shapeError says why doc is not a request body of provider, or returns nil when it is one.
func shapeError(doc map[string]any, provider string) error {
	responses := (provider == "openai" || provider == "dashscope" || provider == "deepseek") && isResponses(doc)
	api := apiName(provider, responses)
	fail := func(format string, args ...any) error {
		return fmt.Errorf("not %s body: %s", api, fmt.Sprintf(format, args...))
	}
	own := provider
	switch {
	case responses:
		own = "responses"
	case provider == "dashscope" || provider == "deepseek":
		own = "openai"
	}
	for _, f := range foreign {
		if _, ok := doc[f.key]; ok && f.owner != own {
			return fail("%q is %s", f.key, ownerName[f.owner])
		}
	}
	switch own {
	case "anthropic", "openai", "responses":
		if m, _ := doc["model"].(string); m == "" {
			return fail("it names no \"model\"")
		}
	}
	switch own {
	case "anthropic":
		if _, ok := doc["toolConfig"]; ok {
			return fail("\"toolConfig\" is Bedrock Converse's or Gemini's")
		}
		if err := textOrBlocks(doc["system"], "\"system\""); err != nil {
			return fail("%v", err)
		}
		return messagesError(doc["messages"], fail, messageRules{roles: []string{"user", "assistant"}, typed: true, others: openAIOnly, othersAPI: "OpenAI's"})
	case "openai":
		if _, ok := doc["system"]; ok {
			return fail("a top-level \"system\" is Anthropic's and Bedrock Converse's: this API's system prompt is a system message")
		}
		if _, ok := doc["toolConfig"]; ok {
			return fail("\"toolConfig\" is Bedrock Converse's or Gemini's")
		}
		return messagesError(doc["messages"], fail, messageRules{roles: []string{"system", "developer", "user", "assistant", "tool", "function"},
			typed: true, null: true, others: anthropicOnly, othersAPI: "Anthropic's"})
	case "responses":
		if _, ok := doc["system"]; ok {
			return fail("a top-level \"system\" is Anthropic's and Bedrock Converse's: this API's system prompt is \"instructions\"")
		}
		return nil
	case "bedrock":
		_, hasMsgs := doc["messages"]
		_, hasSys := doc["system"]
		if !hasMsgs && !hasSys {
			return fail("it has neither \"messages\" nor \"system\"")
		}
		if sys, ok := doc["system"]; ok {
			if err := untypedBlocks(sys, "\"system\""); err != nil {
				return fail("%v", err)
			}
		}
		if !hasMsgs {
			return nil
		}
		return messagesError(doc["messages"], fail, messageRules{roles: []string{"user", "assistant"}})
	}
	// gemini
	for _, k := range []string{"messages", "system"} {
		if _, ok := doc[k]; ok {
			return fail("%q is not Gemini's: its request holds \"contents\" and \"systemInstruction\"", k)
		}
	}
	contents, ok := doc["contents"].([]any)
	if !ok {
		return fail("it has no \"contents\" array")
	}
	for i, c := range contents {
		m, ok := c.(map[string]any)
		if !ok {
			return fail("content %d is not an object", i+1)
		}
		if role, ok := m["role"]; ok {
			if r, _ := role.(string); !slices.Contains([]string{"user", "model", "function"}, r) {
				return fail("content %d's role is %s: Gemini's roles are user and model", i+1, describe(role))
			}
		}
		if err := objects(m["parts"], fmt.Sprintf("content %d's \"parts\"", i+1)); err != nil {
			return fail("%v", err)
		}
	}
	if si, ok := doc["systemInstruction"]; ok {
		m, ok := si.(map[string]any)
		if !ok {
			return fail("\"systemInstruction\" is not an object")
		}
		if err := objects(m["parts"], "\"systemInstruction\"'s \"parts\""); err != nil {
			return fail("%v", err)
		}
	}
	return nil
}

// Content block types of one family of APIs only.
var (
	anthropicOnly = []string{"tool_use", "tool_result", "image", "document", "thinking", "redacted_thinking", "server_tool_use", "search_result"}
	openAIOnly    = []string{"image_url", "input_audio", "file", "refusal", "input_text", "output_text", "input_image", "input_file"}
)

// messageRules are what an API's messages hold.
type messageRules struct {
	roles []string
	// typed: a content block has a "type" (Anthropic, OpenAI), which is then none of others; and a content may be a
	// string. Otherwise content is an array of blocks named by their key (Converse).
	typed  bool
	others []string
	// othersAPI names whose types others are.
	othersAPI string
	// null: a message's content may be null (OpenAI's assistant message with tool calls).
	null bool
}

// messagesError checks the messages of a request against the API's rules.
func messagesError(v any, fail func(string, ...any) error, rules messageRules) error {
	roles, typed, others := rules.roles, rules.typed, rules.others
	msgs, ok := v.([]any)
	if !ok {
		if v == nil {
			return fail("it has no \"messages\" array")
		}
		return fail("\"messages\" is not an array")
	}
	for i, raw := range msgs {
		m, ok := raw.(map[string]any)
		if !ok {
			return fail("message %d is not an object", i+1)
		}
		if r, _ := m["role"].(string); !slices.Contains(roles, r) {
			return fail("message %d's role is %s: this API's roles are %s", i+1, describe(m["role"]), listWords(roles))
		}
		content, has := m["content"]
		switch c := content.(type) {
		case nil:
			if !rules.null {
				if !has {
					return fail("message %d has no \"content\"", i+1)
				}
				return fail("message %d's \"content\" is null", i+1)
			}
		case string:
			if !typed {
				return fail("message %d's content is a string: a Converse message's content is an array of blocks", i+1)
			}
		case []any:
			for j, b := range c {
				bm, ok := b.(map[string]any)
				if !ok {
					return fail("message %d, block %d is not an object", i+1, j+1)
				}
				t, hasType := bm["type"]
				switch {
				case typed && !hasType:
					return fail("message %d, block %d has no \"type\" (a block without one is Bedrock Converse's)", i+1, j+1)
				case !typed && hasType:
					return fail("message %d, block %d has a \"type\", which is Anthropic's and OpenAI's: a Converse block names its kind by its key (text, image, toolUse, ...)", i+1, j+1)
				case typed:
					if s, _ := t.(string); slices.Contains(others, s) {
						return fail("message %d, block %d is of type %q, which is %s", i+1, j+1, s, rules.othersAPI)
					}
				}
			}
		default:
			return fail("message %d's \"content\" is neither a string nor an array", i+1)
		}
	}
	return nil
}

// textOrBlocks checks an Anthropic system prompt: absent, a string, or an array of typed blocks.
func textOrBlocks(v any, what string) error {
	switch x := v.(type) {
	case nil, string:
		return nil
	case []any:
		for i, b := range x {
			m, ok := b.(map[string]any)
			if !ok {
				return fmt.Errorf("%s block %d is not an object", what, i+1)
			}
			if _, ok := m["type"]; !ok {
				return fmt.Errorf("%s block %d has no \"type\" (a block without one is Bedrock Converse's)", what, i+1)
			}
		}
		return nil
	}
	return fmt.Errorf("%s is neither a string nor an array of blocks", what)
}

// untypedBlocks checks a Converse system prompt: an array of blocks without "type".
func untypedBlocks(v any, what string) error {
	list, ok := v.([]any)
	if !ok {
		return fmt.Errorf("%s is not an array of blocks", what)
	}
	for i, b := range list {
		m, ok := b.(map[string]any)
		if !ok {
			return fmt.Errorf("%s block %d is not an object", what, i+1)
		}
		if _, ok := m["type"]; ok {
			return fmt.Errorf("%s block %d has a \"type\", which is Anthropic's: a Converse block names its kind by its key", what, i+1)
		}
	}
	return nil
}

// objects checks an array of objects (Gemini's parts); absent is an empty one.
func objects(v any, what string) error {
	if v == nil {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		return fmt.Errorf("%s is not an array", what)
	}
	for i, p := range list {
		if _, ok := p.(map[string]any); !ok {
			return fmt.Errorf("%s item %d is not an object", what, i+1)
		}
	}
	return nil
}

// describe names a JSON value for a message: a string quoted, anything else by its kind.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "missing"
	case string:
		return fmt.Sprintf("%q", x)
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case bool:
		return "a boolean"
	}
	return "a number"
}

func listWords(words []string) string {
	switch len(words) {
	case 1:
		return words[0]
	case 2:
		return words[0] + " and " + words[1]
	}
	s := ""
	for i, w := range words {
		switch {
		case i == len(words)-1:
			s += ", and " + w
		case i > 0:
			s += ", " + w
		default:
			s = w
		}
	}
	return s
}
