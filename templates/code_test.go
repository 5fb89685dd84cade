package templates

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

var codeTests = []struct {
	name string
	in   string
	lang string
	want string
}{
	{name: "empty", in: "", want: ""},
	{name: "one line", in: "a", lang: "diff", want: "```diff\na\n```"},
	{name: "final newline kept, not doubled", in: "a\n", want: "```\na\n```"},
	{name: "only a newline", in: "\n", want: "```\n\n```"},
	{name: "two final newlines", in: "a\n\n", want: "```\na\n\n```"},
	{name: "lines verbatim", in: "-old\n+new\n  # not a heading\n", lang: "diff", want: "```diff\n-old\n+new\n  # not a heading\n```"},
	{name: "markdown kept", in: "*a* _b_ <c> [d] \\e", want: "```\n*a* _b_ <c> [d] \\e\n```"},
	{name: "tab kept", in: "\tindented", want: "```\n\tindented\n```"},
	{name: "CRLF", in: "a\r\nb\r\n", want: "```\na\nb\n```"},
	{name: "lone CR", in: "a\rb\r", want: "```\na\nb\n```"},
	{name: "CR CRLF", in: "a\r\r\nb", want: "```\na\n\nb\n```"},
	{name: "C0 removed", in: "a\x00b\x1b[31mc\x07", want: "```\nab[31mc\n```"},
	{name: "DEL removed", in: "a\x7fb", want: "```\nab\n```"},
	{name: "C1 removed", in: "a\u0085b\u009f", want: "```\nab\n```"},
	{name: "only removed characters", in: "\x00\x01\x7f\u0080", want: ""},
	{name: "RLO shown", in: "if a\u202e {", want: "```\nif a<U+202E> {\n```"},
	{name: "Trojan Source", in: "/*\u202e } \u2066if (admin)\u2069 \u2066 begin*/", lang: "c",
		want: "```c\n/*<U+202E> } <U+2066>if (admin)<U+2069> <U+2066> begin*/\n```"},
	{name: "zero-width space shown", in: "a\u200bb", want: "```\na<U+200B>b\n```"},
	{name: "BOM shown", in: "\ufeffx", want: "```\n<U+FEFF>x\n```"},
	{name: "soft hyphen shown", in: "a\u00adb", want: "```\na<U+00AD>b\n```"},
	{name: "five hex digits", in: "\U000E0001", want: "```\n<U+E0001>\n```"},
	{name: "only a format character", in: "\u200b", want: "```\n<U+200B>\n```"},
	{name: "invalid byte", in: "a\xffb", want: "```\na\ufffdb\n```"},
	{name: "surrogate bytes", in: "\xed\xa0\x80", want: "```\n\ufffd\ufffd\ufffd\n```"},
	{name: "multibyte kept", in: "日本 🙂 é", want: "```\n日本 🙂 é\n```"},
	{name: "line separator kept", in: "a\u2028b", want: "```\na\u2028b\n```"},
	{name: "one backtick", in: "a`b", want: "```\na`b\n```"},
	{name: "two backticks", in: "``", want: "```\n``\n```"},
	{name: "fence of 3", in: "```", want: "````\n```\n````"},
	{name: "fence of 4", in: "````", want: "`````\n````\n`````"},
	{name: "fence closing early", in: "a\n```\n## Injected\n```\nb", lang: "go",
		want: "````go\na\n```\n## Injected\n```\nb\n````"},
	{name: "longest run counts", in: "` `` ```````` ```", want: "`````````\n` `` ```````` ```\n`````````"},
	{name: "runs split by a removed character", in: "``\x00``", want: "`````\n````\n`````"},
	{name: "tilde fence", in: "~~~\nx\n~~~", want: "```\n~~~\nx\n~~~\n```"},
	{name: "lang kept", in: "x", lang: "c++", want: "```c++\nx\n```"},
	{name: "lang with dots and dashes", in: "x", lang: "objective-c.v2_1", want: "```objective-c.v2_1\nx\n```"},
	{name: "lang cleaned", in: "x", lang: "a`b c\n<d>", want: "```abcd\nx\n```"},
}

func TestEscapeCode(t *testing.T) {
	for _, tt := range codeTests {
		t.Run(tt.name, func(t *testing.T) {
			if got := EscapeCode(tt.in, tt.lang); got != tt.want {
				t.Errorf("EscapeCode(%q, %q) = %q, want %q", tt.in, tt.lang, got, tt.want)
			}
		})
	}
}

var backtickRun = regexp.MustCompile("`+")

// refCode applies the rules of docs/reference.md#trust-levels code literally, one after the other.
func refCode(s, lang string) string {
	s = refValid(s)
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case unicode.IsControl(r):
		case unicode.Is(unicode.Cf, r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteRune(r)
		}
	}
	s = b.String()
	if s == "" {
		return ""
	}
	n := 3
	for _, run := range backtickRun.FindAllString(s, -1) {
		n = max(n, len(run)+1)
	}
	fence := strings.Repeat("`", n)
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return fence + codeLang(lang) + "\n" + s + fence
}

// checkFenced checks that out is a fenced code block that no line of its content closes early, and returns the
// content.
func checkFenced(t *testing.T, in, out string) string {
	t.Helper()
	if out == "" {
		return ""
	}
	n := len(out) - len(strings.TrimLeft(out, "`"))
	if n < 3 || !strings.HasSuffix(out, "\n"+strings.Repeat("`", n)) {
		t.Fatalf("EscapeCode(%q) = %q: not fenced", in, out)
	}
	if strings.HasSuffix(out, strings.Repeat("`", n+1)) {
		t.Fatalf("EscapeCode(%q) = %q: the closing fence is longer than the opening one", in, out)
	}
	first := strings.IndexByte(out, '\n')
	if strings.Contains(out[n:first], "`") {
		t.Fatalf("EscapeCode(%q) = %q: the info string holds a backtick", in, out)
	}
	content := out[first+1 : len(out)-n]
	for _, line := range strings.Split(strings.TrimSuffix(content, "\n"), "\n") {
		if strings.Contains(line, strings.Repeat("`", n)) {
			t.Fatalf("EscapeCode(%q) = %q: line %q could close the fence", in, out, line)
		}
	}
	return content
}

func FuzzEscapeCode(f *testing.F) {
	for _, tt := range codeTests {
		f.Add(tt.in, tt.lang)
	}
	for _, c := range hostileSeeds() {
		f.Add(c, "")
	}
	f.Fuzz(func(t *testing.T, in, lang string) {
		out := EscapeCode(in, lang)
		if want := refCode(in, lang); out != want {
			t.Fatalf("EscapeCode(%q, %q) = %q, reference gives %q", in, lang, out, want)
		}
		if !utf8.ValidString(out) {
			t.Fatalf("EscapeCode(%q) = %q: invalid UTF-8", in, out)
		}
		content := checkFenced(t, in, out)
		for _, r := range content {
			if r != '\n' && r != '\t' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r)) {
				t.Fatalf("EscapeCode(%q) = %q holds %U", in, out, r)
			}
		}
	})
}

func BenchmarkEscapeCode(b *testing.B) {
	for _, name := range []string{"clean", "dirty"} {
		s := benchValues[name]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				EscapeCode(s, "diff")
			}
		})
	}
}
