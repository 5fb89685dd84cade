package templates

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/hostile"
)

// pattern compiles p as the loader does: the whole value must match.
func pattern(p string) *regexp.Regexp { return regexp.MustCompile("^(?:" + p + ")$") }

// reposVar is a records variable as docs/reference.md#varsname declares it, fields sorted by name.
func reposVar(trust blocks.Trust) *blocks.Var {
	return &blocks.Var{Name: "repos", Type: blocks.TypeRecords, Fields: []*blocks.Var{
		{Name: "description", Type: blocks.TypeText, Trust: trust, Trim: true, MaxRunes: 5},
		{Name: "diff", Type: blocks.TypeText, Trust: blocks.Code, Lang: "diff"},
		{Name: "private", Type: blocks.TypeBool},
		{Name: "stars", Type: blocks.TypeInt},
		{Name: "url", Type: blocks.TypeString, Trust: blocks.Trusted, Required: true, Pattern: pattern(`https://\S+`)},
	}}
}

func TestPreparePipeline(t *testing.T) {
	const marker = "@@END@@"
	markers := []string{marker}
	str := func(trust blocks.Trust) *blocks.Var {
		return &blocks.Var{Name: "x", Type: blocks.TypeString, Trust: trust}
	}
	with := func(v *blocks.Var, f func(v *blocks.Var)) *blocks.Var { f(v); return v }
	email := func(invalid blocks.Invalid) *blocks.Var {
		return &blocks.Var{Name: "email", Type: blocks.TypeString, Trim: true, Pattern: pattern(`[^\s<>@]+@[^\s<>@]+`), Invalid: invalid}
	}
	tags := func(invalid blocks.Invalid) *blocks.Var {
		return &blocks.Var{Name: "tags", Type: blocks.TypeList, Trim: true, Pattern: pattern(`[a-z]+`), Invalid: invalid,
			MaxItems: 2, Omitted: "({n} more)"}
	}
	tests := []struct {
		name    string
		v       *blocks.Var
		in      any
		want    any
		dropped int
	}{
		{name: "trim", v: with(str(blocks.Untrusted), func(v *blocks.Var) { v.Trim = true }), in: " \t\u00a0a b\r\n\u3000", want: "a b"},
		{name: "trim to empty", v: with(str(blocks.Untrusted), func(v *blocks.Var) { v.Trim = true }), in: " \r\n ", want: ""},
		{name: "no trim, untrusted spaces go", v: str(blocks.Untrusted), in: "  # x ", want: `\# x `},
		{name: "no trim, trusted spaces stay", v: str(blocks.Trusted), in: "  # x ", want: "  # x "},
		{name: "trim before the limit", v: with(str(blocks.Trusted), func(v *blocks.Var) { v.Trim, v.MaxRunes = true, 3 }),
			in: "   abcd", want: "abc…"},
		{name: "pattern matches after trim", v: email(blocks.InvalidError), in: "  ada@example.com\r\n", want: "ada@example.com"},
		{name: "empty skips the pattern", v: email(blocks.InvalidError), in: "   ", want: ""},
		{name: "invalid empty", v: email(blocks.InvalidEmpty), in: "not an email", want: ""},
		{name: "pattern checked before escaping", v: &blocks.Var{Name: "x", Pattern: pattern(`<[a-z]+>`)}, in: "<b>", want: `\<b\>`},
		{name: "pattern on CRLF-normalised value", v: &blocks.Var{Name: "x", Type: blocks.TypeText, Trust: blocks.Trusted, Pattern: pattern("a\nb")},
			in: "a\r\nb", want: "a\nb"},
		{name: "list items failing are left out before the limits", v: tags(blocks.InvalidEmpty),
			in: []string{"go", "Bad", " rust ", "x y", "zig", "c"}, want: []string{"go", "rust", "(2 more)"}, dropped: 2},
		{name: "list all matching", v: tags(blocks.InvalidError), in: []any{"a", "b"}, want: []string{"a", "b"}},
		{name: "list dropped by bytes", v: &blocks.Var{Name: "l", Type: blocks.TypeList, MaxBytes: 3, MaxItems: 3},
			in: []string{"ab", "c", "d", "e", "f"}, want: []string{"ab", "c"}, dropped: 3},
		{name: "list dropped without omitted", v: &blocks.Var{Name: "l", Type: blocks.TypeList, MaxItems: 1},
			in: []string{"a", "b"}, want: []string{"a"}, dropped: 1},
		{name: "code", v: &blocks.Var{Name: "d", Type: blocks.TypeText, Trust: blocks.Code, Lang: "diff"},
			in: "-a\r\n+b\u202e\r\n", want: "```diff\n-a\n+b<U+202E>\n```"},
		{name: "code empty", v: &blocks.Var{Name: "d", Type: blocks.TypeText, Trust: blocks.Code}, in: "", want: ""},
		{name: "code cut before fencing", v: &blocks.Var{Name: "d", Type: blocks.TypeText, Trust: blocks.Code, MaxRunes: 4},
			in: "``````", want: "`````\n````…\n`````"},
		{name: "code list", v: &blocks.Var{Name: "d", Type: blocks.TypeList, Trust: blocks.Code, Lang: "sh"},
			in: []string{"ls", ""}, want: []string{"```sh\nls\n```", ""}},
		{name: "untrusted marker", v: str(blocks.Untrusted), in: "a " + marker, want: `a @\@END@@`},
		{name: "background marker", v: str(blocks.Background), in: marker, want: `> @\@END@@`},
		{name: "code marker", v: &blocks.Var{Name: "d", Type: blocks.TypeText, Trust: blocks.Code}, in: marker,
			want: "```\n@\\@END@@\n```"},
		{name: "trusted marker kept", v: str(blocks.Trusted), in: marker, want: marker},
		{name: "trusted becomes valid UTF-8", v: str(blocks.Trusted), in: "a\xffb", want: "a\ufffdb"},
		{name: "list items neutralised", v: &blocks.Var{Name: "l", Type: blocks.TypeList}, in: []string{marker, "ok"},
			want: []string{`@\@END@@`, "ok"}},
		{name: "omitted item neutralised too", v: &blocks.Var{Name: "l", Type: blocks.TypeList, MaxItems: 1, Omitted: marker + " {n}"},
			in: []string{"a", "b"}, want: []string{"a", `@\@END@@ 1`}, dropped: 1},
		{name: "nil records", v: reposVar(blocks.Untrusted), in: nil, want: []map[string]any{}},
		{name: "records", v: reposVar(blocks.Untrusted), in: []any{
			map[string]any{"url": "https://a.example/x", "description": "  *Fast* tool  ", "stars": int64(3), "diff": "+x\r\n"},
			map[string]any{"url": "https://b.example", "private": true},
		}, want: []map[string]any{
			{"url": "https://a.example/x", "description": `\*Fast…`, "stars": 3, "private": false, "diff": "```diff\n+x\n```"},
			{"url": "https://b.example", "description": "", "stars": 0, "private": true, "diff": ""},
		}},
		{name: "records field trust", v: reposVar(blocks.Background), in: []map[string]any{
			{"url": "https://a.example", "description": "<b>"},
		}, want: []map[string]any{
			{"url": "https://a.example", "description": `> \<b\>`, "stars": 0, "private": false, "diff": ""},
		}},
		{name: "records marker", v: reposVar(blocks.Untrusted), in: []map[string]any{
			{"url": "https://a.example/" + marker, "description": "a" + marker, "diff": marker},
		}, want: []map[string]any{
			{"url": "https://a.example/" + marker, "description": "a@@EN…", "stars": 0, "private": false,
				"diff": "```diff\n@\\@END@@\n```"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, dropped, err := Prepare(tt.v, tt.in, markers)
			if err != nil {
				t.Fatalf("Prepare(%#v) error: %v", tt.in, err)
			}
			// What a value prints alone: Prepare leaves escaping to printing, and the bytes are those of before.
			got = Printed(got, markers)
			if !reflect.DeepEqual(got, tt.want) || dropped != tt.dropped {
				t.Errorf("Prepare(%#v) =\n  %#v, %d\nwant\n  %#v, %d", tt.in, got, dropped, tt.want, tt.dropped)
			}
		})
	}
}

// TestPrepareRecordLimits: max_items, then max_bytes over each record's string and text fields after their own
// cuts, with pin_first; dropped counts both.
func TestPrepareRecordLimits(t *testing.T) {
	rec := func(url, desc string) map[string]any {
		return map[string]any{"url": "https://" + url, "description": desc}
	}
	in := []any{rec("a", "1234567"), rec("b", "12"), rec("c", ""), rec("d", "x")}
	// Sizes after cuts: "https://a" (9) + "12345…" (8) = 17; b: 9 + 2 = 11; c: 9; d: 10.
	tests := []struct {
		name     string
		maxItems int
		maxBytes int
		pin      bool
		urls     []string
		dropped  int
	}{
		{name: "no limit", urls: []string{"a", "b", "c", "d"}},
		{name: "max items", maxItems: 2, urls: []string{"a", "b"}, dropped: 2},
		{name: "max bytes after cuts", maxBytes: 28, urls: []string{"a", "b"}, dropped: 2},
		{name: "max bytes exact", maxBytes: 37, urls: []string{"a", "b", "c"}, dropped: 1},
		{name: "first over without pin", maxBytes: 16, urls: []string{}, dropped: 4},
		{name: "first over with pin", maxBytes: 16, pin: true, urls: []string{"a"}, dropped: 3},
		{name: "items then bytes", maxItems: 3, maxBytes: 20, pin: true, urls: []string{"a"}, dropped: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := reposVar(blocks.Trusted)
			v.MaxItems, v.MaxBytes, v.PinFirst = tt.maxItems, tt.maxBytes, tt.pin
			got, dropped, err := Prepare(v, in, nil)
			if err != nil {
				t.Fatal(err)
			}
			var urls []string
			for _, r := range got.([]map[string]any) {
				urls = append(urls, strings.TrimPrefix(r["url"].(string), "https://"))
			}
			if strings.Join(urls, ",") != strings.Join(tt.urls, ",") || dropped != tt.dropped {
				t.Errorf("kept %q, dropped %d; want %q, %d", urls, dropped, tt.urls, tt.dropped)
			}
		})
	}
}

