package miss_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/promptc/promptc/miss"
)

// Parse refuses what is not a request of the provider, saying what was expected and why; each body below was
// compared before ("B extends A", exit 0 for a body against itself).
func TestNotARequest(t *testing.T) {
	const (
		anth   = `{"model":"m","system":[{"type":"text","text":"S"}],"messages":[{"role":"user","content":"hi"}]}`
		openai = `{"model":"gpt-5","messages":[{"role":"system","content":"S"},{"role":"user","content":"hi"}]}`
	)
	for _, tc := range []struct{ name, body, provider, want string }{
		{"a values file", `{"name":"Ada"}`, "",
			`not a request body of any provider miss reads (anthropic, openai, dashscope, bedrock, gemini, deepseek): read by its shape, it is not an OpenAI Chat Completions request body: it names no "model"`},
		{"an empty object", `{}`, "", `not a request body of any provider miss reads (anthropic, openai, dashscope, bedrock, gemini, deepseek): read by its shape, it is not an OpenAI Chat Completions request body: it names no "model"`},
		{"Anthropic as OpenAI", anth, "openai",
			`not an OpenAI Chat Completions request body: a top-level "system" is Anthropic's and Bedrock Converse's: this API's system prompt is a system message; its shape is that of a request for anthropic: name that provider, or none`},
		{"Anthropic's tool use as DeepSeek", `{"model":"deepseek-chat","messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]}]}`, "deepseek",
			`not a DeepSeek (OpenAI-compatible) request body: message 1, block 1 is of type "tool_use", which is Anthropic's; its shape is that of a request for anthropic: name that provider, or none`},
		{"OpenAI as Anthropic", openai, "anthropic",
			`not an Anthropic Messages request body: message 1's role is "system": this API's roles are user and assistant; its shape is that of a request for openai: name that provider, or none`},
		{"OpenAI's image as Anthropic", `{"model":"m","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"x"}}]}]}`, "anthropic",
			`not an Anthropic Messages request body: message 1, block 1 is of type "image_url", which is OpenAI's; its shape is that of a request for openai: name that provider, or none`},
		{"OpenAI's tool calls as Anthropic", `{"model":"m","messages":[{"role":"assistant","content":null,"tool_calls":[]}]}`, "anthropic",
			`not an Anthropic Messages request body: message 1's "content" is null; its shape is that of a request for openai: name that provider, or none`},
		{"no content", `{"model":"m","messages":[{"role":"user"}]}`, "anthropic", `not an Anthropic Messages request body: message 1 has no "content"; its shape is that of a request for openai: name that provider, or none`},
		{"Anthropic without a model", `{"system":"S","messages":[]}`, "anthropic", `not an Anthropic Messages request body: it names no "model"`},
		{"Anthropic without messages", `{"model":"m","system":"S"}`, "anthropic", `not an Anthropic Messages request body: it has no "messages" array`},
		{"messages not an array", `{"model":"m","messages":{}}`, "anthropic", `not an Anthropic Messages request body: "messages" is not an array`},
		{"a message not an object", `{"model":"m","messages":["hi"]}`, "openai", `not an OpenAI Chat Completions request body: message 1 is not an object`},
		{"an unknown role", `{"model":"m","messages":[{"role":"robot","content":"x"}]}`, "openai",
			`not an OpenAI Chat Completions request body: message 1's role is "robot": this API's roles are system, developer, user, assistant, tool, and function`},
		{"no role", `{"model":"m","messages":[{"content":"x"}]}`, "anthropic", `not an Anthropic Messages request body: message 1's role is missing: this API's roles are user and assistant`},
		{"a numeric role", `{"model":"m","messages":[{"role":1,"content":"x"}]}`, "anthropic", `not an Anthropic Messages request body: message 1's role is a number: this API's roles are user and assistant`},
		{"content neither", `{"model":"m","messages":[{"role":"user","content":5}]}`, "anthropic", `not an Anthropic Messages request body: message 1's "content" is neither a string nor an array`},
		{"a block not an object", `{"model":"m","messages":[{"role":"user","content":["x"]}]}`, "anthropic", `not an Anthropic Messages request body: message 1, block 1 is not an object`},
		{"Bedrock's block as Anthropic", `{"model":"m","messages":[{"role":"user","content":[{"text":"x"}]}]}`, "anthropic",
			`not an Anthropic Messages request body: message 1, block 1 has no "type" (a block without one is Bedrock Converse's); its shape is that of a request for bedrock: name that provider, or none`},
		{"Bedrock's system as Anthropic", `{"model":"m","system":[{"text":"S"}],"messages":[]}`, "anthropic",
			`not an Anthropic Messages request body: "system" block 1 has no "type" (a block without one is Bedrock Converse's); its shape is that of a request for bedrock: name that provider, or none`},
		{"a system block not an object", `{"model":"m","system":["S"],"messages":[]}`, "anthropic", `not an Anthropic Messages request body: "system" block 1 is not an object`},
		{"system neither", `{"model":"m","system":5,"messages":[]}`, "anthropic", `not an Anthropic Messages request body: "system" is neither a string nor an array of blocks`},
		{"Bedrock's toolConfig as Anthropic", `{"model":"m","toolConfig":{},"messages":[]}`, "anthropic", `not an Anthropic Messages request body: "toolConfig" is Bedrock Converse's or Gemini's; its shape is that of a request for bedrock: name that provider, or none`},
		{"Bedrock's toolConfig as OpenAI", `{"model":"m","toolConfig":{},"messages":[]}`, "openai", `not an OpenAI Chat Completions request body: "toolConfig" is Bedrock Converse's or Gemini's; its shape is that of a request for bedrock: name that provider, or none`},
		{"Gemini's contents as OpenAI", `{"model":"m","contents":[],"messages":[]}`, "openai", `not an OpenAI Chat Completions request body: "contents" is Gemini's`},
		{"Responses' input as Anthropic", `{"model":"m","input":"x","messages":[]}`, "anthropic", `not an Anthropic Messages request body: "input" is the OpenAI Responses API's`},
		{"Bedrock's inferenceConfig as Gemini", `{"contents":[],"inferenceConfig":{}}`, "gemini", `not a Gemini generateContent request body: "inferenceConfig" is Bedrock Converse's`},
		{"Responses without a model", `{"input":"x"}`, "openai", `not an OpenAI Responses request body: it names no "model"`},
		{"Responses with a system", `{"model":"m","input":"x","system":"S"}`, "openai",
			`not an OpenAI Responses request body: a top-level "system" is Anthropic's and Bedrock Converse's: this API's system prompt is "instructions"`},
		{"Converse with neither", `{"inferenceConfig":{}}`, "bedrock", `not a Bedrock Converse request body: it has neither "messages" nor "system"`},
		{"Converse's string content", `{"messages":[{"role":"user","content":"x"}]}`, "bedrock",
			`not a Bedrock Converse request body: message 1's content is a string: a Converse message's content is an array of blocks`},
		{"Converse's typed block", `{"messages":[{"role":"user","content":[{"type":"text","text":"x"}]}]}`, "bedrock",
			`not a Bedrock Converse request body: message 1, block 1 has a "type", which is Anthropic's and OpenAI's: a Converse block names its kind by its key (text, image, toolUse, ...)`},
		{"Converse's system not an array", `{"system":"S"}`, "bedrock", `not a Bedrock Converse request body: "system" is not an array of blocks`},
		{"Converse's system block not an object", `{"system":["S"]}`, "bedrock", `not a Bedrock Converse request body: "system" block 1 is not an object`},
		{"Gemini without contents", `{"systemInstruction":{"parts":[{"text":"S"}]}}`, "", `not a request body of any provider miss reads (anthropic, openai, dashscope, bedrock, gemini, deepseek): read by its shape, it is not a Gemini generateContent request body: it has no "contents" array`},
		{"Gemini's content not an object", `{"contents":["x"]}`, "gemini", `not a Gemini generateContent request body: content 1 is not an object`},
		{"Gemini's role", `{"contents":[{"role":"assistant","parts":[]}]}`, "gemini", `not a Gemini generateContent request body: content 1's role is "assistant": Gemini's roles are user and model`},
		{"Gemini's parts", `{"contents":[{"role":"user","parts":{}}]}`, "gemini", `not a Gemini generateContent request body: content 1's "parts" is not an array`},
		{"Gemini's part", `{"contents":[{"role":"user","parts":["x"]}]}`, "gemini", `not a Gemini generateContent request body: content 1's "parts" item 1 is not an object`},
		{"Gemini's system instruction", `{"contents":[],"systemInstruction":"S"}`, "gemini", `not a Gemini generateContent request body: "systemInstruction" is not an object`},
		{"Gemini's system instruction parts", `{"contents":[],"systemInstruction":{"parts":[1]}}`, "gemini", `not a Gemini generateContent request body: "systemInstruction"'s "parts" item 1 is not an object`},
		{"messages in Gemini", `{"contents":[],"system":"S"}`, "gemini", `not a Gemini generateContent request body: "system" is not Gemini's: its request holds "contents" and "systemInstruction"`},
		{"an unknown provider", openai, "vertex", `unknown provider "vertex": use anthropic, openai, dashscope, bedrock, gemini, deepseek`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := miss.Parse([]byte(tc.body), tc.provider)
			if err == nil || err.Error() != tc.want {
				t.Errorf("Parse:\n got %v\nwant %s", err, tc.want)
			}
		})
	}
}

