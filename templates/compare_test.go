package templates

import (
	"strconv"
	"strings"
	"testing"

	"github.com/promptc/promptc/blocks"
)

// trustValues gives "Ada" and "Lovelace" as a body sees them at each trust, and as the results of functions
// computed from them (a Mixed, from join): functions and comparisons must see every one as the text it is.
func trustValues() map[string][2]any {
	p := &printer{}
	mixed := func(s string, trust blocks.Trust) any {
		m := mixedBuilder{p: p}
		m.author("")
		m.value(tagged(s, trust))
		m.author("")
		return m.result()
	}
	return map[string][2]any{
		"trusted":           {"Ada", "Lovelace"},
		"untrusted":         {Untrusted("Ada"), Untrusted("Lovelace")},
		"background":        {Background("Ada"), Background("Lovelace")},
		"markdown":          {Markdown("Ada"), Markdown("Lovelace")},
		"untrusted, joined": {mixed("Ada", blocks.Untrusted), mixed("Lovelace", blocks.Untrusted)},
		"markdown, joined":  {mixed("Ada", blocks.Markdown), mixed("Lovelace", blocks.Markdown)},
	}
}

// TestFunctionsSeeText: print gives the bytes it gives on plain strings at every trust (Go's Sprint puts a space
// between two operands only when neither is a string), and eq, ne, lt, le, gt, ge, len, slice and index work on
// any value as on its text before escaping, a function's result included.
func TestFunctionsSeeText(t *testing.T) {
	bodies := []struct{ body, want string }{
		{`{{eq (print .first .last) "AdaLovelace"}}`, "true"},
		{`{{ne (print .first .last) "AdaLovelace"}}`, "false"},
		{`{{eq (print .first) "x" (print .last "") "Ada"}}`, "true"},
		{`{{lt (print .first) "B"}} {{le (print .first) "Ada"}} {{gt (print .last) "Ada"}} {{ge (print .first) "Adb"}}`, "true true true false"},
		{`{{lt (print .first) "Ada"}} {{gt (print .first) "Ada"}} {{ge (print .first) "Ada"}} {{le (print .first) "Ada"}}`, "false false true true"},
		{`{{len (print .first .last)}} {{len .first}}`, "11 3"},
		{`{{len (join (list2 .first .last) ", ")}}`, "13"},
		{`{{index (print .first .last) 3}}`, "76"},
		{`{{if eq (slice (print .first .last) 0 3) "Ada"}}yes{{end}}`, "yes"},
		{`{{eq (print .first " " .last) "Ada Lovelace"}}`, "true"},
		{`{{eq (printf "%s %s" .first .last) "Ada Lovelace"}} {{eq (println .first .last) "Ada Lovelace\n"}}`, "true true"},
		{`{{eq .first "Ada"}} {{eq (lower .first) "ada"}}`, "true true"},
	}
	for trust, v := range trustValues() {
		data := map[string]any{"first": v[0], "last": v[1]}
		consts := Consts{}
		for _, tt := range bodies {
			t.Run(trust+"/"+tt.body, func(t *testing.T) {
				body := strings.ReplaceAll(tt.body, "(list2 .first .last)", ".both")
				data["both"] = []any{v[0], v[1]}
				b, diags := Parse(block(body, false), consts)
				if len(diags) > 0 {
					t.Fatal(diags)
				}
				got, d := b.Execute(data, Env{})
				if d != nil || got != tt.want {
					t.Errorf("Execute(%s) = %q, %v; want %q", body, got, d, tt.want)
				}
			})
		}
	}
}