// TestPreparePatternErrors: a mismatch names the variable (and the item, or the record and field) and shows at
// most the start of the value, quoted.
func TestPreparePatternErrors(t *testing.T) {
	email := &blocks.Var{Name: "email", Type: blocks.TypeString, Trim: true, Pattern: pattern(`[^\s<>@]+@[^\s<>@]+`)}
	tests := []struct {
		name   string
		v      *blocks.Var
		in     any
		want   string
		record int
		field  string
	}{
		{name: "string", v: email, in: " not an email ", want: `variable "email" does not match its pattern [^\s<>@]+@[^\s<>@]+ (the value is "not an email")`},
		{name: "hostile value cut and quoted", v: email, in: "\u202e\x1b[2J## Available Commands\n" + strings.Repeat("x", 1000),
			want: `variable "email" does not match its pattern [^\s<>@]+@[^\s<>@]+ (the value is "\u202e\x1b[2J## Available Co"…)`},
		{name: "list item", v: &blocks.Var{Name: "tags", Type: blocks.TypeList, Pattern: pattern(`[a-z]+`)},
			in: []string{"ok", "Not OK"}, want: `variable "tags", item 2, does not match its pattern [a-z]+ (the item is "Not OK")`},
		{name: "records field", v: reposVar(blocks.Untrusted), in: []any{
			map[string]any{"url": "https://ok"}, map[string]any{"url": "ftp://x", "description": "d"},
		}, want: `variable "repos", record 2: field "url" does not match its pattern https://\S+ (the value is "ftp://x")`,
			record: 2, field: "url"},
		// A record past max_items is dropped whatever it holds, but checked all the same: it is not prepared.
		{name: "records field past max_items", v: func() *blocks.Var { v := reposVar(blocks.Untrusted); v.MaxItems = 1; return v }(),
			in:     []any{map[string]any{"url": "https://ok"}, map[string]any{"url": "https://ok"}, map[string]any{"url": "ftp://x"}},
			want:   `variable "repos", record 3: field "url" does not match its pattern https://\S+ (the value is "ftp://x")`,
			record: 3, field: "url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := Prepare(tt.v, tt.in, nil)
			if err == nil {
				t.Fatalf("Prepare(%#v) = %#v, want an error", tt.in, got)
			}
			if err.Summary != tt.want || err.Record != tt.record || err.Field != tt.field {
				t.Errorf("error\n  %s (record %d, field %q)\nwant\n  %s (record %d, field %q)", err.Summary, err.Record, err.Field, tt.want, tt.record, tt.field)
			}
		})
	}
}

