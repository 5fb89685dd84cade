package values_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/values"
)

// TestCheckIn checks the messages of a value of the wrong type in each format's words: Check keeps TOML's, which it
// has always used, for fixtures and Go callers.
func TestCheckIn(t *testing.T) {
	repos := &blocks.Var{Name: "repos", Type: blocks.TypeRecords, Fields: []*blocks.Var{
		{Name: "stars", Type: blocks.TypeInt},
		{Name: "url", Type: blocks.TypeString, Required: true},
	}}
	tests := []struct {
		name     string
		v        *blocks.Var
		raw      any
		toml     string // Check's message
		jsonText string // CheckIn(…, FormatJSON)'s message
	}{
		{"string from number", &blocks.Var{Name: "s", Type: blocks.TypeString}, json.Number("5"),
			`variable "s" is a string, so its value must be a string, not an integer`,
			`variable "s" is a string, so its value must be a JSON string, not a JSON number`},
		{"text from object", &blocks.Var{Name: "s", Type: blocks.TypeText}, map[string]any{},
			`variable "s" is text, so its value must be a string, not a table`,
			`variable "s" is text, so its value must be a JSON string, not a JSON object`},
		{"string from null", &blocks.Var{Name: "s", Type: blocks.TypeString}, nil,
			`variable "s" is a string, so its value must be a string, not nothing`,
			`variable "s" is a string, so its value must be a JSON string, not null`},
		{"bool from string", &blocks.Var{Name: "b", Type: blocks.TypeBool}, "yes",
			`variable "b" is a bool, so its value must be true or false, not a string`,
			`variable "b" is a bool, so its value must be true or false, not a JSON string`},
		{"int from bool", &blocks.Var{Name: "n", Type: blocks.TypeInt}, true,
			`variable "n" is an int, so its value must be a whole number, not a boolean`,
			`variable "n" is an int, so its value must be a whole number, not true`},
		{"int from fraction", &blocks.Var{Name: "n", Type: blocks.TypeInt}, json.Number("2.5"),
			`variable "n" is an int, so its value must be a whole number, not a number`,
			`variable "n" is an int, so its value must be a whole number, not a JSON number`},
		{"int out of range", &blocks.Var{Name: "n", Type: blocks.TypeInt}, json.Number("1e19"),
			`variable "n" is an int, but 1e19 is out of range: whole numbers must lie within ±2⁶³ (±2⁵³ for JSON numbers, which are not exact beyond)`,
			`variable "n" is an int, but 1e19 is out of range: whole numbers must lie within ±2⁶³ (±2⁵³ for JSON numbers, which are not exact beyond)`},
		{"int beyond every float", &blocks.Var{Name: "n", Type: blocks.TypeInt}, json.Number("1e400"),
			`variable "n" is an int, but 1e400 is out of range: whole numbers must lie within ±2⁶³ (±2⁵³ for JSON numbers, which are not exact beyond)`,
			`variable "n" is an int, but 1e400 is out of range: whole numbers must lie within ±2⁶³ (±2⁵³ for JSON numbers, which are not exact beyond)`},
		{"int of 401 digits", &blocks.Var{Name: "n", Type: blocks.TypeInt}, json.Number("1" + strings.Repeat("0", 400)),
			`variable "n" is an int, but 1000000000000000000000000000000000000000… is out of range: whole numbers must lie within ±2⁶³ (±2⁵³ for JSON numbers, which are not exact beyond)`,
			`variable "n" is an int, but 1000000000000000000000000000000000000000… is out of range: whole numbers must lie within ±2⁶³ (±2⁵³ for JSON numbers, which are not exact beyond)`},
		{"int below every float", &blocks.Var{Name: "n", Type: blocks.TypeInt}, json.Number("1e-400"),
			`variable "n" is an int, so its value must be a whole number, not a number`,
			`variable "n" is an int, so its value must be a whole number, not a JSON number`},
		{"list from string", &blocks.Var{Name: "l", Type: blocks.TypeList}, "a",
			`variable "l" is a list, so its value must be an array of strings, not a string`,
			`variable "l" is a list, so its value must be a JSON array of strings, not a JSON string`},
		{"list item", &blocks.Var{Name: "l", Type: blocks.TypeList}, []any{"a", false},
			`variable "l" is a list of strings, but an item is a boolean`,
			`variable "l" is a list of strings, but an item is false`},
		{"records from object", repos, map[string]any{},
			`variable "repos" is records, so its value must be an array of tables, not a table`,
			`variable "repos" is records, so its value must be a JSON array of objects, not a JSON object`},
		{"record from array", repos, []any{[]any{}},
			`variable "repos" is records, but record 1 is an array, not a table`,
			`variable "repos" is records, but record 1 is a JSON array, not a JSON object`},
		{"field", repos, []any{map[string]any{"url": []any{}}},
			`variable "repos", record 1: field "url" is a string, so its value must be a string, not an array`,
			`variable "repos", record 1: field "url" is a string, so its value must be a JSON string, not a JSON array`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := values.TypeCheck(tt.v, tt.raw); err == nil || err.Summary != tt.toml {
				t.Errorf("Check: %v\nwant: %s", err, tt.toml)
			}
			if _, err := values.TypeCheckIn(tt.v, tt.raw, values.FormatTOML); err == nil || err.Summary != tt.toml {
				t.Errorf("CheckIn TOML: %v\nwant: %s", err, tt.toml)
			}
			if _, err := values.TypeCheckIn(tt.v, tt.raw, values.FormatJSON); err == nil || err.Summary != tt.jsonText {
				t.Errorf("CheckIn JSON: %v\nwant: %s", err, tt.jsonText)
			}
		})
	}
}