// A body whose shape marks named one API but fits another's is read as that one's.
func TestDetectFallsBack(t *testing.T) {
	// No "model": not OpenAI's, as the fallback of detect would have it, but a Converse body with no messages.
	b, err := miss.Parse([]byte(`{"messages":[]}`), "")
	if err != nil || b.Provider.String() != "bedrock" {
		t.Errorf("Parse: %+v, %v; want a bedrock body", b, err)
	}
}

// A body that is not one JSON object, or holds a key twice, is a *JSONError placed in the body; Between gives the
// line and column on the side it names.
func TestJSONErrors(t *testing.T) {
	good := []byte(`{"model":"gpt-5","messages":[{"role":"user","content":"hi"}]}`)
	for _, tc := range []struct {
		name, body, want string
		line, col        int
	}{
		{"empty", ``, "not a JSON object: the file is empty", 1, 1},
		{"cut short", "{\"model\": \n", "not a JSON object: unexpected EOF", 2, 1},
		{"a syntax error", "{\n  \"model\" \"gpt-5\"}", "not a JSON object: '\"' after object key", 2, 11},
		{"an array", "  [1]", "a request body is a JSON object, not an array", 1, 3},
		{"a string", `"x"`, "a request body is a JSON object, not a string", 1, 1},
		{"a number", `12`, "a request body is a JSON object, not a number", 1, 1},
		{"a boolean", `true`, "a request body is a JSON object, not a boolean", 1, 1},
		{"null", `null`, "a request body is a JSON object, not null", 1, 1},
		{"two values", `{} {}`, "more than one JSON value: a request body is one object", 1, 4},
		{"a closing brace after", `{} }`, "more than one JSON value: a request body is one object", 1, 4},
		{"a key twice", "{\"model\":\"gpt-5\",\n\"messages\":[],\n\"model\":\"gpt-5-mini\"}", `duplicate key "model" (first at 1:2): a JSON object may hold each key once`, 3, 1},
		{"a key twice in a message", `{"model":"gpt-5","messages":[{"role":"user","role":"system","content":"x"}]}`,
			`duplicate key "role" (first at 1:31): a JSON object may hold each key once`, 1, 45},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := miss.Between(good, []byte(tc.body), miss.Options{})
			var be *miss.BodyError
			if !errors.As(err, &be) || be.Side != "B" || be.Err.Error() != tc.want || be.Line != tc.line || be.Column != tc.col {
				t.Fatalf("Between: %v (%+v); want B:%d:%d: %s", err, *be, tc.line, tc.col, tc.want)
			}
			if got := be.Error(); got != "B: "+tc.want {
				t.Errorf("Error() = %q", got)
			}
			var je *miss.JSONError
			if !errors.As(err, &je) {
				t.Error("BodyError does not unwrap to the *JSONError")
			}
		})
	}
	// A shape error has no place.
	_, _, err := miss.Between([]byte(`{"name":"Ada"}`), good, miss.Options{})
	var be *miss.BodyError
	if !errors.As(err, &be) || be.Side != "A" || be.Line != 0 || !strings.HasPrefix(be.Err.Error(), "not a request body") {
		t.Errorf("Between: %v (%+v)", err, be)
	}
}