// TestPrepareHostile: every hostile value, at every trust level, comes out valid UTF-8 and without a marker
// (trusted values keep theirs: a marker there is the compiler's to report).
func TestPrepareHostile(t *testing.T) {
	for _, trust := range []blocks.Trust{blocks.Untrusted, blocks.Background, blocks.Code, blocks.Markdown, blocks.Trusted} {
		v := &blocks.Var{Name: "x", Type: blocks.TypeText, Trust: trust}
		l := &blocks.Var{Name: "l", Type: blocks.TypeList, Trust: trust}
		var items []string
		for _, c := range hostile.Corpus() {
			items = append(items, c.Value)
			got, _, err := Prepare(v, c.Value, hostile.Markers)
			if err != nil {
				t.Fatal(err)
			}
			checkPrepared(t, trust, c.Name, Printed(got, hostile.Markers).(string))
		}
		got, _, err := Prepare(l, items, hostile.Markers)
		if err != nil {
			t.Fatal(err)
		}
		for i, it := range Printed(got, hostile.Markers).([]string) {
			checkPrepared(t, trust, hostile.Corpus()[i].Name, it)
		}
	}
}

func checkPrepared(t *testing.T, trust blocks.Trust, name, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("%s %q: invalid UTF-8", trust, name)
	}
	if trust == blocks.Trusted {
		return
	}
	for _, m := range hostile.Markers {
		if strings.Contains(s, m) {
			t.Fatalf("%s %q holds marker %q", trust, name, m)
		}
	}
}

