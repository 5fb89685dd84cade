package miss_test

import (
	"errors"
	"fmt"
	"log"
	"os"
	"testing/fstest"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/miss"
)

// A platform keeps the bodies it sent; when the hit rate drops, it asks which byte of the next request left the
// last one's cached prefix.
func ExampleCompare() {
	a, err := miss.Parse([]byte(`{"model":"claude-sonnet-4-5","max_tokens":1024,
		"system":[{"type":"text","text":"Run only the commands listed here.","cache_control":{"type":"ephemeral"}},
		          {"type":"text","text":"You are Ada."}],
		"messages":[{"role":"user","content":"Close NW-1."}]}`), "")
	if err != nil {
		log.Fatal(err)
	}
	b, err := miss.Parse([]byte(`{"model":"claude-sonnet-4-5","max_tokens":1024,
		"system":[{"type":"text","text":"Run only the commands listed below.","cache_control":{"type":"ephemeral"}},
		          {"type":"text","text":"You are Ada."}],
		"messages":[{"role":"user","content":"Close NW-1."}]}`), "")
	if err != nil {
		log.Fatal(err)
	}
	rules := miss.RulesFor(nil, a)
	rules.MinCacheTokens = 1 // a short example: cache whatever is marked
	r, err := miss.Compare(a, b, rules, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Extends, r.Part, r.Offset)
	if err := r.Write(os.Stdout, nil); err != nil {
		log.Fatal(err)
	}
	// Output:
	// false 0 29
	// B breaks A's prefix at system block 1, byte 29 of it (byte 29 of the cached order, 6 tokens in):
	//   A: "Run only the commands listed here."
	//   B: "Run only the commands listed below."
	// It falls behind the breakpoint after system block 1: of the 7 tokens A cached, B reads none and pays for 7 tokens again.
}

// The one call: two bodies and the project they came from; the source of the differing byte is named.
func ExampleBetween() {
	prog, diags := assemble.Load(fstest.MapFS{
		"promptc.toml":     {Data: []byte("name = \"demo\"\ntasks = [\"chat\"]\n\n[runbook]\norder = [\"rules\"]\n")},
		"blocks/core.toml": {Data: []byte("[const]\nlanguage = \"Reply in English.\"\n\n[[block]]\nid   = \"rules\"\nbody = \"Run only the listed commands. {{const \\\"language\\\"}}\"\n")},
	})
	if len(diags) > 0 {
		log.Fatal(diags)
	}
	a := `{"model":"gpt-5","messages":[{"role":"system","content":"Run only the listed commands. Reply in English.\n"},{"role":"user","content":"Hi."}]}`
	b := `{"model":"gpt-5","messages":[{"role":"system","content":"Run only the listed commands. Reply in French.\n"},{"role":"user","content":"Hi."}]}`
	r, src, err := miss.Between([]byte(a), []byte(b), miss.Options{Program: prog})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Extends, r.SystemOffset, src.Side, src.Origin)
	// Output:
	// false 39 A constant language (blocks/core.toml:2:1)
}

// CheckProvider refuses a provider miss does not read, naming the closest.
func ExampleCheckProvider() {
	fmt.Println(miss.CheckProvider(""))
	fmt.Println(miss.CheckProvider("antropic"))
	// Output:
	// <nil>
	// unknown provider "antropic" (did you mean "anthropic"?): use anthropic, openai, dashscope, bedrock, gemini, deepseek
}

// A body that is no request is placed in the file it was read from, as promptc miss reports it: where the JSON says,
// a diagnostic at its line and column.
func ExampleBodyError_In() {
	a := []byte(`{"model":"gpt-5","messages":[]}`)
	b := []byte("{\"model\":\"gpt-5\",\n \"messages\": [}")
	_, _, err := miss.Between(a, b, miss.Options{Provider: "openai"})
	var be *miss.BodyError
	if errors.As(err, &be) {
		fmt.Println(be.In("a.json", "b.json"))
	}
	fmt.Println(miss.CheckSize(make([]byte, miss.MaxBodyBytes+1)))
	// Output:
	// b.json:2:15: not a JSON object: '}' looking for beginning of value
	// larger than 64 MiB
}
