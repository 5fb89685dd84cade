package templates

import (
	"maps"
	"testing"
)

// TestPrinted checks that the printed tree (SetPrinted's records) writes exactly what the printer writes, that a
// body reading the data whole never sees the records, and that a record never outlives its value.
func TestPrinted(t *testing.T) {
	markers := []string{"<!-- END -->"}
	c := Consts{Plain: map[string]bool{"plain": true}, Markers: markers}
	raw := map[string]any{
		"x":     Untrusted("# a <b>\nc <!-- END -->"),
		"bg":    Background("line <one>\n## two"),
		"md":    Markdown("# Title"),
		"code":  Fenced("```\ncode\n```"),
		"l":     []any{Untrusted("<i>")},
		"plain": "p",
		"recs":  []map[string]any{{"x": Untrusted("<r>")}},
	}
	withRecords := maps.Clone(raw)
	for k, v := range raw {
		SetPrinted(withRecords, k, v, markers)
	}
	bodies := []string{
		`{{.x}}|{{.bg}}|{{.code}}|{{.md}}|{{.plain}}`,
		`{{$.x}} {{range .l}}{{$.x}}{{.}}{{end}} {{with .plain}}{{$.bg}}{{end}}`,
		`{{if .x}}{{.x}}{{end}}{{.x | printf "%s"}}`,
		`{{len .}} {{range $k, $v := .}}{{$k}}={{json $v}};{{end}}`,
		`{{json .}}`,
		`{{with $}}{{.x}}{{end}}{{.x}}`,
		`{{$d := .}}{{len $d}}{{.x}}`,
		`{{range .recs}}{{.x}}{{end}}{{with .recs}}{{end}}{{.x}}`,
	}
	for _, body := range bodies {
		b, diags := Parse(block(body, false), c)
		if len(diags) > 0 {
			t.Fatalf("%s: %s", body, diags)
		}
		if first := body == bodies[0]; first && b.printed == nil || body == bodies[3] && b.printed != nil {
			t.Errorf("%s: printed tree %v", body, b.printed != nil)
		}
		want, d := b.Execute(raw, Env{})
		if d != nil {
			t.Fatalf("%s: %s", body, d)
		}
		got, d := b.Execute(withRecords, Env{})
		if d != nil || got != want {
			t.Errorf("Execute(%s) with records = %q, %v; without = %q", body, got, d, want)
		}
		for _, level := range []int{0, 2} {
			var marks [][2]int
			env := Env{Level: level, Mark: func(start, end int) { marks = append(marks, [2]int{start, end}) }}
			var wantMarks [][2]int
			wantEnv := Env{Level: level, Mark: func(start, end int) { wantMarks = append(wantMarks, [2]int{start, end}) }}
			w, _ := b.Execute(raw, wantEnv)
			g, _ := b.Execute(withRecords, env)
			if g != w || len(marks) != len(wantMarks) {
				t.Errorf("Execute(%s) with records, level %d, marked = %q, %v; without = %q, %v", body, level, g, marks, w, wantMarks)
			}
		}
	}

	// A record is removed when its variable takes a value that has none, and the body prints the new value.
	SetPrinted(withRecords, "x", nil, markers)
	withRecords["x"] = 7
	b, _ := Parse(block(`{{.x}}`, false), c)
	if got, d := b.Execute(withRecords, Env{}); d != nil || got != `7` {
		t.Errorf("after a new value: %q, %v", got, d)
	}
	if _, ok := withRecords[printedKey("x")]; ok {
		t.Error("the record of an earlier value is still there")
	}
}
