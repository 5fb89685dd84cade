package blocks

import (
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/promptc/promptc/internal/gen"
	"github.com/promptc/promptc/internal/hostile"
	"github.com/promptc/promptc/source"
)

// fastTOMLTests are inputs the fast path decodes (fast: true), each to what BurntSushi/toml gives, and inputs it
// leaves to BurntSushi/toml (fast: false), valid TOML or not.
var fastTOMLTests = []struct {
	name string
	in   string
	fast bool
}{
	{"empty", "", true},
	{"comments and blank lines", "# a\n\n  # b\n\t\n", true},
	{"root keys", "name = \"x\"\ntasks = [\"a\", 'b']\nn = -12\nz = 0\nok = true\nno = false\n", true},
	{"quoted keys", "\"a b\" = 1\n'c.d' = 2\n", true},
	{"basic escapes", `a = "q\" b\\ t\t n\n r\r f\f b\b e\e u\u00e9 U\U0001F600"`, true},
	{"literal keeps backslashes", `a = 'C:\path\n'`, true},
	{"multi-line basic", "a = \"\"\"\nline one\n  line two \\\n     joined\nend\"\"\"", true},
	{"line-ending backslash with blanks", "a = \"\"\"x \\  \t\n\n  y\"\"\"", true},
	{"multi-line literal", "a = '''\nraw {{ \"x\" }} \\n\n'''", true},
	{"extra closing quotes", "a = \"\"\"x\"\"\"\"\"\nb = '''y''''", true},
	{"escaped quote before the delimiter", `a = """a\""""`, true},
	{"first newline only trimmed", "a = '''\n\nx'''", true},
	{"arrays", "a = [\n  1, # one\n  2,\n]\nb = [[1, 2], [\"x\"], []]\nc = []\n", true},
	{"tables", "[runbook]\norder = [\"a\"]\n\n[vars.x]\nscope = \"session\"\n[vars.y]\nscope = 'turn'\n", true},
	{"super-table after its sub-table", "[a.b]\nc = 1\n[a]\nd = 2\n", true},
	{"arrays of tables with sub-tables", "[[block]]\nid = \"a\"\n[block.meta]\nx = 1\n[[block]]\nid = \"b\"\n[block.meta]\nx = 2\n", true},
	{"header spacing", "[ a . \"b c\" ]\nx = 1\n[[ d ]]\n", true},
	{"unicode text", "a = \"héllo 😀\"\n# ça\n", true},
	{"no final newline", "a = 1", true},

	{"float", "a = 1.5", false},
	{"date", "a = 1979-05-27", false},
	{"date-time with a space", "a = 1979-05-27 07:32:00Z", false},
	{"hex", "a = 0x10", false},
	{"plus sign", "a = +1", false},
	{"underscore", "a = 1_000", false},
	{"leading zero", "a = 01", false},
	{"int64 overflow", "a = 9223372036854775808", false},
	{"inline table", "a = {b = 1}", true},
	{"inline tables", "r = [{n = \"a\", x = 1}, {'n'=\"b\"}, {}, { }]\ns = {a = {b = [1, {c = true}]}, d = 'x'}\n", true},
	{"inline table after a header", "[t]\na = {b = 1}\n[[u]]\nc = {d = 2}\n[[u]]\nc = {d = 3}\n", true},
	{"inline table with a trailing comma", "a = {b = 1,}", false},
	{"inline table over two lines", "a = {\nb = 1}", false},
	{"inline table with a comment", "a = {b = 1 # x\n}", false},
	{"inline table with a dotted key", "a = {b.c = 1}", false},
	{"inline table with a key twice", "a = {b = 1, b = 2}", false},
	{"inline table not closed", "a = {b = 1", false},
	{"inline table and more", "a = {b = 1} 2", false},
	{"header naming an inline table", "a = {b = 1}\n[a]\n", false},
	{"header below an inline table", "a = {b = 1}\n[a.c]\n", false},
	{"header below an inline table of a table", "[t]\na = {b = 1}\n[t.a.c]\n", false},
	{"header below an inline table of an array of tables", "[[t]]\na = {b = 1}\n[t.a.c]\n", false},
	{"dotted key", "a.b = 1", false},
	{"empty key", "\"\" = 1", false},
	{"escaped key", "\"a\\u0041\" = 1", false},
	{"hex escape", `a = "\x41"`, false},
	{"bad escape", `a = "\q"`, false},
	{"backslash and blank not ending the line", "a = \"\"\"x \\  y\"\"\"", false},
	{"surrogate escape", `a = "\uD800"`, false},
	{"CRLF", "a = 1\r\nb = 2\r\n", false},
	{"BOM", "\uFEFFa = 1", false},
	{"control character", "a = 'x\x01'", false},
	{"control character in a comment", "# \x7f\na = 1", false},
	{"invalid UTF-8", "a = \"\xff\"", false},
	{"duplicate key", "a = 1\na = 2", false},
	{"table twice", "[a]\nx = 1\n[a]\ny = 1", false},
	{"table over an array of tables", "[[a]]\n[a]", false},
	{"array of tables over a table", "[a]\n[[a]]", false},
	{"array of tables over an array", "a = [1]\n[[a]]", false},
	{"key over a table", "[a.b]\n[a]\nb = 1", false},
	{"table under a value", "a = 1\n[a.b]", false},
	{"two values on a line", "a = 1 b = 2", false},
	{"header and key on a line", "[a] b = 1", false},
	{"unclosed string", "a = \"x\nb = 1", false},
	{"unclosed multi-line string", "a = '''x", false},
	{"six closing quotes", "a = '''x''''''", false},
	{"missing comma", "a = [1 2]", false},
	{"stray comma", "a = [,]", false},
	{"no value", "a =", false},
	{"non-ASCII bare key", "é = 1", false},
	{"unclosed header", "[a\nb = 1", false},
	{"bare word", "a = yes", false},
	{"true prefix", "a = trueish", false},
}

