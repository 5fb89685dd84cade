package templates

import (
	"strings"
	"testing"

	"github.com/promptc/promptc/blocks"
)

// TestToolsText pins the bytes of the tools function: heading, description, schema in a fence it cannot close.
func TestToolsText(t *testing.T) {
	search := &blocks.Tool{
		Name:        "tracker_search",
		Description: "\nSearch issues; pass `query`, as in ``a `b` c``.\n\n",
		Parameters: map[string]any{
			"type":     "object",
			"required": []any{"query"},
			"properties": map[string]any{
				"query": map[string]any{"type": "string", "description": "Words <b> & ```fenced``` text"},
				"limit": map[string]any{"type": "integer", "minimum": int64(1), "maximum": 1.5},
			},
		},
	}
	plain := &blocks.Tool{Name: "a-tool", Description: "Plain.", Parameters: blocks.DefaultParameters()}
	tests := []struct {
		name  string
		tools []*blocks.Tool
		want  string
	}{
		{"none", nil, ""},
		{"one, no parameters", []*blocks.Tool{plain}, "### a-tool\n\nPlain.\n\n```json\n{\n  \"properties\": {},\n  \"type\": \"object\"\n}\n```"},
		{"backticks in the description and in the schema", []*blocks.Tool{plain, search}, "### a-tool\n\nPlain.\n\n```json\n{\n  \"properties\": {},\n  \"type\": \"object\"\n}\n```" +
			"\n\n### tracker_search\n\nSearch issues; pass `query`, as in ``a `b` c``.\n\n" +
			"````json\n{\n  \"properties\": {\n    \"limit\": {\n      \"maximum\": 1.5,\n      \"minimum\": 1,\n      \"type\": \"integer\"\n    },\n" +
			"    \"query\": {\n      \"description\": \"Words <b> & ```fenced``` text\",\n      \"type\": \"string\"\n    }\n  },\n" +
			"  \"required\": [\n    \"query\"\n  ],\n  \"type\": \"object\"\n}\n````"},
		{"invisible characters made visible", []*blocks.Tool{{Name: "z", Description: "Z.", Parameters: map[string]any{"description": "a\u200bb"}}},
			"### z\n\nZ.\n\n```json\n{\n  \"description\": \"a<U+200B>b\"\n}\n```"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ToolsText(tt.tools)
			if err != nil || got != tt.want {
				t.Errorf("ToolsText = %q, %v\nwant %q", got, err, tt.want)
			}
			again, _ := ToolsText(tt.tools)
			if again != got {
				t.Errorf("not deterministic: %q, then %q", got, again)
			}
		})
	}
	if _, err := ToolsText([]*blocks.Tool{{Name: "bad", Parameters: map[string]any{"x": func() {}}}}); err == nil || !strings.Contains(err.Error(), `tool "bad": its parameters are not JSON`) {
		t.Errorf("parameters that are not JSON: %v", err)
	}
}
