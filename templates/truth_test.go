package templates

import "testing"

// TestRecordTruth: a record is true only when one of its fields is (docs/reference.md, "Nested data"), for every
// test text/template makes (if, with, not, and, or, else if) and for default, as a missing record, one whose fields
// are all empty and a missing nested record show; text/template alone holds every record true.
func TestRecordTruth(t *testing.T) {
	empty := map[string]any{"url": "", "stars": 0, "ok": false, "owner": map[string]any{"login": ""}, "tags": []map[string]any{}}
	nestedOnly := map[string]any{"url": "", "stars": 0, "ok": false, "owner": map[string]any{"login": "ada"}, "tags": []map[string]any{}}
	full := map[string]any{"url": "u", "stars": 0, "ok": false, "owner": map[string]any{"login": ""}, "tags": []map[string]any{}}
	data := map[string]any{"empty": empty, "nested": nestedOnly, "full": full, "x": Untrusted("x"), "none": Untrusted(""),
		"repos": []map[string]any{empty, full}}
	tests := []struct{ name, body, want string }{
		{"if, empty", `{{if .empty}}T{{else}}F{{end}}`, "F"},
		{"if, full", `{{if .full}}T{{else}}F{{end}}`, "T"},
		{"if, only a nested field", `{{if .nested}}T{{else}}F{{end}}`, "T"},
		{"if, missing nested record", `{{if .empty.owner}}T{{else}}F{{end}}`, "F"},
		{"if, nested record", `{{if .nested.owner}}T{{else}}F{{end}}`, "T"},
		{"if with a declaration", `{{if $r := .empty}}T{{else}}F{{end}}`, "F"},
		{"else if", `{{if .none}}A{{else if .empty}}B{{else}}C{{end}}`, "C"},
		{"with, empty", `{{with .empty}}T{{else}}F{{end}}`, "F"},
		{"with, full", `{{with .full}}{{.url}}{{else}}F{{end}}`, "u"},
		{"else with", `{{with .none}}A{{else with .empty}}B{{else}}C{{end}}`, "C"},
		{"not, empty", `{{not .empty}}`, "true"},
		{"not, full", `{{not .full}}`, "false"},
		{"not, text", `{{not .none}} {{not .x}}`, "true false"},
		{"and", `{{if and .x .empty}}T{{else}}F{{end}}`, "F"},
		{"and, full", `{{if and .x .full}}T{{else}}F{{end}}`, "T"},
		{"or", `{{if or .empty .none}}T{{else}}F{{end}}`, "F"},
		{"or gives the next value", `{{or .empty .x}}`, "x"},
		{"or, piped", `{{if .empty | or .none}}T{{else}}F{{end}}`, "F"},
		{"and short-circuits", `{{if and .empty (index .repos 9)}}T{{else}}F{{end}}`, "F"},
		{"default", `{{with default .full .empty}}{{.url}}{{end}}`, "u"},
		{"first record", `{{if first .repos}}T{{else}}F{{end}}`, "F"},
		{"last record", `{{if last .repos}}T{{else}}F{{end}}`, "T"},
		{"range item", `{{range .repos}}{{if .}}T{{else}}F{{end}}{{end}}`, "FT"},
		{"range item, with", `{{range .repos}}{{with .}}{{.url}}{{else}}-{{end}}{{end}}`, "-u"},
		{"index", `{{if index .repos 0}}T{{else}}F{{end}}`, "F"},
		{"a template variable", `{{$r := .empty}}{{if $r}}T{{else}}F{{end}}{{with $r}}T{{else}}F{{end}}{{not $r}}`, "FFtrue"},
		{"a variable assigned later", `{{$y := ""}}{{$x := $y}}{{range .repos}}{{$x = $y}}{{$y = .}}{{end}}{{if $x}}T{{else}}F{{end}}`, "F"},
		{"a range item variable", `{{range $i, $r := .repos}}{{if $i}}-{{end}}{{if $r}}T{{else}}F{{end}}{{end}}`, "F-T"},
		{"a range item variable of and", `{{range $r := .repos}}{{if and $r $.x}}T{{else}}F{{end}}{{end}}`, "FT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, diags := Parse(block(tt.body, false), Consts{})
			if len(diags) > 0 {
				t.Fatal(diags)
			}
			got, d := b.Execute(data, Env{})
			if d != nil || got != tt.want {
				t.Errorf("Execute(%q) = %q, %v; want %q", tt.body, got, d, tt.want)
			}
		})
	}
	for _, tt := range []struct {
		v    any
		want bool
	}{{empty, false}, {nestedOnly, true}, {full, true}, {map[string]any{}, false}, {0.0, false}, {uint8(1), true}} {
		if got := Truthy(tt.v); got != tt.want {
			t.Errorf("Truthy(%v) = %v, want %v", tt.v, got, tt.want)
		}
	}
}
