package values_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/values"
)

// TestLoadPortKeys: the keys for a platform's own bytes (docs/reference.md#varsname) are read as written, on
// variables and fields.
func TestLoadPortKeys(t *testing.T) {
	p, diags := values.Load(with(base, manifestWith(`final_newline = false # in [turn]
[vars.message]
scope         = "turn"
type          = "text"
trust         = "trusted"
verbatim      = true
keep_newlines = true

[vars.context]
scope       = "session"
type        = "list"
trust       = "background"
quote_empty = "> "

[vars.issues]
scope = "session"
type  = "records"
key   = "slug"
[vars.issues.fields.slug]
type = "string"
[vars.issues.fields.meta]
type    = "record"
decode  = "json"
unknown = "ignore"
raw     = "meta_text"
[vars.issues.fields.meta.fields.url]
type = "string"
[vars.issues.fields.meta_text]
type          = "text"
trust         = "markdown"
keep_newlines = true
`)))
	if len(diags) > 0 {
		t.Fatalf("diagnostics:\n%s", diags)
	}
	if m := p.Vars["message"]; !m.Verbatim || !m.KeepNewlines || m.EmptyQuote != blocks.EmptyQuoteBare {
		t.Errorf("message = %+v", m)
	}
	if c := p.Vars["context"]; c.EmptyQuote != blocks.EmptyQuoteSpace || c.Verbatim || c.KeepNewlines {
		t.Errorf("context = %+v", c)
	}
	issues := p.Vars["issues"]
	if issues.Key != "slug" || issues.Unknown != blocks.UnknownError {
		t.Errorf("issues = %+v", issues)
	}
	if m := issues.Field("meta"); m.Unknown != blocks.UnknownIgnore || m.Raw != "meta_text" || m.Decode != blocks.DecodeJSON {
		t.Errorf("meta = %+v", m)
	}
	if m := issues.Field("meta_text"); !m.KeepNewlines || m.Trust != blocks.Markdown {
		t.Errorf("meta_text = %+v", m)
	}
	if p.Runbook.OmitFinalNewline || !p.Turn.OmitFinalNewline {
		t.Errorf("[turn] final_newline = false: runbook %v, turn %v", p.Runbook.OmitFinalNewline, p.Turn.OmitFinalNewline)
	}
	// final_newline = false at the top applies to both parts; a part's own key wins.
	p, diags = values.Load(with(base, "-- promptc.toml --\nname = \"acme\"\ntasks = [\"issue\", \"chat\"]\nfinal_newline = false\n\n[runbook]\norder = [\"intro\"]\nfinal_newline = true\n\n[turn]\norder = [\"ask\"]\n"))
	if len(diags) > 0 || p.Runbook.OmitFinalNewline || !p.Turn.OmitFinalNewline {
		t.Errorf("[runbook] final_newline = true: runbook %v, turn %v\n%s", p.Runbook.OmitFinalNewline, p.Turn.OmitFinalNewline, diags)
	}
	p, _ = values.Load(archive(base))
	if p.Runbook.OmitFinalNewline || p.Turn.OmitFinalNewline {
		t.Error("by default, artifacts end with their final newline")
	}
}

