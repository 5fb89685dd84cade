package templates

import "testing"

// TestEmpty: empty is true for a value that holds nothing, whatever its trust, and for a record whose fields are
// all empty at every depth (a platform's present but empty object); a record with one field set is not empty.
func TestEmpty(t *testing.T) {
	zero := func() map[string]any {
		return map[string]any{"name": Untrusted(""), "dir": "", "n": 0, "ok": false, "tags": []map[string]any{}, "ref": map[string]any{"url": ""}}
	}
	set := zero()
	set["ref"] = map[string]any{"url": "https://x"}
	withRecord := zero()
	withRecord["tags"] = []map[string]any{{"x": ""}}
	data := map[string]any{
		"text": Untrusted(""), "spaces": Untrusted(" "), "md": Markdown(""), "bg": Background("x"), "code": Fenced(""),
		"n": 0, "m": 2, "no": false, "list": []any{}, "one": []any{Untrusted("")}, "strs": []string{},
		"zero": zero(), "nested": set, "withRecord": withRecord,
		"none": withZero(nil, []map[string]any{zero()}[:0]), "recs": []map[string]any{zero()},
	}
	tests := []struct{ body, want string }{
		{`{{empty .text}} {{empty .spaces}} {{empty .md}} {{empty .bg}} {{empty .code}}`, "true false true false true"},
		{`{{empty .n}} {{empty .m}} {{empty .no}} {{empty true}} {{empty ""}} {{empty "x"}}`, "true false true false true false"},
		{`{{empty .list}} {{empty .one}} {{empty .strs}}`, "true false true"},
		// A record: empty when every field is, nested records included; one field set anywhere makes it present.
		{`{{empty .zero}} {{empty .nested}} {{empty .withRecord}}`, "true false false"},
		// Records: empty when there are none; one record, even an empty one, is something.
		{`{{empty .none}} {{empty .recs}} {{empty (first .none)}} {{empty (first .recs)}}`, "true false true true"},
		{`{{if not (empty .zero)}}<INFO>{{.zero.name}}</INFO>{{else}}none{{end}}`, "none"},
		{`{{$d := dict}}{{empty $d}}{{$_ := set $d "a" 1}}{{empty $d}}`, "truefalse"},
		{`{{range .recs}}{{if empty .}}an empty record{{end}}{{end}}`, "an empty record"},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			got, err := run(t, tt.body, data)
			if err != "" || got != tt.want {
				t.Errorf("%s = %q, error %q; want %q", tt.body, got, err, tt.want)
			}
		})
	}
}
