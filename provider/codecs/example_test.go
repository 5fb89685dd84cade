package codecs_test

import (
	"encoding/json"
	"fmt"

	"github.com/promptc/promptc/provider/codecs"
)

// A request body's provider told from its shape, and its codec.
func ExampleDetect() {
	for _, body := range []string{
		`{"model":"claude-sonnet-4-5","system":"Rules.","messages":[]}`,
		`{"system":[{"text":"Rules."}],"messages":[]}`,
		`{"contents":[]}`,
		`{"model":"qwen3-max","messages":[]}`,
	} {
		var doc map[string]any
		_ = json.Unmarshal([]byte(body), &doc)
		p := codecs.Detect(doc)
		fmt.Println(p, codecs.For(p).Check(doc) == nil)
	}
	// Output:
	// anthropic true
	// bedrock true
	// gemini true
	// dashscope true
}
