package templates

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/promptc/promptc/blocks"
)

// emptyQuoteLines turns every line of a quote that is ">" alone into "> ".
var emptyQuoteLines = regexp.MustCompile(`(?m)^>$`)

// TestEscapeBackgroundQuoting: with blocks.EmptyQuoteSpace every empty line of a background value is quoted as
// "> " (docs/reference.md#trust-levels), and nothing else changes: each of the background cases gives EscapeBackground's
// result with its ">" lines spaced; with blocks.EmptyQuoteBare it is EscapeBackground.
func TestEscapeBackgroundQuoting(t *testing.T) {
	for _, tt := range backgroundTests {
		t.Run(tt.name, func(t *testing.T) {
			want := emptyQuoteLines.ReplaceAllString(tt.want, "> ")
			if got := EscapeBackgroundQuoting(tt.in, blocks.EmptyQuoteSpace); got != want {
				t.Errorf("EscapeBackgroundQuoting(%q, \"> \") = %q, want %q", tt.in, got, want)
			}
			if got := EscapeBackgroundQuoting(tt.in, blocks.EmptyQuoteBare); got != tt.want {
				t.Errorf("EscapeBackgroundQuoting(%q, \">\") = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	for in, want := range map[string]string{
		"a\n\nb": "> a\n> \n> b", "\n": "> \n> ", "a\n": "> a\n> ", "\u200b\n\u200b": "> \n> ", "\x00": "",
	} {
		if got := EscapeBackgroundQuoting(in, blocks.EmptyQuoteSpace); got != want {
			t.Errorf("EscapeBackgroundQuoting(%q, \"> \") = %q, want %q", in, got, want)
		}
	}
}

func FuzzEscapeBackgroundQuoting(f *testing.F) {
	for _, tt := range backgroundTests {
		f.Add(tt.in)
	}
	for _, c := range hostileSeeds() {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := EscapeBackgroundQuoting(in, blocks.EmptyQuoteSpace)
		if want := emptyQuoteLines.ReplaceAllString(EscapeBackground(in), "> "); out != want {
			t.Fatalf("EscapeBackgroundQuoting(%q) = %q, want %q", in, out, want)
		}
		if !utf8.ValidString(out) {
			t.Fatalf("EscapeBackgroundQuoting(%q) = %q: invalid UTF-8", in, out)
		}
		for _, line := range strings.Split(out, "\n") {
			if out != "" && !strings.HasPrefix(line, "> ") {
				t.Fatalf("EscapeBackgroundQuoting(%q) = %q: line %q does not start with \"> \"", in, out, line)
			}
		}
	})
}

// TestPrepareVerbatim: a verbatim trusted value keeps its CRs, through trim, pattern and limits; without verbatim
// they become LF. Format characters are kept by every trusted value.
func TestPrepareVerbatim(t *testing.T) {
	in := " one\r\ntwo\rthree\u200b\u202e "
	tests := []struct {
		name string
		v    blocks.Var
		want any
	}{
		{"verbatim", blocks.Var{Name: "x", Trust: blocks.Trusted, Verbatim: true}, " one\r\ntwo\rthree\u200b\u202e "},
		{"verbatim, trim and a limit", blocks.Var{Name: "x", Trust: blocks.Trusted, Verbatim: true, Trim: true, MaxRunes: 9}, "one\r\ntwo\r…"},
		{"default", blocks.Var{Name: "x", Trust: blocks.Trusted}, " one\ntwo\nthree\u200b\u202e "},
		{"a list", blocks.Var{Name: "x", Type: blocks.TypeList, Trust: blocks.Trusted, Verbatim: true}, []string{"a\r\nb"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := any(in)
			if tt.v.Type == blocks.TypeList {
				raw = []string{"a\r\nb"}
			}
			got, _, err := Prepare(&tt.v, raw, nil)
			if err != nil {
				t.Fatal(err)
			}
			if s, ok := got.([]string); ok {
				if len(s) != 1 || s[0] != tt.want.([]string)[0] {
					t.Errorf("Prepare = %q, want %q", s, tt.want)
				}
				return
			}
			if got != tt.want {
				t.Errorf("Prepare = %q, want %q", got, tt.want)
			}
		})
	}
	// A pattern sees the CR too: a value that must be one line is refused with it.
	v := &blocks.Var{Name: "x", Trust: blocks.Trusted, Verbatim: true, Pattern: regexp.MustCompile(`^(?:[a-z]+)$`)}
	if _, _, err := Prepare(v, "ab\r", nil); err == nil {
		t.Error("a verbatim value with a CR matched [a-z]+")
	}
}

// TestPrepareQuoteEmpty: a background value with quote_empty = "> " prints its empty lines as "> ", alone, as a
// list's items and as a record's field, with its markers broken; functions still see the text before escaping,
// and an empty value stays empty.
func TestPrepareQuoteEmpty(t *testing.T) {
	markers := []string{"<!-- END X -->"}
	v := &blocks.Var{Name: "bg", Type: blocks.TypeText, Trust: blocks.Background, EmptyQuote: blocks.EmptyQuoteSpace}
	got, _, err := Prepare(v, "a\r\n\r\n<!-- END X -->\n", markers)
	if err != nil {
		t.Fatal(err)
	}
	if p, want := Printed(got, markers), "> a\n> \n> \\<!-- END X --\\>\n> "; p != want {
		t.Errorf("printed %q, want %q", p, want)
	}
	if raw, trust, ok := textOf(got); !ok || raw != "a\n\n<!-- END X -->\n" || trust != blocks.Background {
		t.Errorf("functions see %q (%v, %v)", raw, trust, ok)
	}
	if got, _, _ := Prepare(v, "\u200b", markers); got != "" || Truthy(got) {
		t.Errorf("an invisible value: %#v", got)
	}
	list := &blocks.Var{Name: "l", Type: blocks.TypeList, Trust: blocks.Background, EmptyQuote: blocks.EmptyQuoteSpace}
	items, _, _ := Prepare(list, []string{"x\n\ny", "z"}, markers)
	if p := Printed(items, markers); len(p.([]string)) != 2 || p.([]string)[0] != "> x\n> \n> y" || p.([]string)[1] != "> z" {
		t.Errorf("list printed %q", p)
	}
	rec := &blocks.Var{Name: "r", Type: blocks.TypeRecord, Fields: []*blocks.Var{{Name: "body", Type: blocks.TypeText, Trust: blocks.Background, EmptyQuote: blocks.EmptyQuoteSpace}}}
	r, _, _ := Prepare(rec, map[string]any{"body": "p\n\nq"}, markers)
	if p := Printed(r, markers).(map[string]any)["body"]; p != "> p\n> \n> q" {
		t.Errorf("field printed %q", p)
	}
	// The default is ">", as EscapeBackground.
	plain := &blocks.Var{Name: "bg", Type: blocks.TypeText, Trust: blocks.Background}
	if got, _, _ := Prepare(plain, "a\n\nb", nil); Printed(got, nil) != "> a\n>\n> b" {
		t.Errorf("default printed %q", Printed(got, nil))
	}
}

// TestPrepareKeyedNames: a value error in keyed records names the record by its name, at any depth.
func TestPrepareKeyedNames(t *testing.T) {
	lower := regexp.MustCompile(`^(?:[a-z]+)$`)
	hosts := &blocks.Var{Name: "hosts", Type: blocks.TypeRecords, Key: "name", Fields: []*blocks.Var{
		{Name: "name", Type: blocks.TypeString, Pattern: lower},
	}}
	_, _, err := Prepare(hosts, map[string]any{"Web": map[string]any{}, "db": map[string]any{}}, nil)
	if want := `variable "hosts", record "Web": field "name" does not match its pattern [a-z]+ (the value is "Web")`; err == nil || err.Summary != want {
		t.Errorf("error %v, want %s", err, want)
	}
	svc := &blocks.Var{Name: "svc", Type: blocks.TypeRecords, Fields: []*blocks.Var{
		{Name: "ports", Type: blocks.TypeRecords, Key: "proto", Fields: []*blocks.Var{
			{Name: "note", Type: blocks.TypeString, Pattern: lower}, {Name: "proto", Type: blocks.TypeString},
		}},
	}}
	_, _, err = Prepare(svc, []any{map[string]any{"ports": map[string]any{"http": map[string]any{"note": "X"}}}}, nil)
	if want := `variable "svc", record 1, field "ports", record "http": field "note" does not match its pattern [a-z]+ (the value is "X")`; err == nil || err.Summary != want {
		t.Errorf("error %v, want %s", err, want)
	}
}