func TestDecodeTOMLFast(t *testing.T) {
	for _, tt := range fastTOMLTests {
		t.Run(tt.name, func(t *testing.T) {
			got, fast := decodeTOMLFast(tt.in)
			if fast != tt.fast {
				t.Fatalf("fast path taken: %v, want %v", fast, tt.fast)
			}
			if fast {
				checkFastAgrees(t, tt.in, got)
			}
		})
	}
}

// checkFastAgrees fails unless BurntSushi/toml accepts in and decodes it to got exactly, types included.
func checkFastAgrees(t *testing.T, in string, got map[string]any) {
	t.Helper()
	var want map[string]any
	if _, err := toml.Decode(in, &want); err != nil {
		t.Fatalf("the fast path accepted %q, which BurntSushi/toml refuses: %v", in, err)
	}
	if want == nil {
		want = map[string]any{}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\nfast:        %#v\nBurntSushi:  %#v", in, got, want)
	}
}

// TestDecodeTOMLFastGenerated checks that every TOML file of a generated project (the benchmarks' input) takes the
// fast path, so that the speed it measures is the fast path's, and decodes as BurntSushi/toml does.
func TestDecodeTOMLFastGenerated(t *testing.T) {
	for name, data := range gen.Files(200, 5) {
		if !strings.HasSuffix(name, ".toml") {
			continue
		}
		got, fast := decodeTOMLFast(string(data))
		if !fast {
			t.Errorf("%s: not decoded by the fast path", name)
			continue
		}
		checkFastAgrees(t, string(data), got)
	}
}

// FuzzDecodeTOMLFast: whatever the input, the fast path never panics, and when it decodes an input BurntSushi/toml
// accepts the same input and gives the same value.
func FuzzDecodeTOMLFast(f *testing.F) {
	for _, tt := range fastTOMLTests {
		f.Add(tt.in)
	}
	for _, c := range hostile.Small() {
		f.Add("a = " + `"` + c.Value + `"` + "\nb = '''\n" + c.Value + "'''\n")
	}
	for _, src := range []string{posBlocks, posQuirks, posQuotes, posUnicode} {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if checkTOMLLimits(source.NewFile("f", in)) != nil {
			return // refused before any decoder sees it
		}
		if got, fast := decodeTOMLFast(in); fast {
			checkFastAgrees(t, in, got)
		}
	})
}

// BenchmarkDecodeTOMLFastEscapes decodes multi-line basic strings of many escapes, each 100,000 of them (700 KB and
// 500 KB): the fast path must stay linear in them, not search the rest of the string again at each one.
func BenchmarkDecodeTOMLFastEscapes(b *testing.B) {
	for name, body := range map[string]string{"line_endings": "line \\\n", "quotes": "q \\\" "} {
		in := "a = \"\"\"" + strings.Repeat(body, 100000) + "\"\"\""
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				if _, fast := decodeTOMLFast(in); !fast {
					b.Fatal("not taken by the fast path")
				}
			}
		})
	}
}
