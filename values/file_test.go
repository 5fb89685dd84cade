package values_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/promptc/promptc/internal/hostile"
	"github.com/promptc/promptc/values"

	"github.com/promptc/promptc/blocks"
)

// valuesProject declares one variable of each type, and a records variable, directly in Go.
func valuesProject() *blocks.Project {
	p := &blocks.Project{Vars: map[string]*blocks.Var{}}
	for _, v := range []*blocks.Var{
		{Name: "agent_name", Scope: blocks.ScopeSession, Type: blocks.TypeString, Required: true},
		{Name: "max_steps", Scope: blocks.ScopeSession, Type: blocks.TypeInt},
		{Name: "is_lead", Scope: blocks.ScopeSession, Type: blocks.TypeBool},
		{Name: "tags", Scope: blocks.ScopeSession, Type: blocks.TypeList},
		{Name: "issue_id", Scope: blocks.ScopeTurn, Type: blocks.TypeString},
		{Name: "repos", Scope: blocks.ScopeSession, Type: blocks.TypeRecords, Fields: []*blocks.Var{
			{Name: "archived", Type: blocks.TypeBool},
			{Name: "description", Type: blocks.TypeText},
			{Name: "stars", Type: blocks.TypeInt},
			{Name: "url", Type: blocks.TypeString, Required: true},
		}},
	} {
		p.Vars[v.Name] = v
	}
	return p
}

// valueDump prints values with their Go types, sorted by name.
func valueDump(vals blocks.Values) string {
	if vals == nil {
		return "<nil>"
	}
	names := make([]string, 0, len(vals))
	for n := range vals {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "%s=%#v\n", n, vals[n])
	}
	return b.String()
}

