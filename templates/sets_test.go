package templates

import (
	"fmt"
	"strings"
	"testing"
)

// setsData holds values of several trusts for the set and map function tests.
func setsData() map[string]any {
	return map[string]any{
		"labels": []any{Untrusted("b*"), Untrusted("a"), Untrusted("b*"), Untrusted("c"), Untrusted("a")},
		"plain":  []string{"x", "y", "x"},
		"none":   []string(nil),
		"repos": []map[string]any{
			{"slug": Untrusted("api"), "url": "https://x/api"},
			{"slug": Untrusted("web_*"), "url": "https://x/web"},
			{"slug": Untrusted("api"), "url": "https://y/api"},
		},
		"name": Untrusted("ada_*"),
		"n":    3,
	}
}

// TestSetsAndDicts: dict, set, hasKey, has and uniq with sprig's names and argument order; first occurrences kept
// in order; keys walked in byte order; every value, and every key that came from a value, escaped by its trust
// where it is printed.
func TestSetsAndDicts(t *testing.T) {
	tests := []struct{ name, body, want, wantErr string }{
		{name: "uniq keeps first occurrences in order", body: `{{join (uniq .labels) ","}}`, want: `b\*,a,c`},
		{name: "uniq trusted", body: `{{join (uniq .plain) ","}}`, want: "x,y"},
		{name: "uniq piped", body: `{{range .labels | uniq}}[{{.}}]{{end}}`, want: `[b\*][a][c]`},
		{name: "uniq of nothing", body: `[{{range uniq .none}}x{{end}}]`, want: "[]"},
		{name: "uniq compares before escaping", body: `{{len (uniq .labels)}}`, want: "3"},
		{name: "has", body: `{{if has "b*" .labels}}yes{{end}}`, want: "yes"},
		{name: "has sees the value", body: `{{if has "b\\*" .labels}}yes{{else}}no{{end}}`, want: "no"},
		{name: "has trusted", body: `{{if has "y" .plain}}yes{{end}}|{{if has "z" .plain}}yes{{end}}`, want: "yes|"},
		{name: "has an int in strings", body: `{{if has 1 .plain}}yes{{else}}no{{end}}`, want: "no"},
		{name: "dict index", body: `{{$d := dict "k" .name "n" .n}}{{index $d "k"}} {{$d.n}}`, want: `ada\_\* 3`},
		{name: "dict field", body: `{{$d := dict "k" .name}}{{$d.k}}`, want: `ada\_\*`},
		{name: "dict range in key order", body: `{{range $k, $v := dict "b" 2 "a" 1 "c" 3}}{{$k}}={{$v}} {{end}}`, want: "a=1 b=2 c=3 "},
		{name: "dict range values", body: `{{range dict "b" 2 "a" 1}}{{.}}{{end}}`, want: "12"},
		{name: "dict range one variable", body: `{{range $v := dict "b" 2 "a" 1}}{{$v}}{{end}}`, want: "12"},
		{name: "dict later pair wins", body: `{{(dict "a" 1 "a" 2).a}}`, want: "2"},
		{name: "empty dict", body: `{{$d := dict}}{{len $d}}{{if $d}}x{{else}}none{{end}}`, want: "0none"},
		{name: "hasKey", body: `{{$d := dict "a" 1}}{{hasKey $d "a"}} {{hasKey $d "b"}}`, want: "true false"},
		{name: "hasKey of a record", body: `{{range .repos}}{{hasKey . "slug"}}{{hasKey . "nope"}} {{end}}`, want: "truefalse truefalse truefalse "},
		{name: "de-duplicate records by a field",
			body: `{{$seen := dict}}{{range .repos}}{{if not (hasKey $seen .slug)}}{{$_ := set $seen .slug true}}- {{.slug}}: {{.url}}
{{end}}{{end}}`,
			want: "- api: https://x/api\n- web\\_\\*: https://x/web\n"},
		{name: "set returns the dict", body: `{{$d := dict}}{{$e := set $d "a" 1}}{{len $d}}{{len $e}}{{$d.a}}`, want: "111"},
		{name: "a key from a value prints escaped",
			body: `{{$d := dict}}{{range .repos}}{{$_ := set $d .slug .url}}{{end}}{{range $k, $v := $d}}{{$k}}={{$v}};{{end}}`,
			want: `api=https://y/api;web\_\*=https://x/web;`},
		{name: "a key cannot be unescaped",
			body: `{{$d := dict .name 1}}{{range $k, $v := $d}}{{$k | replace "\\" ""}}{{end}}`, want: `ada\_\*`},
		{name: "the author's key prints as written", body: `{{range $k, $v := dict "a_b" 1}}{{$k}}{{end}}`, want: "a_b"},
		{name: "the same key from the author and a value is escaped",
			body: `{{$d := dict "ada_*" 1}}{{$_ := set $d .name 2}}{{range $k, $v := $d}}{{$k}}={{$v}}{{end}}`, want: `ada\_\*=2`},
		{name: "json of a dict", body: `{{json (dict "b" .name "a" 1)}}`, want: `{"a":1,"b":"ada\\_\\*"}`},
		{name: "json escapes keys from values", body: `{{json (dict .name 1)}}`, want: `{"ada\\_\\*":1}`},
		{name: "json then a function sees the raw text", body: `{{json (dict .name 1) | replace "\\" "/"}}`, want: `{"ada\_\*":1}`},
		{name: "nested dict", body: `{{$d := dict "in" (dict "k" .name)}}{{$d.in.k}} {{json $d}}`, want: `ada\_\* {"in":{"k":"ada\\_\\*"}}`},

		{name: "dict printed whole", body: `{{dict "a" 1}}`, wantErr: `templates/t.md:1:3: block "b": a dict cannot be printed whole: print its entries ({{range $k, $v := $d}}…{{end}}, {{index $d "key"}}) or encode it with json; to set a key without printing, assign the result: {{$_ := set $d KEY VALUE}}`},
		{name: "set printed", body: `{{$d := dict}}{{set $d "a" .name}}`, wantErr: `templates/t.md:1:17: block "b": a dict cannot be printed whole: print its entries ({{range $k, $v := $d}}…{{end}}, {{index $d "key"}}) or encode it with json; to set a key without printing, assign the result: {{$_ := set $d KEY VALUE}}`},
		{name: "dict through print", body: `{{$d := dict "a" .name}}{{print $d}}`, wantErr: `templates/t.md:1:27: block "b": print: a dict cannot be printed whole: print its entries ({{range $k, $v := $d}}…{{end}}, {{index $d "key"}}) or encode it with json; to set a key without printing, assign the result: {{$_ := set $d KEY VALUE}}`},
		{name: "dict through printf", body: `{{$d := dict "a" .name}}{{printf "%v" $d}}`, wantErr: `templates/t.md:1:27: block "b": printf: a dict cannot be printed whole: print its entries ({{range $k, $v := $d}}…{{end}}, {{index $d "key"}}) or encode it with json; to set a key without printing, assign the result: {{$_ := set $d KEY VALUE}}`},
		{name: "dict through html", body: `{{$d := dict "a" .name}}{{html $d}}`, wantErr: `templates/t.md:1:27: block "b": html: a dict cannot be printed whole: print its entries ({{range $k, $v := $d}}…{{end}}, {{index $d "key"}}) or encode it with json; to set a key without printing, assign the result: {{$_ := set $d KEY VALUE}}`},
		{name: "dict through default", body: `{{$d := dict "a" .name}}{{default "x" $d}}`, wantErr: `templates/t.md:1:27: block "b": a dict cannot be printed whole: print its entries ({{range $k, $v := $d}}…{{end}}, {{index $d "key"}}) or encode it with json; to set a key without printing, assign the result: {{$_ := set $d KEY VALUE}}`},
		{name: "dict odd arguments", body: `{{$d := dict "a"}}`, wantErr: `templates/t.md:1:9: block "b": dict takes pairs of a key and a value (dict KEY VALUE ...), but got 1 arguments`},
		{name: "dict key not text", body: `{{$d := dict 1 2}}`, wantErr: `templates/t.md:1:9: block "b": dict: key 1 must be text, not an int`},
		{name: "set on a record", body: `{{range .repos}}{{$_ := set . "slug" "x"}}{{end}}`, wantErr: `templates/t.md:1:25: block "b": set takes a dict first (set DICT KEY VALUE, the dict made with dict), not a record`},
		{name: "index of a missing key", body: `{{$d := dict}}{{index $d "a"}}`, wantErr: `templates/t.md:1:17: block "b": index: the dict has no key "a"; test for one with hasKey`},
		{name: "hasKey on a list", body: `{{hasKey .plain "a"}}`, wantErr: `templates/t.md:1:3: block "b": hasKey takes a dict or a record first (hasKey DICT KEY), not a list`},
		{name: "uniq of records", body: `{{range uniq .repos}}{{end}}`, wantErr: `templates/t.md:1:9: block "b": uniq works on a list of strings, not records: to keep one record per value of a field, remember the values seen in a dict ({{if not (hasKey $seen .slug)}}{{$_ := set $seen .slug true}}…{{end}})`},
		{name: "has on a dict", body: `{{$d := dict}}{{has "a" $d}}`, wantErr: `templates/t.md:1:17: block "b": has works on a list of strings, not a dict: test a dict's keys with hasKey`},
		{name: "json keys that print the same", body: `{{json (dict "ada\\_\\*" 1 .name 2)}}`, wantErr: `templates/t.md:1:3: block "b": json: the keys "ada\\_\\*" and "ada_*" of a dict print the same, "ada\\_\\*", so the object would lose one of them`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := run(t, tt.body, setsData())
			if err != tt.wantErr || (tt.wantErr == "" && got != tt.want) {
				t.Errorf("%s\n got %q, error %q\nwant %q, error %q", tt.body, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// TestDictLimits: a dict's keys and values count against the block output limit, as every function's result does.
func TestDictLimits(t *testing.T) {
	big := Untrusted(strings.Repeat("x", MaxOutput/2+1))
	_, err := run(t, `{{$d := dict "a" .big}}{{$_ := set $d "b" .big}}`, map[string]any{"big": big})
	if want := `block "b": set: its result would be at least 16.0 MiB, over the 16 MiB a block may render`; !strings.Contains(err, want) {
		t.Errorf("error %q, want one holding %q", err, want)
	}
	// Setting the same key again replaces its size instead of adding to it.
	_, err = run(t, `{{$d := dict}}{{range $i := 8}}{{$_ := set $d "a" $.big}}{{end}}`, map[string]any{"big": big})
	if err != "" {
		t.Errorf("re-setting one key: %s", err)
	}
}

// TestDictsPerExecution: what one execution knows of its dicts (which keys came from values) is never seen by
// another, even when they run at once.
func TestDictsPerExecution(t *testing.T) {
	b, diags := Parse(block(`{{$d := dict}}{{$_ := set $d .k 1}}{{range $k, $v := $d}}{{$k}}{{end}}`, false), testConsts)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	done := make(chan string, 64)
	for i := range 64 {
		go func() {
			k := any("a_b")
			want := "a_b"
			if i%2 == 1 {
				k, want = Untrusted("a_b"), `a\_b`
			}
			got, diag := b.Execute(map[string]any{"k": k}, testEnv)
			if diag != nil || got != want {
				done <- fmt.Sprintf("execution %d: %q, %v; want %q", i, got, diag, want)
				return
			}
			done <- ""
		}()
	}
	for range 64 {
		if msg := <-done; msg != "" {
			t.Error(msg)
		}
	}
}