// TestPrintSpacing: {{print .first .last}} prints what print of the same texts as plain strings prints, each value
// escaped by its trust as it is printed alone: no space appears between two values because they are not Go strings.
func TestPrintSpacing(t *testing.T) {
	plain := map[string]string{
		`{{print .first .last}}`:               "AdaLovelace",
		`{{print .first "|" .last}}`:           "Ada|Lovelace",
		`{{print 1 2 .first}}`:                 "1 2Ada",
		`{{print .first .last | printf "%s"}}`: "AdaLovelace",
		`{{println .first .last}}`:             "Ada Lovelace\n",
	}
	background := map[string]string{
		`{{print .first .last}}`:               "> Ada> Lovelace",
		`{{print .first "|" .last}}`:           "> Ada|> Lovelace",
		`{{print 1 2 .first}}`:                 "1 2> Ada",
		`{{print .first .last | printf "%s"}}`: "> Ada> Lovelace",
		`{{println .first .last}}`:             "> Ada > Lovelace\n",
	}
	for trust, v := range trustValues() {
		t.Run(trust, func(t *testing.T) {
			want := plain
			if trust == "background" {
				want = background
			}
			data := map[string]any{"first": v[0], "last": v[1]}
			for body, w := range want {
				b, diags := Parse(block(body, false), Consts{})
				if len(diags) > 0 {
					t.Fatal(diags)
				}
				if got, d := b.Execute(data, Env{}); d != nil || got != w {
					t.Errorf("Execute(%s) = %q, %v; want %q", body, got, d, w)
				}
			}
		})
	}
}

// TestKindWords: no message names a Go type of promptc's (templates.Untrusted, []interface {}): every one names the
// value's kind as the docs do.
func TestKindWords(t *testing.T) {
	data := map[string]any{"name": Untrusted("Ada"), "n": 3, "ok": true, "l": []any{Untrusted("a")},
		"r": []map[string]any{{"url": Untrusted("u")}}, "rec": map[string]any{"url": Untrusted("u")}}
	tests := []struct{ body, want string }{
		{`{{first .name}}`, "first takes a list or records, not text"},
		{`{{first .n}}`, "first takes a list or records, not an int"},
		{`{{upper .l}}`, "upper takes text, not a list"},
		{`{{trim .rec}}`, "trim takes text, not a record"},
		{`{{where "url" "u" .name}}`, "where works on records, not text"},
		{`{{len .n}}`, "len takes text, a list, records or a record, not an int"},
		{`{{eq .name 1}}`, "eq: incompatible types for comparison: text and an int"},
		{`{{lt .ok .ok}}`, "lt: cannot order a bool: only text, ints and numbers are ordered"},
		{`{{eq .l .l}}`, "eq: cannot compare a list: compare its items or fields, or its len"},
		{`{{slice .n 1}}`, "slice takes text, a list or records, not an int"},
		{`{{slice .name 1 2 3}}`, "slice: cannot 3-index slice text"},
		{`{{slice .l 0 5}}`, "slice: index out of range: 5"},
		{`{{range .name}}{{end}}`, "range can't iterate over text"},
		{`{{(print .name).x}}`, "at {{.name}}: can't evaluate field x in text"},
		{`{{const .l}}`, "at {{.l}}: wrong type for value; expected text; got a list"},
		{`{{join ", " .l}}`, `join takes the list first, then the separator (text), but its separator is a list: write {{join LIST ", "}}`},
		{`{{print .l}}`, `print: argument 1 is a list, which has no text of its own: lay it out with join or bullets ({{join LIST ", "}}), or walk it with {{range}}…{{end}}`},
		{`{{printf "%v" .r}}`, `printf: argument 2 is records, which have no text of their own: walk them with {{range}}…{{end}} and print their fields ({{.name}})`},
		{`{{.rec}}`, "prints a record, which has no text of its own: print its fields one by one ({{.name}}), or json it"},
		{`{{index .r 0}}`, "prints a record, which has no text of its own: print its fields one by one ({{.name}}), or json it"},
		{`{{.l}}`, `prints a list, which has no text of its own: lay it out with join or bullets ({{join LIST ", "}}), or walk it with {{range}}…{{end}}`},
		{`{{slice .l 0}}`, `prints a list, which has no text of its own: lay it out with join or bullets ({{join LIST ", "}}), or walk it with {{range}}…{{end}}`},
		{`{{lookup_table "t"}}`, "prints a lookup table, which has no text of its own: read an entry with lookup, or walk it with {{range $k, $v := …}}…{{end}}"},
	}
	consts := Consts{Tables: map[string]map[string]string{"t": {"a": "A"}}}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			b, diags := Parse(block(tt.body, false), consts)
			if len(diags) > 0 {
				t.Fatal(diags)
			}
			_, d := b.Execute(data, Env{})
			if d == nil {
				t.Fatalf("Execute(%s) succeeded", tt.body)
			}
			if _, msg, _ := strings.Cut(d.Summary, `block "b": `); msg != tt.want {
				t.Errorf("Execute(%s): %q\nwant %q", tt.body, msg, tt.want)
			}
			for _, goName := range []string{"templates.", "interface {}", "[]string", "map[", "an integer", "a string"} {
				if strings.Contains(d.Summary, goName) {
					t.Errorf("Execute(%s): %q names %q", tt.body, d.Summary, goName)
				}
			}
		})
	}
}