// TestCheckAll checks that every problem of a records value is reported, with its path, and that CheckIn reports
// the first of them.
func TestCheckAll(t *testing.T) {
	repos := &blocks.Var{Name: "repos", Type: blocks.TypeRecords, Fields: []*blocks.Var{
		{Name: "stars", Type: blocks.TypeInt},
		{Name: "url", Type: blocks.TypeString, Required: true},
	}}
	raw := []any{
		map[string]any{"url": "a", "zz": 1, "strs": 2},
		map[string]any{"url": 5, "stars": "x"},
		map[string]any{"url": "c"},
		"d",
		map[string]any{},
	}
	want := `repos[1].strs: variable "repos", record 1 has undeclared field "strs" (did you mean "stars"?) (declared: stars, url)
repos[1].zz: variable "repos", record 1 has undeclared field "zz" (declared: stars, url)
repos[2].stars: variable "repos", record 2: field "stars" is an int, so its value must be a whole number, not a JSON string
repos[2].url: variable "repos", record 2: field "url" is a string, so its value must be a JSON string, not a JSON number
repos[4]: variable "repos" is records, but record 4 is a JSON string, not a JSON object
repos[5].url: variable "repos", record 5 lacks required field "url"
`
	val, errs := values.TypeCheckAll(repos, raw, values.FormatJSON)
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "%s: %s\n", e.Path("repos"), e.Summary)
	}
	if got := b.String(); got != want || val != nil {
		t.Errorf("CheckAll = %v,\n%s\nwant:\n%s", val, got, want)
	}
	if _, err := values.TypeCheckIn(repos, raw, values.FormatJSON); err == nil || err != nil && err.Summary != errs[0].Summary {
		t.Errorf("CheckIn = %v, want the first problem", err)
	}

	val, errs = values.TypeCheckAll(repos, []any{map[string]any{"url": "a", "stars": json.Number("3")}}, values.FormatJSON)
	if got := fmt.Sprint(val); len(errs) > 0 || got != "[map[stars:3 url:a]]" {
		t.Errorf("CheckAll = %s, %v", got, errs)
	}
}

