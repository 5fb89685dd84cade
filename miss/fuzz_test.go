package miss_test

import (
	"testing"

	"github.com/promptc/promptc/miss"
)

// FuzzCompare: no pair of bodies makes Parse, Compare or Write panic, and a body always extends itself.
func FuzzCompare(f *testing.F) {
	for _, s := range []string{
		`{"model":"m","system":[{"type":"text","text":"S","cache_control":{"type":"ephemeral"}}],"messages":[{"role":"user","content":"x"}]}`,
		`{"model":"gpt-5","messages":[{"role":"system","content":"S"},{"role":"user","content":[{"type":"text","text":"x"}]}]}`,
		`{"system":[{"text":"S"},{"cachePoint":{"type":"default"}}],"messages":[{"role":"user","content":[{"text":"x"}]}],"toolConfig":{"tools":[{"toolSpec":{"name":"f"}},{"cachePoint":{}}]}}`,
		`{"cachedContent":"cachedContents/1","systemInstruction":{"parts":[{"text":"S"}]},"contents":[{"role":"user","parts":[{"text":"x"}]}]}`,
		`{"model":"gpt-5","instructions":"S","input":[{"role":"user","content":"x"},{"type":"function_call"}]}`,
		`{"messages":[1,"x",null,{"content":[2,{"cachePoint":1}]}],"tools":[3]}`,
		`{"name":"Ada","issues":[{"id":1}]}`,
		`{"model":"m","model":"n","messages":[]}`,
		`{"model":"gpt-5","system":"S","messages":[{"role":"user","content":[{"type":"tool_use"}]}]}`,
		`{"contents":[{"role":"model","parts":[{"text":"x"}]}],"systemInstruction":{"parts":[{"text":"S"}]},"toolConfig":{}}`,
		`{"messages":[{"role":"user","content":[{"text":"x"}]}],"system":[{"text":"S"}],"inferenceConfig":{}}`,
	} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ba, err := miss.Parse([]byte(a), "")
		if err != nil {
			return
		}
		self, err := miss.Compare(ba, ba, miss.Rules{Explicit: true, MinCacheTokens: 1, Step: 1}, nil)
		if err != nil || !self.Extends {
			t.Fatalf("a body does not extend itself: %v %+v", err, self)
		}
		bb, err := miss.Parse([]byte(b), "")
		if err != nil {
			return
		}
		r, err := miss.Compare(ba, bb, miss.RulesFor(nil, ba), nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Rebilled < 0 || r.Reused > r.Cached {
			t.Fatalf("reused %d of %d cached", r.Reused, r.Cached)
		}
		_ = r.Write(discard{}, nil)
	})
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
