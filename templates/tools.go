package templates

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/promptc/promptc/blocks"
)

// ToolsText renders tools as the template function tools prints them: for each tool, in the order given, a line
// "### NAME", a blank line, its description (white space trimmed from both ends), a blank line, and its parameters
// schema as JSON (object keys sorted, indented by two spaces, no HTML escaping) in a ```json fence that the schema
// cannot close (see EscapeCode, which also makes invisible characters visible). Tools are separated by a blank line;
// the text has no final newline, and no tools give "".
func ToolsText(tools []*blocks.Tool) (string, error) {
	var b strings.Builder
	for i, t := range tools {
		schema, err := indentedJSON(t.Parameters)
		if err != nil {
			return "", fmt.Errorf("tool %q: its parameters are not JSON: %v", t.Name, err)
		}
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("### ")
		b.WriteString(t.Name)
		b.WriteString("\n\n")
		if d := strings.TrimSpace(t.Description); d != "" {
			b.WriteString(d)
			b.WriteString("\n\n")
		}
		b.WriteString(EscapeCode(schema, "json"))
	}
	return b.String(), nil
}

// indentedJSON is v as JSON with sorted keys, two-space indentation and no HTML escaping.
func indentedJSON(v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}

// tools implements the template function tools: the tools of the task being rendered, as ToolsText renders them.
func (f *funcs) tools() (string, error) {
	if f.env.Tools == nil {
		return "", fmt.Errorf("tools: the task's tools are known only while a runbook is assembled")
	}
	list, err := f.env.Tools()
	if err != nil {
		return "", err
	}
	s, err := ToolsText(list)
	if err != nil {
		return "", fmt.Errorf("tools: %v", err)
	}
	return f.result("tools", s)
}
