package projection_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/openai/openai-go/v3"
	"github.com/promptc/promptc/projection"
)

func TestScratchEdge(t *testing.T) {
	f := sdkSetup(t)
	h, err := projection.ReadHistory(strings.NewReader(`{"role":"user","content":"Hi"}
{"role":"assistant","content":"Hello"}
{"role":"user","content":""}
{"role":"assistant","tool_calls":[{"id":"c1","name":"list"}]}
{"role":"tool","tool_call_id":"c1","content":""}
{"role":"assistant","tool_calls":[{"id":"c2","name":"list"}]}
{"role":"tool","tool_call_id":"c2"}
`), "h", nil)
	if err != nil {
		t.Fatal(err)
	}
	c := sdkCase{name: "edge", in: projection.Input{Runbook: f.cases[0].in.Runbook, History: h, Turn: "go"}}
	for _, p := range []projection.Provider{projection.Anthropic, projection.OpenAI, projection.DashScope} {
		m := sdkModel(t, f.cat, p)
		pr := sdkProject(t, c, m, false)
		var b map[string]any
		json.Unmarshal(pr.Body, &b)
		ms := b["messages"].([]any); js, _ := json.Marshal(ms[len(ms)-7:])
		fmt.Println(p, string(js))
		for _, pt := range pr.Parts {
			if pt.Kind == projection.MessagePart {
				fmt.Println("   ", pt.Kind, pt.Role, pt.Message, pt.Marker, pt.Text)
			}
		}
		if p == projection.Anthropic {
			var params anthropic.MessageNewParams
			if err := json.Unmarshal(pr.Body, &params); err != nil {
				t.Fatal(err)
			}
			rt, _ := json.Marshal(params)
			var r map[string]any
			json.Unmarshal(rt, &r)
			ms := r["messages"].([]any); js, _ := json.Marshal(ms[len(ms)-7:])
			fmt.Println("SDK", string(js))
		} else {
			var params openai.ChatCompletionNewParams
			if err := json.Unmarshal(pr.Body, &params); err != nil {
				t.Fatal(err)
			}
			rt, _ := json.Marshal(params)
			var r map[string]any
			json.Unmarshal(rt, &r)
			ms := r["messages"].([]any); js, _ := json.Marshal(ms[len(ms)-7:])
			fmt.Println("SDK", string(js))
		}
	}
}