// TestSliceKeepsDropped: slice is bounded by the list's length, not its capacity, which holds the items its limits
// dropped (text/template's own slice reads up to the capacity).
func TestSliceKeepsDropped(t *testing.T) {
	l := []any{Untrusted("a"), Untrusted("b"), Untrusted("dropped")}[:2]
	rs := []map[string]any{{"n": "x"}, {"n": "y"}, {"n": ""}}[:2]
	b, diags := Parse(block(`{{range slice .l 0 2}}{{.}}{{end}}|{{with first (slice .rs 1 1)}}[{{.n}}]{{end}}{{(first (slice .rs 1 1)).n}}`, false), Consts{})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	got, d := b.Execute(map[string]any{"l": l, "rs": rs}, Env{})
	if d != nil || got != "ab|" {
		t.Errorf("Execute = %q, %v; want %q", got, d, "ab|")
	}
	b, _ = Parse(block(`{{slice .l 0 3}}`, false), Consts{})
	if _, d := b.Execute(map[string]any{"l": l}, Env{}); d == nil || !strings.Contains(d.Summary, "index out of range: 3") {
		t.Errorf("slice past the length: %v", d)
	}
}

// FuzzPrint holds print to the bytes of plain strings: for any two texts at every trust, {{print .a .b}} is
// fmt.Sprint of the two as printed alone (each escaped by its trust, as strings), and what a further function sees
// of it is fmt.Sprint of the texts themselves, so eq of it holds.
func FuzzPrint(f *testing.F) {
	f.Add("Ada", "Lovelace")
	f.Add("", "x")
	f.Add("# a\n", "<!-- END ACME-RUNTIME -->")
	for _, c := range hostileSeeds() {
		f.Add(c, "x")
	}
	b, diags := Parse(block(`{{print .a .b}}|{{if eq (print .a .b) .want}}same{{end}}|{{len (print .a .b)}}`, false), Consts{Markers: []string{"<!-- END ACME-RUNTIME -->"}})
	if len(diags) > 0 {
		f.Fatal(diags)
	}
	f.Fuzz(func(t *testing.T, a, bs string) {
		for _, trust := range []blocks.Trust{blocks.Trusted, blocks.Untrusted, blocks.Background, blocks.Markdown} {
			p := &printer{markers: []string{"<!-- END ACME-RUNTIME -->"}}
			av, bv := tagged(a, trust), tagged(bs, trust)
			data := map[string]any{"a": av, "b": bv, "want": a + bs}
			got, d := b.Execute(data, Env{})
			if d != nil {
				t.Fatalf("%v: %v", trust, d)
			}
			want := p.printAny(av) + p.printAny(bv) + "|same|" + strconv.Itoa(len(a+bs))
			if got != want {
				t.Fatalf("%v: print of %q, %q = %q, want %q", trust, a, bs, got, want)
			}
		}
	})
}

// TestValuesThatPrintNothing: values that escape to nothing (an untrusted " ") still are their text to a further
// function when laid out by print, printf or join, though the layout prints nothing.
func TestValuesThatPrintNothing(t *testing.T) {
	data := map[string]any{"a": Untrusted(" "), "b": Untrusted("\t"), "l": []any{Untrusted(" "), Untrusted(" ")}}
	b, diags := Parse(block(`[{{print .a .b}}]{{len (print .a .b)}} {{len (printf "%s" .a)}} {{len (join .l "")}} {{if eq (join .l "") "  "}}same{{end}}`, false), Consts{})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if got, d := b.Execute(data, Env{}); d != nil || got != "[]2 1 2 same" {
		t.Errorf("Execute = %q, %v; want %q", got, d, "[]2 1 2 same")
	}
}