// TestCheckValueSize checks MaxValueBytes, which only values given through the Go API can reach.
func TestCheckValueSize(t *testing.T) {
	big := strings.Repeat("x", blocks.MaxValueBytes/2+1)
	repos := &blocks.Var{Name: "repos", Type: blocks.TypeRecords, Fields: []*blocks.Var{{Name: "url", Type: blocks.TypeString}}}
	tests := []struct {
		name string
		v    *blocks.Var
		raw  any
		want string
	}{
		{"string", &blocks.Var{Name: "s", Type: blocks.TypeText}, big + big,
			`variable "s" holds 67108866 bytes, more than the 64 MiB (67108864 bytes) a value may hold`},
		{"list", &blocks.Var{Name: "l", Type: blocks.TypeList}, []string{big, big},
			`variable "l" holds 67108866 bytes, more than the 64 MiB (67108864 bytes) a value may hold`},
		{"records", repos, []map[string]any{{"url": big}, {"url": big}},
			`variable "repos" holds 67108866 bytes, more than the 64 MiB (67108864 bytes) a value may hold`},
		{"at the limit", &blocks.Var{Name: "s", Type: blocks.TypeText}, big + big[2:], ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := values.TypeCheck(tt.v, tt.raw)
			got := ""
			if err != nil {
				got = err.Summary
			}
			if got != tt.want {
				t.Errorf("Check: %s\nwant: %s", got, tt.want)
			}
		})
	}
}

// TestTypeNoun: messages name a value of each type in English: "is text", "is an int", "is records", "an int field".
func TestTypeNoun(t *testing.T) {
	tests := []struct {
		t             blocks.Type
		noun, article string
	}{
		{blocks.TypeString, "a string", "a"},
		{blocks.TypeText, "text", "a"},
		{blocks.TypeBool, "a bool", "a"},
		{blocks.TypeInt, "an int", "an"},
		{blocks.TypeList, "a list", "a"},
		{blocks.TypeRecords, "records", "a"},
		{blocks.TypeRecord, "a record", "a"},
	}
	for _, tt := range tests {
		if got := tt.t.Noun(); got != tt.noun {
			t.Errorf("%s.Noun() = %q, want %q", tt.t, got, tt.noun)
		}
		if got := tt.t.Article(); got != tt.article {
			t.Errorf("%s.Article() = %q, want %q", tt.t, got, tt.article)
		}
	}
}

// TestCheckShared: CheckShared returns records already in canonical form as they are (a records value whose records
// all are, as the slice given), copies the others, and never changes what it is given; CheckIn always copies.
func TestCheckShared(t *testing.T) {
	v := &blocks.Var{Name: "repos", Type: blocks.TypeRecords, Fields: []*blocks.Var{
		{Name: "stars", Type: blocks.TypeInt},
		{Name: "url", Type: blocks.TypeString},
	}}
	canonical := []map[string]any{{"stars": int64(1), "url": "a"}, {"stars": int64(2), "url": "b"}}
	got, err := values.TypeCheckShared(v, canonical, values.FormatGo)
	if err != nil {
		t.Fatal(err)
	}
	if recs := got.([]map[string]any); &recs[0] != &canonical[0] {
		t.Errorf("canonical records were copied")
	}
	if got, _ := values.TypeCheckIn(v, canonical, values.FormatGo); reflect.ValueOf(got.([]map[string]any)[0]).UnsafePointer() == reflect.ValueOf(canonical[0]).UnsafePointer() {
		t.Errorf("CheckIn shares a record")
	}
	// An int for an int64, and a missing field: those two records are copied, the first is kept.
	mixed := []map[string]any{{"stars": int64(1), "url": "a"}, {"stars": 2, "url": "b"}, {"url": "c"}}
	got, err = values.TypeCheckShared(v, mixed, values.FormatGo)
	if err != nil {
		t.Fatal(err)
	}
	recs := got.([]map[string]any)
	if want := []map[string]any{{"stars": int64(1), "url": "a"}, {"stars": int64(2), "url": "b"}, {"stars": int64(0), "url": "c"}}; !reflect.DeepEqual(recs, want) {
		t.Errorf("CheckShared = %#v, want %#v", recs, want)
	}
	same := func(a, b map[string]any) bool {
		return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
	}
	if !same(recs[0], mixed[0]) || same(recs[1], mixed[1]) || same(recs[2], mixed[2]) {
		t.Errorf("shared: %v %v %v, want true false false", same(recs[0], mixed[0]), same(recs[1], mixed[1]), same(recs[2], mixed[2]))
	}
	if mixed[1]["stars"] != 2 || len(mixed[2]) != 1 {
		t.Errorf("CheckShared changed its input: %#v", mixed)
	}
}
