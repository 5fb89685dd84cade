package miss_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/promptc/promptc/miss"
	"github.com/promptc/promptc/tokens"
)

// bigBody is an Anthropic body of about 1 MB: a runbook of varied paragraphs in four system blocks and a long
// history; edit changes one byte near the end of the system prompt.
func bigBody(edit bool) []byte {
	var sys [4]strings.Builder
	for i := 0; sys[0].Len()+sys[1].Len()+sys[2].Len()+sys[3].Len() < 600<<10; i++ {
		fmt.Fprintf(&sys[i%4], "Rule %d: when issue NW-%d is assigned to you, read its comments %d times before acting.\n\n", i, i*7, i%13)
	}
	text := [4]string{sys[0].String(), sys[1].String(), sys[2].String(), sys[3].String()}
	if edit {
		text[3] = text[3][:len(text[3])-10] + "X" + text[3][len(text[3])-9:]
	}
	type block struct {
		Type         string         `json:"type"`
		Text         string         `json:"text"`
		CacheControl map[string]any `json:"cache_control,omitempty"`
	}
	body := map[string]any{"model": "claude-sonnet-4-5", "max_tokens": 4096}
	var system []block
	for i, t := range text {
		b := block{Type: "text", Text: t}
		if i < 3 {
			b.CacheControl = map[string]any{"type": "ephemeral"}
		}
		system = append(system, b)
	}
	body["system"] = system
	var msgs []map[string]any
	for i := 0; i < 1200; i++ {
		msgs = append(msgs, map[string]any{"role": "user", "content": fmt.Sprintf("Turn %d: please look at NW-%d and report what changed since yesterday in full detail, line by line. %s", i, i, strings.Repeat("Context. ", 40)), "x": i},
			map[string]any{"role": "assistant", "content": fmt.Sprintf("Reply %d: NW-%d has three new comments and one label change.", i, i)})
	}
	body["messages"] = msgs
	js, _ := json.Marshal(body)
	return js
}

// BenchmarkMiss compares two 1 MB bodies that part near the end of the system prompt (the target: 100 ms),
// parsing both, counting tokens with a fresh counter and finding the byte.
func BenchmarkMiss(b *testing.B) {
	a, e := bigBody(false), bigBody(true)
	if len(a) < 1<<20 {
		b.Fatalf("body of %d bytes", len(a))
	}
	for b.Loop() {
		tok := tokens.New(tokens.O200k) // a fresh counter: no paragraph counted before
		r, _, err := miss.Between(a, e, miss.Options{Counter: tok})
		if err != nil || r.Extends || r.Part != 3 {
			b.Fatal(err, r.Part)
		}
	}
	b.SetBytes(int64(len(a) + len(e)))
}