func TestReadValues(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		in    string
		scope blocks.Scope
		want  string // the values
		diags string
	}{
		{
			name: "json ok",
			file: "v.json",
			in:   `{"agent_name": "Ann", "max_steps": 4.0e1, "is_lead": true, "tags": ["a"], "repos": [{"url": "u", "stars": 3}]}`,
			want: `agent_name="Ann"
is_lead=true
max_steps=40
repos=[]map[string]interface {}{map[string]interface {}{"archived":false, "description":"", "stars":3, "url":"u"}}
tags=[]string{"a"}
`,
		},
		{
			name: "json types",
			file: "v.json",
			in:   "{\n  \"agent_name\": 5,\n  \"max_steps\": \"five\",\n  \"is_lead\": null,\n  \"tags\": [\"a\", 1],\n  \"repos\": {}\n}",
			want: "",
			diags: `v.json:2:3: variable "agent_name" is a string, so its value must be a JSON string, not a JSON number
v.json:3:3: variable "max_steps" is an int, so its value must be a whole number, not a JSON string
v.json:4:3: variable "is_lead" is a bool, so its value must be true or false, not null
v.json:5:3: variable "tags" is a list of strings, but an item is a JSON number
v.json:6:3: variable "repos" is records, so its value must be a JSON array of objects, not a JSON object
`,
		},
		{
			name: "json int out of range",
			file: "v.json",
			in:   `{"max_steps": 1e20, "is_lead": false}`,
			want: "is_lead=false\n",
			diags: `v.json:1:2: variable "max_steps" is an int, but 1e20 is out of range: whole numbers must lie within ±2⁶³ (±2⁵³ for JSON numbers, which are not exact beyond)
`,
		},
		{
			name: "json names",
			file: "v.json",
			in:   `{"agnet_name": "x", "issue_id": "I", "agent_name": "Ann"}`,
			want: "agent_name=\"Ann\"\n",
			diags: `v.json:1:2: unknown session variable "agnet_name" (did you mean "agent_name"?)
v.json:1:21: "issue_id" is a turn variable, not a session variable
`,
		},
		{
			name:  "json turn scope",
			file:  "t.json",
			in:    `{"isue_id": "x", "agent_name": "Ann"}`,
			scope: blocks.ScopeTurn,
			want:  "",
			diags: `t.json:1:2: unknown turn variable "isue_id" (did you mean "issue_id"?)
t.json:1:18: "agent_name" is a session variable, not a turn variable
`,
		},
		{
			name: "json duplicate key",
			file: "v.json",
			in:   "{\"agent_name\": \"a\",\n \"agent_name\": 5, \"tags\": []}",
			want: "tags=[]string{}\n",
			diags: `v.json:2:2: duplicate key "agent_name" (first at 1:2): a JSON object may hold each key once
`,
		},
		{
			name: "json duplicate field",
			file: "v.json",
			in:   `{"repos": [{"url": "a", "url": "b"}]}`,
			want: "",
			diags: `v.json:1:25: duplicate key "url" (first at 1:13): a JSON object may hold each key once
`,
		},
		{
			name: "json number out of range",
			file: "v.json",
			in:   `{"max_steps": 1e400, "tags": ["-1E+999999999999999999999999999999999999999999"]}`,
			want: "tags=[]string{\"-1E+999999999999999999999999999999999999999999\"}\n",
			diags: `v.json:1:15: number 1e400 is out of range: a JSON number must fit a 64-bit float (at most about ±1.8e308)
`,
		},
		{
			name:  "json long number out of range",
			file:  "v.json",
			in:    `{"tags": [-1E+999999999999999999999999999999999999999999]}`,
			want:  "",
			diags: "v.json:1:11: number -1E+999999999999999999999999999999999999… is out of range: a JSON number must fit a 64-bit float (at most about ±1.8e308)\n",
		},
		{
			name: "json lone surrogates",
			file: "v.json",
			in:   `{"agent_name": "a\ud800b\udc00c\ud83d\ude00"}`,
			want: "agent_name=\"a\uFFFDb\uFFFDc😀\"\n",
		},
		{
			name: "json records",
			file: "v.json",
			in: `{"repos": [
  {"url": "a", "stras": 1},
  {"url": 5, "stars": 2.5},
  {"stars": 3},
  "x"
]}`,
			want: "",
			diags: `v.json:2:16: variable "repos", record 1 has undeclared field "stras" (did you mean "stars"?) (declared: archived, description, stars, url)
v.json:3:4: variable "repos", record 2: field "url" is a string, so its value must be a JSON string, not a JSON number
v.json:3:14: variable "repos", record 2: field "stars" is an int, so its value must be a whole number, not a JSON number
v.json:4:3: variable "repos", record 3 lacks required field "url"
v.json:5:3: variable "repos" is records, but record 4 is a JSON string, not a JSON object
`,
		},
		{
			name:  "json not an object",
			file:  "v.json",
			in:    `["agent_name"]`,
			want:  "<nil>",
			diags: "v.json:1:1: the file must hold one JSON object of variable values, not a JSON array\n",
		},
		{
			name:  "json null",
			file:  "v.json",
			in:    "\n null",
			want:  "<nil>",
			diags: "v.json:2:2: the file must hold one JSON object of variable values, not null\n",
		},
		{
			name:  "json empty",
			file:  "v.json",
			in:    " \n",
			want:  "<nil>",
			diags: "v.json:1:1: the file must hold one JSON object of variable values, but it is empty\n",
		},
		{
			name:  "json trailing data",
			file:  "v.json",
			in:    `{"agent_name": "a"} {}`,
			want:  "<nil>",
			diags: "v.json:1:21: invalid JSON: unexpected data after the object of variable values\n",
		},
		{
			name:  "json eof",
			file:  "v.json",
			in:    "{\"agent_name\": \n",
			want:  "<nil>",
			diags: "v.json:2:1: invalid JSON: unexpected EOF\n",
		},
		{
			name:  "json missing colon",
			file:  "v.json",
			in:    `{"agent_name" "a"}`,
			want:  "<nil>",
			diags: "v.json:1:15: invalid JSON: invalid character '\"' after object key\n",
		},
		{
			name:  "json deep",
			file:  "v.json",
			in:    `{"tags": ` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + "}",
			want:  "<nil>",
			diags: "v.json:1:73: JSON value nested more than 64 levels deep: arrays and objects may nest at most 64 levels; flatten the value\n",
		},
		{
			name: "json by first byte",
			file: "values",
			in:   "\t\r\n {\"agent_name\": \"Ann\"}",
			want: "agent_name=\"Ann\"\n",
		},
		{
			name:  "stdin json",
			file:  "-",
			in:    "{\"agent_name\": \"Ann\",\n \"max_steps\": true}",
			want:  "agent_name=\"Ann\"\n",
			diags: "<stdin>:2:2: variable \"max_steps\" is an int, so its value must be a whole number, not true\n",
		},
		{
			name:  "stdin toml",
			file:  "-",
			in:    "# {\"json\": false}\nagent_name = \"Ann\"\nmax_steps = true\n",
			want:  "agent_name=\"Ann\"\n",
			diags: "<stdin>:3:1: variable \"max_steps\" is an int, so its value must be a whole number, not a boolean\n",
		},
		{
			name: "toml types",
			file: "v.toml",
			in:   "agent_name = 5\nmax_steps = \"five\"\ntags = [\"a\", 1]\nis_lead = 1979-05-27\n",
			want: "",
			diags: `v.toml:1:1: variable "agent_name" is a string, so its value must be a string, not an integer
v.toml:2:1: variable "max_steps" is an int, so its value must be a whole number, not a string
v.toml:3:1: variable "tags" is a list of strings, but an item is an integer
v.toml:4:1: variable "is_lead" is a bool, so its value must be true or false, not a date or time
`,
		},
		{
			name: "toml names",
			file: "v.toml",
			in:   "agnet_name = \"x\"\nfoo.bar = 1\nissue_id = \"I\"\n[baz]\nx = 1\n[qux.sub]\n",
			want: "",
			diags: `v.toml:1:1: unknown session variable "agnet_name" (did you mean "agent_name"?)
v.toml:2:1: unknown session variable "foo" (session variables: "agent_name", "is_lead", "max_steps", "repos", "tags")
v.toml:3:1: "issue_id" is a turn variable, not a session variable
v.toml:4:1: unknown session variable "baz" (session variables: "agent_name", "is_lead", "max_steps", "repos", "tags")
v.toml:6:1: unknown session variable "qux" (session variables: "agent_name", "is_lead", "max_steps", "repos", "tags")
`,
		},
		{
			name: "toml array of tables",
			file: "v.toml",
			in:   "[[repos]]\nurl = \"a\"\nstras = 1\n\n[[repos]]\nurl = 5\n\n[[repos]]\nstars = 3\n",
			want: "",
			diags: `v.toml:3:1: variable "repos", record 1 has undeclared field "stras" (did you mean "stars"?) (declared: archived, description, stars, url)
v.toml:6:1: variable "repos", record 2: field "url" is a string, so its value must be a string, not an integer
v.toml:8:1: variable "repos", record 3 lacks required field "url"
`,
		},
		{
			name: "toml inline records",
			file: "v.toml",
			in:   "repos = [{url = \"a\", stras = 1}, {url = 5, stars = 2}, {stars = 3}, \"x\"]\n",
			want: "",
			diags: `v.toml:1:22: variable "repos", record 1 has undeclared field "stras" (did you mean "stars"?) (declared: archived, description, stars, url)
v.toml:1:35: variable "repos", record 2: field "url" is a string, so its value must be a string, not an integer
v.toml:1:56: variable "repos", record 3 lacks required field "url"
v.toml:1:69: variable "repos" is records, but record 4 is a string, not a table
`,
		},
		{
			name: "toml records ok",
			file: "v.toml",
			in:   "[[repos]]\nurl = \"a\"\ndescription = \"d\"\n[[repos]]\nurl = \"b\"\narchived = true\n",
			want: `repos=[]map[string]interface {}{map[string]interface {}{"archived":false, "description":"d", "stars":0, "url":"a"}, map[string]interface {}{"archived":true, "description":"", "stars":0, "url":"b"}}
`,
		},
		{
			name:  "toml syntax error",
			file:  "v.toml",
			in:    "agent_name = \n",
			want:  "<nil>",
			diags: "v.toml:1:14: TOML syntax error: expected value but found '\\n' instead\n",
		},
		{
			name:  "toml deep",
			file:  "v.toml",
			in:    "a = " + strings.Repeat("[", 8000) + strings.Repeat("]", 8000),
			want:  "<nil>",
			diags: "v.toml:1:69: TOML value nested more than 64 levels deep: arrays and inline tables may nest at most 64 levels (deeper ones would make decoding slow); flatten the value\n",
		},
		{
			name: "toml empty",
			file: "v.toml",
			in:   "",
			want: "",
		},
		{
			name:  "invalid utf-8",
			file:  "v.toml",
			in:    "agent_name = \"\xff\"",
			want:  "<nil>",
			diags: "v.toml:1:15: invalid UTF-8: value files must be UTF-8 encoded\n",
		},
	}
	p := valuesProject()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			scope := tt.scope
			if scope == 0 {
				scope = blocks.ScopeSession
			}
			vals, _, diags := values.ReadFile(p, tt.file, []byte(tt.in), scope)
			if got := diags.String(); got != tt.diags {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.diags)
			}
			if got := valueDump(vals); got != tt.want {
				t.Errorf("values:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestReadValuesRanges checks where every key, record and field is placed, in each way a file can write them.
func TestReadValuesRanges(t *testing.T) {
	tests := []struct {
		name string
		file string
		in   string
		want string
	}{
		{
			name: "json",
			file: "v.json",
			in: `{"agent_name": "Ann",
 "tags": ["a", "b"],
 "repos": [{"url": "a", "stars": 1},
           {"url": "b"}],
 "other": [{"url": "a"}]}`,
			want: ` v.json:1:1-1:2
agent_name v.json:1:2-1:14
other v.json:5:2-5:9
repos v.json:3:2-3:9
repos[1] v.json:3:12-3:36
repos[1].stars v.json:3:25-3:32
repos[1].url v.json:3:13-3:18
repos[2] v.json:4:12-4:24
repos[2].url v.json:4:13-4:18
tags v.json:2:2-2:8
`,
		},
		{
			name: "toml inline",
			file: "v.toml",
			in:   "agent_name = \"Ann\"\nrepos = [\n  {url = \"a\", stars = 1}, # one\n  { 'url' = \"b\" },\n]\n",
			want: ` v.toml:1:1-1:19
agent_name v.toml:1:1-1:11
repos v.toml:2:1-2:6
repos[1] v.toml:3:3-3:25
repos[1].stars v.toml:3:15-3:20
repos[1].url v.toml:3:4-3:7
repos[2] v.toml:4:3-4:18
repos[2].url v.toml:4:5-4:10
`,
		},
		{
			name: "toml array of tables",
			file: "v.toml",
			in:   "tags = [\"a\"]\n\n[[repos]]\nurl = \"a\"\n\n[[repos]]\nstars = 2\nurl = \"b\"\n",
			want: ` v.toml:1:1-1:13
repos v.toml:3:1-3:10
repos[1] v.toml:3:1-3:10
repos[1].url v.toml:4:1-4:4
repos[2] v.toml:6:1-6:10
repos[2].stars v.toml:7:1-7:6
repos[2].url v.toml:8:1-8:4
tags v.toml:1:1-1:5
`,
		},
		{
			// A records value given as a table (keyed records): each record at its name, and its keys.
			name: "json keyed",
			file: "v.json",
			in:   "{\"repos\": {\"b\": {\"url\": \"x\"},\n  \"a.b\": {\"stars\": 2, \"url\": \"y\", \"url\": \"z\"}}}",
			want: ` v.json:1:1-1:2
repos v.json:1:2-1:9
repos.a.b v.json:2:3-2:8
repos.a.b.stars v.json:2:11-2:18
repos.a.b.url v.json:2:23-2:28
repos.b v.json:1:12-1:15
repos.b.url v.json:1:18-1:23
`,
		},
		{
			name: "toml keyed",
			file: "v.toml",
			in:   "[repos.b]\nurl = \"x\"\n\n[repos.a]\nstars = 2\nurl = \"y\"\n",
			want: ` v.toml:1:1-1:10
repos v.toml:1:1-1:10
repos.a v.toml:4:1-4:10
repos.a.stars v.toml:5:1-5:6
repos.a.url v.toml:6:1-6:4
repos.b v.toml:1:1-1:10
repos.b.url v.toml:2:1-2:4
`,
		},
	}
	p := valuesProject()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ranges, _ := values.ReadFile(p, tt.file, []byte(tt.in), blocks.ScopeSession)
			var b strings.Builder
			for _, k := range ranges.Paths() {
				r := ranges.At(k)
				fmt.Fprintf(&b, "%s %s-%d:%d\n", k, r, r.End.Line, r.End.Column)
			}
			if got := b.String(); got != tt.want {
				t.Errorf("ranges:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestValueRangesAt(t *testing.T) {
	// repos on line 1, its record 2 on line 3 and that record's url on line 4.
	in := "{\"repos\": [{\"url\": \"a\"},\n\n {\"stars\": 2,\n  \"url\": \"b\"}],\n \"a.b[1]\": 1}"
	_, r, _ := values.ReadFile(valuesProject(), "v", []byte(in), blocks.ScopeSession)
	tests := []struct{ path, want string }{
		{"repos[2].url", "v:4:3"},
		{"repos[2].stars", "v:3:3"},
		{"repos[2].owner.login", "v:3:2"},
		{"repos[2].other", "v:3:2"},
		{"repos[2]", "v:3:2"},
		{"repos[3].url", "v:1:2"},
		{"repos[3]", "v:1:2"},
		{"repos[0]", "v:1:2"},
		{"repos[x]", "v:1:2"},
		{"repos", "v:1:2"},
		{"a.b[1]", "v:5:2"}, // a name that looks like a path
		// A name the file lacks is placed at the file's table (RootValues): the JSON object's opening brace.
		{"other", "v:1:1"},
		{"other[1].url", "v:1:1"},
		{"", "v:1:1"},
	}
	for _, tt := range tests {
		if got := r.At(tt.path).String(); got != tt.want {
			t.Errorf("At(%q) = %s, want %s", tt.path, got, tt.want)
		}
	}
	var none *values.Ranges
	if got := none.At("repos"); got.Known() || none.Has("repos") || none.Paths() != nil {
		t.Errorf("a nil ValueRanges places %v", got)
	}
	if !r.Has("repos") || r.Has("repos[1]") || r.Has("other") {
		t.Errorf("Has: repos %v, repos[1] %v, other %v", r.Has("repos"), r.Has("repos[1]"), r.Has("other"))
	}
	// Keyed records, by name: the longest name that the path starts with, so that a name may hold a dot.
	in = "{\"repos\": {\"a\": {\"url\": \"x\"},\n \"a.b\": {\"url\": \"y\"}}}"
	_, r, _ = values.ReadFile(valuesProject(), "v", []byte(in), blocks.ScopeSession)
	for _, tt := range []struct{ path, want string }{
		{"repos.a.url", "v:1:18"},
		{"repos.a.b.url", "v:2:10"},
		{"repos.a.b.stars", "v:2:2"},
		{"repos.a.b", "v:2:2"},
		{"repos.a.c", "v:1:12"},
		{"repos.c.url", "v:1:2"},
		{"repos[1]", "v:1:2"},
	} {
		if got := r.At(tt.path).String(); got != tt.want {
			t.Errorf("At(%q) = %s, want %s", tt.path, got, tt.want)
		}
	}
}

func TestReadValuesLimits(t *testing.T) {
	p := valuesProject()
	big := bytes.Repeat([]byte(" "), blocks.MaxSourceBytes+1)
	big[0] = '{'
	for _, name := range []string{"big.json", "-"} {
		_, _, diags := values.ReadFile(p, name, big, blocks.ScopeSession)
		want := strings.NewReplacer("-", "<stdin>").Replace(name) + ":?:?: values file too large: promptc reads files of at most 8 MiB (8388608 bytes); split it, or move long text into several templates\n"
		if got := diags.String(); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	// At the limit, the file is read.
	vals, _, diags := values.ReadFile(p, "ok.json", big[:blocks.MaxSourceBytes-1], blocks.ScopeSession)
	if len(diags) != 1 || vals != nil || !strings.Contains(diags[0].Summary, "unexpected EOF") {
		t.Errorf("at the limit: %v %v", vals, diags)
	}
}

func TestParseValues(t *testing.T) {
	tests := []struct {
		name, file, in string
		want, diags    string
	}{
		{"json", "v.json", `{"a": 1, "b": [1.5, "x", null, {"c": true}]}`,
			"a=\"1\"\nb=[]interface {}{\"1.5\", \"x\", interface {}(nil), map[string]interface {}{\"c\":true}}\n", ""},
		{"toml", "v", "a = 1\nb = [\"x\"]\n", "a=1\nb=[]interface {}{\"x\"}\n", ""},
		{"duplicate", "v.json", `{"a": 1, "a": 2}`, "<nil>",
			"v.json:1:10: duplicate key \"a\" (first at 1:2): a JSON object may hold each key once\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vals, diags := values.ParseFile(tt.file, []byte(tt.in))
			if got := diags.String(); got != tt.diags {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.diags)
			}
			got := valueDump(vals)
			// json.Number prints as a string; the dump shows its text.
			got = strings.ReplaceAll(got, "json.Number(", "(")
			if got != tt.want {
				t.Errorf("values:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// FuzzReadValuesJSON checks the JSON decoder against encoding/json: on any input, it accepts a file exactly when
// encoding/json does (but for what ReadValues adds: duplicate keys, numbers out of range, deep nesting, trailing
// data, no object at the top) and then decodes the same values.
func FuzzReadValuesJSON(f *testing.F) {
	for _, c := range hostile.Small() {
		quoted, _ := json.Marshal(c.Value)
		f.Add(`{"agent_name": ` + string(quoted) + `}`)
	}
	for _, s := range []string{
		`{"agent_name": "Ann", "max_steps": 4.0e1, "is_lead": true, "tags": ["a"], "repos": [{"url": "u"}]}`,
		`{"a": "\ud800\udc00\ud800x\\\/\b\f\n\r\t\u00e9"}`,
		`{"a": -0.5e-3, "b": 0, "c": -0, "d": 1E+2}`,
		`{"a": {"b": [[], {}, null, false]}}`,
		`{"a": 01}`, `{"a": .5}`, `{"a": "` + "\x01" + `"}`, `{"a": tru}`, `{"a" 1}`, `{"a": 1,}`, `{,}`, `[1]`,
		`{"a": 1e400}`, `{"a": 1, "a": 2}`, `{} x`, `{"a": "\u12"}`, `{"a": "\x"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, diags := values.ParseFile("f.json", []byte(in))
		var want map[string]any
		dec := json.NewDecoder(strings.NewReader(in))
		dec.UseNumber()
		err := dec.Decode(&want)
		if err == nil {
			if _, err2 := dec.Token(); err2 == nil || err2.Error() != "EOF" {
				err = fmt.Errorf("trailing data")
			}
		}
		if len(diags) == 0 {
			if err != nil {
				t.Fatalf("accepted %q, which encoding/json refuses: %v", in, err)
			}
			if !reflect.DeepEqual(map[string]any(got), want) {
				t.Fatalf("%q: got %#v, encoding/json %#v", in, got, want)
			}
			return
		}
		if err == nil && want != nil {
			summary := diags[0].Summary
			if !strings.Contains(summary, "duplicate key") && !strings.Contains(summary, "out of range") &&
				!strings.Contains(summary, "nested more than") && !strings.Contains(summary, "invalid UTF-8") {
				t.Fatalf("refused %q, which encoding/json accepts: %s", in, diags)
			}
		}
	})
}

// FuzzReadValues feeds any file, in either format, to ReadValues: no input may panic, and every diagnostic names
// the file.
func FuzzReadValues(f *testing.F) {
	for _, c := range hostile.Small() {
		f.Add("v.toml", "agent_name = "+strconv.Quote(c.Value)+"\n")
		f.Add("v", c.Value)
	}
	for _, s := range []string{
		`{"agent_name": "Ann", "repos": [{"url": "u", "x": 1}, 5]}`,
		"agent_name = 5\n[[repos]]\nurl = 1\n[[repos]]\nx = 2\n",
		"repos = [{url = \"a\", b.c = 1}, {url = 5}]",
		"a = [[[{b = {c = [1]}}]]]",
		"[a.'b'.\"c\"]\nx = 1",
	} {
		f.Add("v.toml", s)
		f.Add("v.json", s)
		f.Add("-", s)
	}
	p := valuesProject()
	f.Fuzz(func(t *testing.T, name, in string) {
		if name == "" {
			name = "v"
		}
		_, _, diags := values.ReadFile(p, name, []byte(in), blocks.ScopeSession)
		for _, d := range diags {
			if d.Subject == nil || d.Subject.Filename == "" {
				t.Fatalf("%q: diagnostic without a file: %s", in, d)
			}
		}
	})
}

// TestReadValuesUnknownLists: a name no variable of the file's scope has and none is close to lists the variables
// of that scope (sorted, at most a dozen), as an unknown key lists the known keys; the other scope's are not listed.
func TestReadValuesUnknownLists(t *testing.T) {
	vars := func(scope blocks.Scope, names ...string) map[string]*blocks.Var {
		m := map[string]*blocks.Var{"turn_only": {Name: "turn_only", Scope: blocks.ScopeTurn, Type: blocks.TypeString}}
		for _, n := range names {
			m[n] = &blocks.Var{Name: n, Scope: scope, Type: blocks.TypeString}
		}
		return m
	}
	many := make([]string, 14)
	for i := range many {
		many[i] = fmt.Sprintf("v%02d", i)
	}
	tests := []struct {
		name string
		vars map[string]*blocks.Var
		want string
	}{
		{"none", vars(blocks.ScopeSession), `s.toml:1:1: unknown session variable "values" (the project declares no session variable)`},
		{"one", vars(blocks.ScopeSession, "agent"), `s.toml:1:1: unknown session variable "values" (the only session variable is "agent")`},
		{"some, sorted", vars(blocks.ScopeSession, "workspace", "agent"), `s.toml:1:1: unknown session variable "values" (session variables: "agent", "workspace")`},
		{"a dozen, then a count", vars(blocks.ScopeSession, many...), `s.toml:1:1: unknown session variable "values" (session variables: "v00", "v01", "v02", "v03", "v04", "v05", "v06", "v07", "v08", "v09", "v10", "v11" and 2 more)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &blocks.Project{Vars: tt.vars}
			_, _, diags := values.ReadFile(p, "s.toml", []byte("values = \"x\"\n"), blocks.ScopeSession)
			if got := strings.TrimSuffix(diags.String(), "\n"); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestReadValuesDiagnosticsCapped: a file with more problems than MaxValuesDiagnostics lists the first ones, in the
// order of the file, and one more diagnostic at the first problem left out counts the rest, whatever the problems
// are (records, names, duplicate keys) and whatever the format.
func TestReadValuesDiagnosticsCapped(t *testing.T) {
	records := func(json bool, n int, rec string) string {
		var b strings.Builder
		if json {
			b.WriteString(`{"repos": [`)
		} else {
			b.WriteString("repos = [")
		}
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(rec)
		}
		b.WriteString("]")
		if json {
			b.WriteString("}")
		}
		return b.String()
	}
	var names, dups strings.Builder
	names.WriteString("{")
	dups.WriteString(`{"tags": ["a"]`)
	for i := range 250 {
		if i > 0 {
			names.WriteString(",\n")
		}
		fmt.Fprintf(&names, `"unknown_%03d": 1`, i)
		dups.WriteString(",\n" + `"tags": ["b"]`)
	}
	names.WriteString("}")
	dups.WriteString("}")
	tests := []struct {
		name, file, in string
		first, last    string // the first diagnostic listed, and the last (the count)
	}{
		{"json records", "v.json", records(true, 1000, `{"url": "u", "x": 1}`),
			`v.json:1:25: variable "repos", record 1 has undeclared field "x" (declared: archived, description, stars, url)`,
			`v.json:1:2225: 900 more problems are not listed: promptc lists the first 100 problems of a values file; fix these and run it again`},
		{"toml records", "v.toml", records(false, 1000, `{url = "u", x = 1}`),
			`v.toml:1:22: variable "repos", record 1 has undeclared field "x" (declared: archived, description, stars, url)`,
			`v.toml:1:2022: 900 more problems are not listed: promptc lists the first 100 problems of a values file; fix these and run it again`},
		{"records lacking a field", "v.json", records(true, 1000, `{}`),
			`v.json:1:12: variable "repos", record 1 lacks required field "url"`,
			`v.json:1:412: 900 more problems are not listed: promptc lists the first 100 problems of a values file; fix these and run it again`},
		{"unknown names", "v.json", names.String(),
			`v.json:1:2: unknown session variable "unknown_000" (session variables: "agent_name", "is_lead", "max_steps", "repos", "tags")`,
			`v.json:101:1: 150 more problems are not listed: promptc lists the first 100 problems of a values file; fix these and run it again`},
		{"duplicate keys", "v.json", dups.String(),
			`v.json:2:1: duplicate key "tags" (first at 1:2): a JSON object may hold each key once`,
			`v.json:102:1: 150 more problems are not listed: promptc lists the first 100 problems of a values file; fix these and run it again`},
	}
	p := valuesProject()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, diags := values.ReadFile(p, tt.file, []byte(tt.in), blocks.ScopeSession)
			if len(diags) != values.MaxDiagnostics+1 {
				t.Fatalf("%d diagnostics, want %d:\n%.600s", len(diags), values.MaxDiagnostics+1, diags)
			}
			if got := diags[0].String(); got != tt.first {
				t.Errorf("first:\n%s\nwant\n%s", got, tt.first)
			}
			if got := diags[len(diags)-1].String(); got != tt.last {
				t.Errorf("last:\n%s\nwant\n%s", got, tt.last)
			}
			for i := 1; i < len(diags); i++ {
				if diags[i].Range().Compare(diags[i-1].Range()) < 0 {
					t.Fatalf("diagnostic %d is before the one listed before it:\n%s\n%s", i, diags[i-1], diags[i])
				}
			}
		})
	}
	// At the limit, no count.
	_, _, diags := values.ReadFile(p, "v.json", []byte(records(true, values.MaxDiagnostics, `{"url": "u", "x": 1}`)), blocks.ScopeSession)
	if len(diags) != values.MaxDiagnostics || strings.Contains(diags.String(), "not listed") {
		t.Errorf("%d problems: %d diagnostics, the last %s", values.MaxDiagnostics, len(diags), diags[len(diags)-1])
	}
}
