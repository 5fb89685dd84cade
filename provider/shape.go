package provider

import (
	"fmt"
	"slices"
)

// A body miss compares must be a request of its provider: a values file, a response, or another API's request read
// under the wrong --provider has parts too (none, or the wrong ones), and comparing them says "B extends A" of two
// things no provider would cache. Each provider package's Check says what its API requires and what belongs to
// another API only; it does not check every field (the APIs add fields often), only enough that no body of one API
// passes for another's and no JSON that is no request passes at all. These are the checks they share.

// foreign are top-level keys of one API's requests only, and whose they are.
var foreign = []struct{ key, owner string }{
	{"contents", "gemini"}, {"systemInstruction", "gemini"}, {"cachedContent", "gemini"}, {"generationConfig", "gemini"},
	{"inferenceConfig", "bedrock"}, {"additionalModelRequestFields", "bedrock"},
	{"input", "responses"}, {"instructions", "responses"},
}

// ownerName names the API a foreign key belongs to.
var ownerName = map[string]string{"gemini": "Gemini's", "bedrock": "Bedrock Converse's", "responses": "the OpenAI Responses API's"}

// ForeignKey returns the error fail makes when doc holds a top-level key of an API other than own ("anthropic",
// "openai", "responses", "bedrock" or "gemini"), else nil.
func ForeignKey(doc map[string]any, own string, fail func(string, ...any) error) error {
	for _, f := range foreign {
		if _, ok := doc[f.key]; ok && f.owner != own {
			return fail("%q is %s", f.key, ownerName[f.owner])
		}
	}
	return nil
}

// Fail returns the error maker of a Check for api: "not <api> body: <why>".
func Fail(api string) func(string, ...any) error {
	return func(format string, args ...any) error {
		return fmt.Errorf("not %s body: %s", api, fmt.Sprintf(format, args...))
	}
}

// Content block types of one family of APIs only.
var (
	AnthropicOnly = []string{"tool_use", "tool_result", "image", "document", "thinking", "redacted_thinking", "server_tool_use", "search_result"}
	OpenAIOnly    = []string{"image_url", "input_audio", "file", "refusal", "input_text", "output_text", "input_image", "input_file"}
)

// MessageRules are what an API's messages hold.
type MessageRules struct {
	Roles []string
	// Typed: a content block has a "type" (Anthropic, OpenAI), which is then none of others; and a content may be a
	// string. Otherwise content is an array of blocks named by their key (Converse).
	Typed  bool
	Others []string
	// OthersAPI names whose types others are.
	OthersAPI string
	// Null: a message's content may be null (OpenAI's assistant message with tool calls).
	Null bool
}

// MessagesError checks the messages of a request against the API's rules.
func MessagesError(v any, fail func(string, ...any) error, rules MessageRules) error {
	roles, typed, others := rules.Roles, rules.Typed, rules.Others
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
			return fail("message %d's role is %s: this API's roles are %s", i+1, Describe(m["role"]), ListWords(roles))
		}
		content, has := m["content"]
		switch c := content.(type) {
		case nil:
			if !rules.Null {
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
						return fail("message %d, block %d is of type %q, which is %s", i+1, j+1, s, rules.OthersAPI)
					}
				}
			}
		default:
			return fail("message %d's \"content\" is neither a string nor an array", i+1)
		}
	}
	return nil
}

// TextOrBlocks checks an Anthropic system prompt: absent, a string, or an array of typed blocks.
func TextOrBlocks(v any, what string) error {
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

// UntypedBlocks checks a Converse system prompt: an array of blocks without "type".
func UntypedBlocks(v any, what string) error {
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

// Objects checks an array of objects (Gemini's parts); absent is an empty one.
func Objects(v any, what string) error {
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

// Describe names a JSON value for a message: a string quoted, anything else by its kind.
func Describe(v any) string {
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

func ListWords(words []string) string {
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
