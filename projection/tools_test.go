package projection_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/projection"
)

// One tool whose definition, as Anthropic's canonical JSON, promptc counts as the prompt's first part.
var showTool = []*blocks.Tool{{Name: "show", Description: "Show an issue.", Parameters: map[string]any{"type": "object"}}}

const showJSON = `{"name":"show","description":"Show an issue.","input_schema":{"type":"object"}}`

func toolModel(p projection.Provider, min, breakpoints int) projection.Model {
	m := model(p, min, breakpoints)
	m.ToolMarkers = true
	return m
}

// TestToolMarker: a model that takes a marker after its tools gets one only with a breakpoint left after the
// history's and the system's, only where the tools reach the minimum, and counted against the limit.
func TestToolMarker(t *testing.T) {
	noHistory := projection.Input{Runbook: gts, Turn: "u1"}
	withHistory := projection.Input{Runbook: gts, History: convo, Turn: "u2"}
	for _, tc := range []struct {
		name  string
		m     projection.Model
		in    projection.Input
		want  []string // the texts of the marked parts
		tools int      // cache_control on the last tool
	}{
		// G, T and S take three breakpoints; the fourth is left for the tools.
		{"spare", toolModel(projection.Anthropic, 1, 4), noHistory, []string{showJSON, "G\n\n", "T\n\n", "S\n"}, 1},
		// The history's marker takes the fourth: none is left for the tools.
		{"full", toolModel(projection.Anthropic, 1, 4), withHistory, []string{"G\n\n", "T\n\n", "S\n", "a1"}, 0},
		// Two breakpoints, both the system's.
		{"limit", toolModel(projection.Anthropic, 1, 2), noHistory, []string{"G\n\n", "T\n\n"}, 0},
		// A model without tool markers (Amazon Nova) never puts one there.
		{"none", model(projection.Anthropic, 1, 4), noHistory, []string{"G\n\n", "T\n\n", "S\n"}, 0},
		// The tools alone are one token short of the minimum; the first system part reaches it.
		{"short", toolModel(projection.Anthropic, tokens(showJSON)+1, 4), noHistory, []string{"G\n\n", "T\n\n", "S\n"}, 0},
		// Exactly at the minimum: marked.
		{"at-minimum", toolModel(projection.Anthropic, tokens(showJSON), 4), noHistory, []string{showJSON, "G\n\n", "T\n\n", "S\n"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pr := project(t, tc.in, projection.Options{Model: tc.m, Tools: showTool})
			if got := markedTexts(pr); strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("markers after %q, want %q", got, tc.want)
			}
			var body struct{ Tools []map[string]any }
			if err := json.Unmarshal(pr.Body, &body); err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(pr.Body), "cache_control"); n != len(tc.want) {
				t.Errorf("%d cache_control in the body, want %d", n, len(tc.want))
			}
			_, marked := body.Tools[len(body.Tools)-1]["cache_control"]
			if marked != (tc.tools == 1) {
				t.Errorf("last tool marked %v, want %v:\n%s", marked, tc.tools == 1, pr.Body)
			}
			if tc.tools == 1 && !strings.Contains(pr.Summary(), "cache markers after: the tools (") {
				t.Errorf("summary does not name the tools' marker: %s", pr.Summary())
			}
		})
	}
}

// TestBedrockToolCachePoint: Bedrock's tools checkpoint is a {"cachePoint": …} entry of toolConfig.tools after the
// last toolSpec, with the chosen lifetime; Nova's rows take none.
func TestBedrockToolCachePoint(t *testing.T) {
	in := projection.Input{Runbook: gts, Turn: "u1"}
	for _, tc := range []struct {
		ttl  projection.TTL
		want string
	}{
		{projection.TTLDefault, `{"cachePoint":{"type":"default"}}`},
		{projection.TTL1h, `{"cachePoint":{"type":"default","ttl":"1h"}}`},
	} {
		m := toolModel(projection.Bedrock, 1, 4)
		m.TTLs = []projection.TTL{projection.TTL5m, projection.TTL1h}
		pr := project(t, in, projection.Options{Model: m, Tools: showTool, TTL: tc.ttl})
		var body struct {
			ToolConfig struct{ Tools []json.RawMessage } `json:"toolConfig"`
		}
		if err := json.Unmarshal(pr.Body, &body); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, x := range body.ToolConfig.Tools {
			got = append(got, compact(x))
		}
		want := []string{`{"toolSpec":{"name":"show","description":"Show an issue.","inputSchema":{"json":{"type":"object"}}}}`, tc.want}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("ttl %v: toolConfig.tools\n%s\nwant\n%s", tc.ttl, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if n := strings.Count(string(pr.Body), `"cachePoint"`); n != 4 {
			t.Errorf("ttl %v: %d cachePoints, want 4 (tools, G, T, S)", tc.ttl, n)
		}
	}
	cat, err := projection.NewCatalog(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"amazon.nova-pro-v1:0", "amazon.nova-lite-v1:0"} {
		m, _ := cat.Model(projection.Bedrock, name)
		if m.ToolMarkers {
			t.Errorf("%s takes a cachePoint in toolConfig.tools; the page lists system and messages only", name)
		}
	}
	for _, name := range []string{"anthropic.claude-sonnet-4-5-20250929-v1:0", "anthropic.claude-haiku-4-5-20251001-v1:0"} {
		if m, _ := cat.Model(projection.Bedrock, name); !m.ToolMarkers {
			t.Errorf("%s takes no cachePoint in toolConfig.tools; the page lists system, messages and tools", name)
		}
	}
}

// TestSimulateToolMarker: when the runbook's global segment changes between two sessions of the same task, the
// tools' own entry is still read: exactly the tools' tokens, where the same model without the tools' marker reads
// nothing.
func TestSimulateToolMarker(t *testing.T) {
	other := runbook("G2", blocks.ScopeGlobal, "T", blocks.ScopeTask, "S", blocks.ScopeSession)
	sessions := []projection.Replay{
		{Name: "before", Runbook: gts, Turns: []string{"u1"}},
		{Name: "after", Runbook: other, Turns: []string{"u1"}},
	}
	for _, tc := range []struct {
		m    projection.Model
		want int
	}{
		{toolModel(projection.Bedrock, 1, 4), tokens(`{"toolSpec":{"name":"show","description":"Show an issue.","inputSchema":{"json":{"type":"object"}}}}`)},
		{model(projection.Bedrock, 1, 4), 0},
	} {
		sim, err := projection.Simulate(sessions, projection.Options{Model: tc.m, Tools: showTool, Gap: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		u := usage(t, sim, projection.LayoutPromptc)
		if u[1].CacheReadTokens != tc.want {
			t.Errorf("tool markers %v: session after read %d, want %d", tc.m.ToolMarkers, u[1].CacheReadTokens, tc.want)
		}
	}
}
