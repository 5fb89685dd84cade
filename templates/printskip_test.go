package templates

import "testing"

// TestPrinterSkip pins which actions may skip the printer: only those whose result is the author's text, a bool
// or an int. A function that can return one of its arguments (and, or, index, first, default…) must still print
// that argument escaped (docs/values.md, "No function can undo escaping").
func TestPrinterSkip(t *testing.T) {
	// Marks are checked against where the escaped bytes are, for the fused functions.
	markTests := map[string][]span{`{{bullets .l}}`: {{2, 7, 0}}, `x{{join .l ", "}}`: {{1, 6, 0}}, `{{bullets .pl}}`: nil}
	for body, want := range markTests {
		b, diags := Parse(block(body, false), Consts{Plain: map[string]bool{"pl": true}})
		if len(diags) > 0 {
			t.Fatal(diags)
		}
		var marks []span
		data := map[string]any{"l": []any{Untrusted("<i>")}, "pl": []string{"p"}}
		if _, d := b.Execute(data, Env{Mark: func(start, end int) { marks = append(marks, span{start: start, end: end}) }}); d != nil {
			t.Fatal(d)
		}
		if len(marks) != len(want) || len(want) > 0 && marks[0] != want[0] {
			t.Errorf("Execute(%s) marks %v, want %v", body, marks, want)
		}
	}

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
		// bullets, quote, json and join print through their fused forms (fusePrint): escaped all the same.
		{`{{bullets .l}}`, `- \<i\>`},
		{`{{.l | bullets}}`, `- \<i\>`},
		{`{{quote .x}}`, `> \# a \<b\>`},
		{`{{json .l}}`, `["\\<i\\>"]`},
		{`{{join .l ", "}}`, `\<i\>`},
		{`{{bullets .pl}}`, "- <p>\n- # q"},
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
		var marks []span
		got, d = b.Execute(data, Env{Mark: func(start, end int) { marks = append(marks, span{start: start, end: end}) }})
		if d != nil || got != tt.want {
			t.Errorf("Execute(%s) marked = %q, %v; want %q", tt.body, got, d, tt.want)
		}
		for _, m := range marks {
			if m.start < 0 || m.end > len(got) || m.start >= m.end {
				t.Errorf("Execute(%s): mark %v outside %q", tt.body, m, got)
			}
		}
	}
}