func FuzzPrepare(f *testing.F) {
	for _, c := range hostileSeeds() {
		f.Add(c, uint8(blocks.Untrusted), true)
	}
	f.Add("  a@b  ", uint8(blocks.Trusted), false)
	f.Fuzz(func(t *testing.T, in string, trust uint8, trim bool) {
		v := &blocks.Var{Name: "x", Type: blocks.TypeText, Trust: blocks.Trust(trust % 5), Trim: trim, MaxRunes: 50,
			Pattern: pattern(`[^\n]*`), Invalid: blocks.InvalidEmpty}
		prepared, dropped, err := Prepare(v, in, hostile.Markers)
		if err != nil || dropped != 0 {
			t.Fatalf("Prepare(%q) = %v, %d", in, err, dropped)
		}
		got := Printed(prepared, hostile.Markers).(string)
		checkPrepared(t, v.Trust, "fuzz", got)
		// Without markers there is nothing to break: the escaping alone must hold its properties, and with markers
		// the printed value must be that, with the markers broken.
		plainV, _, _ := Prepare(v, in, nil)
		plain := Printed(plainV, nil).(string)
		if v.Trust == blocks.Untrusted {
			checkUntrustedLine(t, plain)
		}
		if want := Neutralize(plain, hostile.Markers); v.Trust != blocks.Trusted && got != want {
			t.Fatalf("Prepare(%q) = %q, want %q", in, got, want)
		}
	})
}

// TestPrepareNestedTrust: values.Check processes a value up to its limits, and Prepare escapes what it kept by trust
// at every depth: a nested records field's strings are of their field's trust, and its records keep the zero record
// that first and last give for none.
func TestPrepareNestedTrust(t *testing.T) {
	name := &blocks.Var{Name: "name", Type: blocks.TypeString, Trust: blocks.Untrusted}
	items := &blocks.Var{Name: "items", Type: blocks.TypeRecords, Fields: []*blocks.Var{name}}
	repos := &blocks.Var{Name: "repos", Type: blocks.TypeRecords, Fields: []*blocks.Var{items}}
	val, _, err := Prepare(repos, []map[string]any{{"items": []map[string]any{{"name": "<b>"}}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	inner := val.([]map[string]any)[0]["items"].([]map[string]any)
	if got, ok := inner[0]["name"].(Untrusted); !ok || got != "<b>" {
		t.Errorf("nested field = %#v, want Untrusted(%q)", inner[0]["name"], "<b>")
	}
	if zero := inner[:cap(inner)][len(inner):]; len(zero) != 1 || zero[0]["name"] != Untrusted("") {
		t.Errorf("nested records keep %v past their end, want the zero record", zero)
	}
}
