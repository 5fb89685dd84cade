package templates

import "testing"

// TestPrinterSkip pins which actions may skip the printer: only those whose result is the author's text, a bool
// or an int. A function that can return one of its arguments (and, or, index, first, default…) must still print
// that argument escaped (docs/values.md, "No function can undo escaping").
func TestPrinterSkip(t *testing.T) {
	c := Consts{Plain: map[string]bool{"plain": true, "pl": true, "pe": true}}
	data := map[string]any{
		"x":     Untrusted("# a <b>"),
		"l":     []any{Untrusted("<i>")},
		"plain": "<ok>",
		"pl":    []string{"<p>", "# q"},
		"pe":    []string{},
	}
	const esc = `\# a \<b\>`
	tests := []struct{ body, want string }{
		{`{{len .x}}`, "7"},
		{`{{len .l}}`, "1"},
		{`{{eq .x "# a <b>"}}`, "true"},
		{`{{ne .x "z"}} {{lt 1 2}} {{le 2 2}} {{gt 1 2}} {{ge 1 2}}`, "true true true false false"},
		{`{{not .x}}`, "false"},
		{`{{hasPrefix "#" .x}} {{hasSuffix ">" .x}} {{contains "<" .x}} {{matches "^#" .x}}`, "true true true true"},
		{`{{len .x | printf "%d"}}`, "7"},
		{`{{.plain}}`, "<ok>"},
		{`{{and true .x}}`, esc},
		{`{{or "" .x}}`, esc},
		{`{{.x | printf "%s"}}`, esc},
		{`{{index .l 0}}`, `\<i\>`},
		{`{{first .l}}`, `\<i\>`},
		{`{{default "d" .x}}`, esc},
		{`{{eq .x "z" | and .x}}`, "false"},
		{`{{not .x | or .x}}`, esc},
		// Dot is plain inside a with or range of a plain variable or list constant, and only there.
		{`{{range .pl}}[{{.}}]{{end}}`, "[<p>][# q]"},
		{`{{with .plain}}{{.}}{{end}}`, "<ok>"},
		{`{{range .l}}{{.}}{{end}}`, `\<i\>`},
		{`{{with .x}}{{.}}{{end}}`, esc},
		{`{{range .pl}}{{with $.x}}{{.}}{{end}}{{end}}`, esc + esc},
		{`{{range .pl}}{{range $.l}}{{.}}{{end}}{{end}}`, `\<i\>\<i\>`},
		{`{{with .plain}}{{with $.x}}{{.}}{{end}}{{end}}`, esc},
		{`{{range $i, $e := .pl}}{{$e}}{{end}}`, "<p># q"},
		{`{{range .l}}{{with $.pe}}{{else}}{{.}}{{end}}{{end}}`, `\<i\>`},
		{`{{range .l}}{{range $.pe}}{{else}}{{.}}{{end}}{{end}}`, `\<i\>`},
	}
	for _, tt := range tests {
		b, diags := Parse(block(tt.body, false), c)
		if len(diags) > 0 {
			t.Fatalf("%s: %s", tt.body, diags)
		}
		got, d := b.Execute(data, Env{})
		if d != nil || got != tt.want {
			t.Errorf("Execute(%s) = %q, %v; want %q", tt.body, got, d, tt.want)
		}
	}
}
