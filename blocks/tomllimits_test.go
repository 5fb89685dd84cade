package blocks

import (
	"strings"
	"testing"

	"github.com/promptc/promptc/internal/hostile"
	"github.com/promptc/promptc/source"
)

func TestCheckTOMLLimits(t *testing.T) {
	parts := func(n int) string { return strings.TrimSuffix(strings.Repeat("a.", n), ".") }
	nest := func(open, close string, n int) string {
		return strings.Repeat(open, n) + "1" + strings.Repeat(close, n)
	}
	const (
		deep = "TOML value nested more than 64 levels deep: arrays and inline tables may nest at most 64 levels (deeper ones would make decoding slow); flatten the value"
		long = ": a key may have at most 64, counting those of the table header, of the dotted key and of the inline tables around it (longer paths would make decoding slow); shorten the key"
	)
	tests := []struct {
		name string
		in   string
		want string // the diagnostic, "" for none
	}{
		{"empty", "", ""},
		{"arrays at the limit", "a = " + nest("[", "]", 64), ""},
		{"arrays past the limit", "a = " + nest("[", "]", 65), "f:1:69: " + deep},
		{"inline tables past the limit", "a = " + strings.Repeat("{b = [", 33) + "1" + strings.Repeat("]}", 33), "f:1:197: " + deep},
		{"nesting across lines", "a = [\n  [ # ]]]]\n" + strings.Repeat("[", 63) + "1" + strings.Repeat("]", 63) + "\n]", "f:3:63: " + deep},
		{"brackets in strings", "a = [" + strings.Repeat(`"[[[[", '{{{', """[[""", '''{{''', `, 40) + "]", ""},
		{"brackets in comments", "# " + strings.Repeat("[", 100) + "\na = 1 # " + strings.Repeat("{", 100), ""},
		{"brackets in multi-line strings", "a = \"\"\"\n" + strings.Repeat("[", 100) + "\n\\\"\"\"[[[\"\"\"\nb = 1", ""},
		{"header at the limit", "[" + parts(64) + "]", ""},
		{"header past the limit", "x = 1\n[" + parts(65) + "]", "f:2:1: TOML key path of 65 parts" + long},
		{"array header past the limit", "[[" + parts(65) + "]]", "f:1:1: TOML key path of 65 parts" + long},
		{"quoted parts", "[" + strings.Repeat(`"a.b". 'c' . `, 31) + "d . e\t.f]", "f:1:1: TOML key path of 65 parts" + long},
		{"dotted key past the limit", parts(65) + " = 1", "f:1:1: TOML key path of 65 parts" + long},
		{"header and key", "[" + parts(60) + "]\n" + parts(4) + " = 1\n" + parts(5) + " = 1", "f:3:1: TOML key path of 65 parts" + long},
		{"inline table keys", "[" + parts(60) + "]\nb = {c = 1, d = {e.f = {g = 1}}}", "f:2:25: TOML key path of 65 parts" + long},
		{"inline table keys at the limit", "[" + parts(60) + "]\nb = {c = 1, d = {e.f = 1}}\nx.y.z.w = 1", ""},
		{"a 30,000-part dotted header", "[" + parts(30000) + "]\nx = 1", "f:1:1: TOML key path of 30000 parts" + long},
		{"8,000 nested inline tables", "a = " + strings.Repeat("{b=", 8000) + "1" + strings.Repeat("}", 8000), "f:1:195: TOML key path of 65 parts" + long},
		{"8,000 nested arrays", "a = " + nest("[", "]", 8000), "f:1:69: " + deep},
		{"not TOML", "]]]} = = {[ \"unterminated\n'also\n\"\"\"never closed", ""},
		{"unclosed array", "a = [[[", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if d := checkTOMLLimits(source.NewFile("f", tt.in)); d != nil {
				got = d.String()
			}
			if got != tt.want {
				t.Errorf("got:  %s\nwant: %s", got, tt.want)
			}
		})
	}
}

func TestCheckTOMLLimitsSize(t *testing.T) {
	in := strings.Repeat("#", MaxSourceBytes+1)
	want := "f:?:?: file too large: promptc reads files of at most 8 MiB (8388608 bytes); split it, or move long text into several templates"
	if d := checkTOMLLimits(source.NewFile("f", in)); d == nil || d.String() != want {
		t.Errorf("got %v, want %s", d, want)
	}
	if d := checkTOMLLimits(source.NewFile("f", in[1:])); d != nil {
		t.Errorf("at the limit: %v", d)
	}
}

// pathological holds inputs that BurntSushi/toml v1.6.0 takes seconds and gigabytes to decode (blocks/tomllimits.go).
var pathological = map[string]string{
	"8000 nested inline tables":  "a = " + strings.Repeat("{b=", 8000) + "1" + strings.Repeat("}", 8000),
	"30000-part dotted header":   "[" + strings.TrimSuffix(strings.Repeat("a.", 30000), ".") + "]\nx = 1",
	"8000 nested arrays":         "a = " + strings.Repeat("[", 8000) + "1" + strings.Repeat("]", 8000),
	"30000-part key under table": "[t]\n" + strings.TrimSuffix(strings.Repeat("a.", 30000), ".") + " = 1",
}

// BenchmarkCheckTOMLLimits measures the pre-scan on those inputs and on a large ordinary file.
func BenchmarkCheckTOMLLimits(b *testing.B) {
	var ordinary strings.Builder
	for ordinary.Len() < 1<<20 {
		ordinary.WriteString("[[block]]\nid = \"x\"\ntasks = [\"a\", \"b\"] # c\nbody = \"\"\"\nSome [text] {here}.\n\"\"\"\n")
	}
	inputs := map[string]string{"1 MiB of blocks": ordinary.String()}
	for name, in := range pathological {
		inputs[name] = in
	}
	for name, in := range inputs {
		f := source.NewFile("f", in)
		b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				checkTOMLLimits(f)
			}
		})
	}
}

// FuzzCheckTOMLLimits checks that the pre-scan reads any text without panicking, and never refuses a document that
// stays within the limits by construction: one whose text has no more brackets and dots than the limits allow.
func FuzzCheckTOMLLimits(f *testing.F) {
	for _, c := range hostile.Small() {
		f.Add(c.Value)
	}
	for _, s := range []string{
		"a = [[1], {b = {c = 2}}]", "[a.\"b.c\".'d']\nx.y = 1", "a = \"\"\"\n[[\n\"\"\"", "a = '''{{'''", "# [[\n",
		"a = [\n# ]\n1,\n]", "a = {b = 1,\n c = [2]}", "]]}} = {", "a = \"\\\"[\"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		d := checkTOMLLimits(source.NewFile("f", in))
		opens := strings.Count(in, "[") + strings.Count(in, "{")
		parts := strings.Count(in, ".") + 2*strings.Count(in, "=") + strings.Count(in, "[") + 2
		if d != nil && strings.Contains(d.Summary, "nested") && opens <= MaxNesting {
			t.Fatalf("%q: %s with %d brackets", in, d, opens)
		}
		if d != nil && strings.Contains(d.Summary, "key path") && parts <= MaxKeyParts {
			t.Fatalf("%q: %s", in, d)
		}
	})
}