// TestLoadPortKeyErrors: each of those keys, where it does not apply or with a wrong value, is an error at its
// line and column that says what to do.
func TestLoadPortKeyErrors(t *testing.T) {
	records := func(field string) string {
		return "[vars.r]\nscope = \"session\"\ntype = \"records\"\n[vars.r.fields.t]\ntype = \"text\"\n[vars.r.fields.n]\ntype = \"int\"\n[vars.r.fields.m]\ntype = \"record\"\n" + field + "[vars.r.fields.m.fields.u]\ntype = \"string\"\n"
	}
	tests := []struct {
		name, vars, want string
	}{
		{
			name: "[turn] final_newline of the wrong type",
			vars: "final_newline = \"no\"\n",
			want: "promptc.toml:9:1: final_newline must be true or false, not a string\n",
		},
		{
			name: "verbatim on an untrusted value, on an int",
			vars: "[vars.a]\nscope = \"session\"\ntype = \"text\"\nverbatim = true\n[vars.b]\nscope = \"session\"\ntype = \"int\"\nverbatim = true\n",
			want: "promptc.toml:12:1: verbatim applies only to trusted values (trust = \"trusted\"): every other trust turns CR into LF when it escapes; variable \"a\" has trust untrusted\n" +
				"promptc.toml:16:1: verbatim applies only to string, text and list variables; \"b\" is of type int\n",
		},
		{
			name: "keep_newlines with trim, on a background value, on a list",
			vars: "[vars.a]\nscope = \"session\"\ntype = \"text\"\ntrust = \"trusted\"\ntrim = true\nkeep_newlines = true\n" +
				"[vars.b]\nscope = \"session\"\ntype = \"text\"\ntrust = \"background\"\nkeep_newlines = true\n" +
				"[vars.c]\nscope = \"session\"\ntype = \"list\"\ntrust = \"trusted\"\nkeep_newlines = true\n",
			want: "promptc.toml:14:1: keep_newlines keeps the white space at the edges of variable \"a\", which trim = true removes: remove one of them\n" +
				"promptc.toml:19:1: keep_newlines applies only to trusted and markdown values, which print their newlines (untrusted values print none, background and code values begin and end with their quote or fence); variable \"b\" has trust background\n" +
				"promptc.toml:24:1: keep_newlines applies only to string and text variables; \"c\" is of type list\n",
		},
		{
			name: "quote_empty of a bad value, on a trusted value",
			vars: "[vars.a]\nscope = \"session\"\ntype = \"text\"\ntrust = \"background\"\nquote_empty = \">>\"\n[vars.b]\nscope = \"session\"\ntype = \"text\"\ntrust = \"trusted\"\nquote_empty = \"> \"\n",
			want: "promptc.toml:13:15: quote_empty must be \">\" (an empty line of the value is quoted as \">\") or \"> \" (as \"> \", with the space every other line has), not \">>\"\n" +
				"promptc.toml:18:1: quote_empty applies only to background values (trust = \"background\"), which are quoted; variable \"b\" has trust trusted\n",
		},
		{
			name: "unknown without decode, and of a bad value",
			vars: "[vars.a]\nscope = \"session\"\ntype = \"record\"\nunknown = \"ignore\"\n[vars.a.fields.u]\ntype = \"string\"\n" +
				"[vars.b]\nscope = \"session\"\ntype = \"record\"\ndecode = \"json\"\nunknown = \"skip\"\n[vars.b.fields.u]\ntype = \"string\"\n",
			want: "promptc.toml:12:1: unknown says what a key of a JSON text that no field declares does, but record variable \"a\" has no decode: add decode = \"json\", or remove unknown\n" +
				"promptc.toml:19:11: unknown must be \"error\" (a key of the JSON text that no field declares is a value error) or \"ignore\" (it is left out, as Go's json.Unmarshal does), not \"skip\"\n",
		},
		{
			name: "raw without decode",
			vars: records("raw = \"t\"\n"),
			want: "promptc.toml:18:1: raw names the field that receives a JSON text that does not decode, but field \"m\" of \"r\" has no decode: add decode = \"json\", or remove raw\n",
		},
		{
			name: "raw with invalid",
			vars: records("decode = \"json\"\ninvalid = \"empty\"\nraw = \"t\"\n"),
			want: "promptc.toml:20:1: raw already says what a JSON text that does not decode does (field \"m\" of \"r\" is left at its zero value and the text goes to field \"t\"): remove invalid\n",
		},
		{
			name: "raw naming no field",
			vars: records("decode = \"json\"\nraw = \"tt\"\n"),
			want: "promptc.toml:19:7: raw of field \"m\" of \"r\" names \"tt\", which is not a field of the same record (did you mean \"t\"?): declare [vars.r.fields.tt] with type = \"text\"\n",
		},
		{
			name: "raw naming an int field",
			vars: records("decode = \"json\"\nraw = \"n\"\n"),
			want: "promptc.toml:19:7: raw of field \"m\" of \"r\" names field \"n\", which is of type int: the text it receives needs a string or text field\n",
		},
		{
			name: "raw naming the field itself",
			vars: records("decode = \"json\"\nraw = \"m\"\n"),
			want: "promptc.toml:19:7: raw of field \"m\" of \"r\" names the field itself: name a string or text field of the same record that receives the text\n",
		},
		{
			name: "raw naming a required field",
			vars: "[vars.r]\nscope = \"session\"\ntype = \"records\"\n[vars.r.fields.t]\ntype = \"text\"\nrequired = true\n[vars.r.fields.m]\ntype = \"record\"\ndecode = \"json\"\nraw = \"t\"\n[vars.r.fields.m.fields.u]\ntype = \"string\"\n",
			want: "promptc.toml:18:7: raw of field \"m\" of \"r\" names field \"t\", which is required: a field filled only when a text does not decode cannot be required; remove required = true from it\n",
		},
		{
			name: "two raws naming one field",
			vars: records("decode = \"json\"\nraw = \"t\"\n") + "[vars.r.fields.o]\ntype = \"record\"\ndecode = \"json\"\nraw = \"t\"\n[vars.r.fields.o.fields.u]\ntype = \"string\"\n",
			want: "promptc.toml:25:7: raw of field \"o\" of \"r\" names field \"t\", which field \"m\" names already: give each its own field\n",
		},
		{
			name: "key on a list, naming no field, naming an int, not a name",
			vars: "[vars.a]\nscope = \"session\"\ntype = \"list\"\nkey = \"x\"\n" +
				"[vars.b]\nscope = \"session\"\ntype = \"records\"\nkey = \"nam\"\n[vars.b.fields.name]\ntype = \"string\"\n" +
				"[vars.c]\nscope = \"session\"\ntype = \"records\"\nkey = \"n\"\n[vars.c.fields.n]\ntype = \"int\"\n" +
				"[vars.d]\nscope = \"session\"\ntype = \"records\"\nkey = \"Name\"\n[vars.d.fields.n]\ntype = \"string\"\n",
			want: "promptc.toml:12:1: key applies only to records variables; \"a\" is of type list\n" +
				"promptc.toml:16:7: key of variable \"b\" names \"nam\", which is not one of its fields (did you mean \"name\"?): declare [vars.b.fields.nam] with type = \"string\" (and the trust its names deserve)\n" +
				"promptc.toml:22:7: key of variable \"c\" names field \"n\", which is of type int: a record's name is a string; declare it with type = \"string\"\n" +
				"promptc.toml:28:7: key of variable \"d\" must name one of its fields ([a-z][a-z0-9_]*), not \"Name\"\n",
		},
		{
			name: "raw naming the key",
			vars: "[vars.r]\nscope = \"session\"\ntype = \"records\"\nkey = \"t\"\n[vars.r.fields.t]\ntype = \"string\"\n[vars.r.fields.m]\ntype = \"record\"\ndecode = \"json\"\nraw = \"t\"\n[vars.r.fields.m.fields.u]\ntype = \"string\"\n",
			want: "promptc.toml:18:7: raw of field \"m\" of \"r\" names field \"t\", which holds the record's key (key = \"t\"): name another field\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := values.Load(with(base, manifestWith(tt.vars)))
			if got := diags.String(); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// metaVar is a records variable whose field meta is a JSON column: decoded, with the keys of unknown and raw given.
func metaVar(unknown blocks.Unknown, raw string) *blocks.Var {
	meta := &blocks.Var{Name: "meta", Type: blocks.TypeRecord, Decode: blocks.DecodeJSON, Unknown: unknown, Raw: raw, Fields: []*blocks.Var{
		{Name: "owner", Type: blocks.TypeRecord, Fields: []*blocks.Var{{Name: "login", Type: blocks.TypeString}}},
		{Name: "tags", Type: blocks.TypeRecords, Decode: blocks.DecodeJSON, Fields: []*blocks.Var{{Name: "label", Type: blocks.TypeString}}},
		{Name: "url", Type: blocks.TypeString},
	}}
	return &blocks.Var{Name: "issues", Type: blocks.TypeRecords, Fields: []*blocks.Var{meta, {Name: "meta_text", Type: blocks.TypeText}, {Name: "title", Type: blocks.TypeString}}}
}

// TestDecodeUnknownIgnore: with unknown = "ignore", a JSON text's keys that no field declares are left out, in every
// object of the text, as json.Unmarshal leaves them; without it they make the text not fit. A nested field whose
// value in the text is a JSON text of its own reads it with its own unknown, and a record given as a table is
// checked as always.
func TestDecodeUnknownIgnore(t *testing.T) {
	text := `{"url": "https://a", "extra": 1, "owner": {"login": "ada", "id": 7}, "tags": [{"label": "x", "color": "red"}]}`
	want := map[string]any{"url": "https://a", "owner": map[string]any{"login": "ada"}, "tags": []map[string]any{{"label": "x"}}}
	got, errs := values.TypeCheckAll(metaVar(blocks.UnknownIgnore, ""), []any{map[string]any{"meta": text}}, values.FormatTOML)
	if len(errs) > 0 {
		t.Fatalf("unknown = ignore: %v", errs[0])
	}
	if m := got.([]map[string]any)[0]["meta"]; !equalJSON(m, want) {
		t.Errorf("meta = %#v, want %#v", m, want)
	}
	_, errs = values.TypeCheckAll(metaVar(blocks.UnknownError, ""), []any{map[string]any{"meta": text}}, values.FormatTOML)
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Summary)
	}
	wantErrs := []string{
		`variable "issues", record 1, field "meta" has undeclared field "extra" (declared: owner, tags, url), in the JSON text it was given`,
		`variable "issues", record 1, field "meta", field "owner" has undeclared field "id" (declared: login), in the JSON text it was given`,
		`variable "issues", record 1, field "meta", field "tags", record 1 has undeclared field "color" (declared: label), in the JSON text it was given`,
	}
	if strings.Join(msgs, "\n") != strings.Join(wantErrs, "\n") {
		t.Errorf("unknown = error:\n%s\nwant:\n%s", strings.Join(msgs, "\n"), strings.Join(wantErrs, "\n"))
	}
	// tags given as a JSON text inside the text: read with tags' own unknown (error).
	inner := `{"url": "u", "tags": "[{\"label\": \"x\", \"color\": \"red\"}]"}`
	if _, errs := values.TypeCheckAll(metaVar(blocks.UnknownIgnore, ""), []any{map[string]any{"meta": inner}}, values.FormatTOML); len(errs) != 1 || !strings.Contains(errs[0].Summary, `undeclared field "color"`) {
		t.Errorf("a nested JSON text of its own: %v", errs)
	}
	// A table is not a JSON text: its undeclared keys are errors whatever unknown says.
	table := map[string]any{"url": "u", "extra": 1}
	if _, errs := values.TypeCheckAll(metaVar(blocks.UnknownIgnore, ""), []any{map[string]any{"meta": table}}, values.FormatTOML); len(errs) != 1 || !errs[0].Undeclared {
		t.Errorf("a table with an undeclared key: %v", errs)
	}
}

// TestDecodeRaw: with raw = "meta_text", a JSON text that is not valid JSON, or does not fit, leaves meta at its zero
// record and puts the text, byte for byte, in meta_text, replacing what the record gives it; a text that decodes
// leaves meta_text as the record gives it. The check of a checked value gives it back unchanged.
func TestDecodeRaw(t *testing.T) {
	v := metaVar(blocks.UnknownError, "meta_text")
	zero := map[string]any{"url": "", "owner": map[string]any{"login": ""}, "tags": []map[string]any{}}
	tests := []struct {
		name     string
		record   map[string]any
		meta     map[string]any
		metaText string
	}{
		{"decodes", map[string]any{"meta": `{"url": "u"}`}, map[string]any{"url": "u", "owner": map[string]any{"login": ""}, "tags": []map[string]any{}}, ""},
		{"decodes, meta_text given", map[string]any{"meta": `{"url": "u"}`, "meta_text": "kept"}, map[string]any{"url": "u", "owner": map[string]any{"login": ""}, "tags": []map[string]any{}}, "kept"},
		{"not JSON", map[string]any{"meta": "{not json\r\n"}, zero, "{not json\r\n"},
		{"does not fit", map[string]any{"meta": `{"url": 3}`, "meta_text": "replaced"}, zero, `{"url": 3}`},
		{"an undeclared key", map[string]any{"meta": `{"url": "u", "x": 1}`}, zero, `{"url": "u", "x": 1}`},
		{"a table", map[string]any{"meta": map[string]any{"url": "u"}}, map[string]any{"url": "u", "owner": map[string]any{"login": ""}, "tags": []map[string]any{}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, errs := values.TypeCheckAll(v, []any{tt.record}, values.FormatJSON)
			if len(errs) > 0 {
				t.Fatalf("CheckAll: %v", errs[0])
			}
			rec := got.([]map[string]any)[0]
			if !equalJSON(rec["meta"], tt.meta) || rec["meta_text"] != tt.metaText {
				t.Errorf("meta = %#v, meta_text = %q; want %#v, %q", rec["meta"], rec["meta_text"], tt.meta, tt.metaText)
			}
			again, errs := values.TypeCheckAll(v, got, values.FormatGo)
			if len(errs) > 0 || !equalJSON(again, got) {
				t.Errorf("checked again: %#v, %v", again, errs)
			}
		})
	}
	// Without raw, the same text is an error.
	if _, errs := values.TypeCheckAll(metaVar(blocks.UnknownError, ""), []any{map[string]any{"meta": "{not json"}}, values.FormatJSON); len(errs) != 1 {
		t.Errorf("without raw: %v", errs)
	}
	// The text counts against the value's size, as every string does: a record's fields are bounded together.
	big := strings.Repeat("x", blocks.MaxValueBytes)
	if _, errs := values.TypeCheckAll(v, []any{map[string]any{"meta": big, "title": "t"}}, values.FormatJSON); len(errs) != 1 || !strings.Contains(errs[0].Summary, "more than the 64 MiB") {
		t.Errorf("a text over the value limit: %v", errs)
	}
}

// equalJSON compares two checked values through their JSON encodings (ints, maps and slices alike).
func equalJSON(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

// FuzzDecodeOptions feeds any text to a JSON column read with unknown = "ignore" and raw: no input may panic, the
// value is never refused (raw takes what does not decode), and meta_text is either empty or the text itself.
func FuzzDecodeOptions(f *testing.F) {
	for _, s := range []string{
		`{"url": "u", "extra": 1}`, `{"owner": {"login": "a", "id": 1}}`, `{"tags": [{"label": "x", "c": 1}]}`,
		`{"tags": "[{\"label\": 1}]"}`, `{`, `null`, `[]`, `{"url": "u"} {}`, "\"\\ud800\"", `{"url": "\u0000"}`,
	} {
		f.Add(s)
	}
	v := metaVar(blocks.UnknownIgnore, "meta_text")
	f.Fuzz(func(t *testing.T, text string) {
		got, errs := values.TypeCheckAll(v, []any{map[string]any{"meta": text}}, values.FormatJSON)
		if len(errs) > 0 {
			if len(text) <= blocks.MaxValueBytes/2 {
				t.Fatalf("CheckAll(%q): %v", text, errs[0])
			}
			return
		}
		rec := got.([]map[string]any)[0]
		if mt := rec["meta_text"]; mt != "" && mt != text {
			t.Fatalf("meta_text = %q for %q", mt, text)
		}
		if _, ok := rec["meta"].(map[string]any)["url"].(string); !ok {
			t.Fatalf("meta = %#v for %q", rec["meta"], text)
		}
	})
}

// TestDecodeOptionsInPlace: unknown = "ignore" and raw hold for the records a values file's decoder made, which the
// check changes in place (ownRecords), and for CheckShared, which copies a record only where it must and never
// changes what it is given; the checked value is the one CheckAll gives.
func TestDecodeOptionsInPlace(t *testing.T) {
	metaJSON := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	ignore := `{"url": "https://a", "extra": 1, "owner": {"login": "ada", "id": 7}, "tags": [{"label": "x", "color": "red"}]}`
	bad := `{"url": 3}`
	file := `{"issues": [{"meta": ` + metaJSON(ignore) + `, "title": "a"}, {"meta": ` + metaJSON(bad) + `, "meta_text": "given", "title": "b"}]}`
	v := metaVar(blocks.UnknownIgnore, "meta_text")
	want, errs := values.TypeCheckAll(v, []any{
		map[string]any{"meta": ignore, "title": "a"},
		map[string]any{"meta": bad, "meta_text": "given", "title": "b"},
	}, values.FormatJSON)
	recs, ok := want.([]map[string]any)
	if len(errs) > 0 || !ok {
		t.Fatalf("CheckAll = %#v, %v", want, errs)
	}
	if recs[1]["meta_text"] != bad || !equalJSON(recs[0]["meta"], map[string]any{"url": "https://a", "owner": map[string]any{"login": "ada"}, "tags": []map[string]any{{"label": "x"}}}) {
		t.Fatalf("CheckAll = %#v", recs)
	}
	p := &blocks.Project{Vars: map[string]*blocks.Var{"issues": v}}
	vals, _, diags := values.ReadFile(p, "v.json", []byte(file), blocks.ScopeSession)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if !equalJSON(vals["issues"], want) {
		t.Errorf("ReadValues:\n%#v\nwant\n%#v", vals["issues"], want)
	}
	// CheckShared of what the decoder would give: the records that need the text in meta_text, or lack fields, are
	// copies; the input is as it was.
	given := []map[string]any{
		{"meta": ignore, "title": "a"},
		{"meta": bad, "meta_text": "given", "title": "b"},
	}
	got, err := values.TypeCheckShared(v, given, values.FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	if !equalJSON(got, want) {
		t.Errorf("CheckShared:\n%#v\nwant\n%#v", got, want)
	}
	if given[0]["meta"] != ignore || len(given[0]) != 2 || given[1]["meta"] != bad || given[1]["meta_text"] != "given" || len(given[1]) != 3 {
		t.Errorf("CheckShared changed its input: %#v", given)
	}
	// The checked value, checked again, is kept as it is: no record is copied.
	again, err := values.TypeCheckShared(v, want, values.FormatGo)
	if err != nil {
		t.Fatal(err)
	}
	if a := again.([]map[string]any); &a[0] != &recs[0] {
		t.Errorf("a checked value with raw texts was copied when checked again")
	}
}

// TestDecodeTextProblemsCapped: the problems of the JSON texts a values file gives count towards its
// MaxValuesDiagnostics like any other, a text's own problems included, and only the listed ones are put into words;
// the texts raw takes are no problems at all.
func TestDecodeTextProblemsCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"issues": [`)
	for i := range 300 {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(`{"meta": "{not json", "title": "t"}`)
	}
	b.WriteString("]}")
	in := []byte(b.String())
	p := &blocks.Project{Vars: map[string]*blocks.Var{"issues": metaVar(blocks.UnknownError, "")}}
	_, _, diags := values.ReadFile(p, "v.json", in, blocks.ScopeSession)
	if len(diags) != values.MaxDiagnostics+1 {
		t.Fatalf("%d diagnostics, want %d", len(diags), values.MaxDiagnostics+1)
	}
	first := `v.json:1:14: variable "issues", record 1, field "meta" is a record with decode = "json", but its text is not valid JSON at 1:2 of the text: invalid character 'n' looking for beginning of object key string`
	if got := diags[0].String(); got != first {
		t.Errorf("first:\n%s\nwant\n%s", got, first)
	}
	if got := diags[len(diags)-1].Summary; !strings.HasPrefix(got, "200 more problems are not listed") {
		t.Errorf("last: %s", got)
	}
	p = &blocks.Project{Vars: map[string]*blocks.Var{"issues": metaVar(blocks.UnknownError, "meta_text")}}
	if vals, _, diags := values.ReadFile(p, "v.json", in, blocks.ScopeSession); len(diags) > 0 || len(vals["issues"].([]map[string]any)) != 300 {
		t.Errorf("with raw: %d values, diagnostics %s", len(vals), diags)
	}
	// One text with more duplicate keys than the limit: the first ones are listed, the rest counted.
	var text strings.Builder
	text.WriteString(`{"url": "u"`)
	for range 150 {
		text.WriteString(`, "url": "u"`)
	}
	text.WriteString("}")
	p = &blocks.Project{Vars: map[string]*blocks.Var{"issues": metaVar(blocks.UnknownError, "")}}
	raw, _ := json.Marshal(text.String())
	_, _, diags = values.ReadFile(p, "v.json", []byte(`{"issues": [{"meta": `+string(raw)+`}]}`), blocks.ScopeSession)
	// The duplicates are 12 bytes apart from 1:14: the 100th at 1:1202, the first left out at 1:1214.
	all := diags.String()
	if len(diags) != values.MaxDiagnostics+1 || !strings.Contains(all, `its JSON text is refused at 1:14 of the text: duplicate key "url" (first at 1:2)`) ||
		!strings.Contains(all, "at 1:1202 of the text") || strings.Contains(all, "at 1:1214 of the text") ||
		!strings.HasPrefix(diags[len(diags)-1].Summary, "50 more problems are not listed") {
		t.Errorf("%d diagnostics, the first %s, the last %s", len(diags), diags[0], diags[len(diags)-1])
	}
}
