package chat_test

import (
	"encoding/json"
	"fmt"

	"github.com/promptc/promptc/provider"
	"github.com/promptc/promptc/provider/internal/chat"
)

// A Responses API body is read as the Chat Completions one is: instructions, then the input.
func ExampleDecode() {
	var doc map[string]any
	_ = json.Unmarshal([]byte(`{"model":"gpt-5","instructions":"Rules.","input":"Hi."}`), &doc)
	b := &provider.Body{Provider: provider.OpenAI}
	fmt.Println(chat.IsResponses(doc), chat.Check(doc, "an OpenAI Responses request"), chat.Decode(doc, b))
	for _, p := range b.Parts {
		fmt.Printf("%s %q\n", p.Kind, p.Text)
	}
	// Output:
	// true <nil> <nil>
	// system "Rules."
	// message "Hi."
}
