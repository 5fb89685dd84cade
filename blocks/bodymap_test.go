package blocks

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/source"
)

const bmManifest = "name = \"p\"\ntasks = [\"t\"]\n\n[runbook]\norder = [\"a\"]\n"

// bmLoad loads a project of the manifest above, blocks/a.toml and, when tmpl is not empty, templates/t.md.
func bmLoad(blocksFile, tmpl string) (*Project, source.Diagnostics) {
	fsys := fstest.MapFS{
		ManifestFile:    {Data: []byte(bmManifest)},
		"blocks/a.toml": {Data: []byte(blocksFile)},
	}
	if tmpl != "" {
		fsys["templates/t.md"] = &fstest.MapFile{Data: []byte(tmpl)}
	}
	return Load(fsys)
}

var sourcePosTests = []struct {
	name     string
	file     string // blocks/a.toml
	tmpl     string // templates/t.md
	constant string // look in this constant's value instead of block "a"'s body
	needle   string // the byte of the value looked up is where needle first occurs
	want     string // its position
	content  string // the file's text in the value's SourceRange
}{
	{
		name:    "tab escape",
		file:    "[[block]]\nid = \"a\"\nbody = \"a\\tb c\"\n",
		needle:  "c",
		want:    "blocks/a.toml:3:14",
		content: `a\tb c`,
	},
	{
		name:    "escaped quote",
		file:    "[[block]]\nid = \"a\"\nbody = \"say \\\"hi\\\" now\"\n",
		needle:  "now",
		want:    "blocks/a.toml:3:20",
		content: `say \"hi\" now`,
	},
	{
		name:   "escaped quote itself",
		file:   "[[block]]\nid = \"a\"\nbody = \"say \\\"hi\\\" now\"\n",
		needle: `"`,
		want:   "blocks/a.toml:3:13",
	},
	{
		name:   "short unicode escape",
		file:   "[[block]]\nid = \"a\"\nbody = \"caf\\u00e9 ok\"\n",
		needle: "ok",
		want:   "blocks/a.toml:3:19",
	},
	{
		name:   "every byte of an escape maps to its backslash",
		file:   "[[block]]\nid = \"a\"\nbody = \"caf\\u00e9 ok\"\n",
		needle: "\xa9", // the second byte of é
		want:   "blocks/a.toml:3:12",
	},
	{
		name:   "long unicode escape",
		file:   "[[block]]\nid = \"a\"\nbody = \"hi \\U0001F600 there\"\n",
		needle: "there",
		want:   "blocks/a.toml:3:23",
	},
	{
		name:   "raw characters after an escape count in runes",
		file:   "[[block]]\nid = \"a\"\nbody = \"\\u00e9 é x\"\n",
		needle: "x",
		want:   "blocks/a.toml:3:18",
	},
	{
		name:    "line-ending backslash",
		file:    "[[block]]\nid = \"a\"\nbody = \"\"\"\nfirst \\\n     second\n\"\"\"\n",
		needle:  "second",
		want:    "blocks/a.toml:5:6",
		content: "first \\\n     second\n",
	},
	{
		name:   "line-ending backslash with blanks before the newline",
		file:   "[[block]]\nid = \"a\"\nbody = \"\"\"\nfirst \\  \n\n  second\\tx\"\"\"\n",
		needle: "x",
		want:   "blocks/a.toml:6:11",
	},
	{
		name:   "multi-line basic string on the delimiter's line",
		file:   "[[block]]\nid = \"a\"\nbody = \"\"\"one\\t\ntwo\"\"\"\n",
		needle: "two",
		want:   "blocks/a.toml:4:1",
	},
	{
		name:    "quotes before the closing delimiter",
		file:    "[[block]]\nid = \"a\"\nbody = \"\"\"x\"\"\"\"\"\n",
		needle:  `"`,
		want:    "blocks/a.toml:3:12",
		content: `x""`,
	},
	{
		name:    "literal string",
		file:    "[[block]]\nid = \"a\"\nbody = 'a\\tb c'\n",
		needle:  "c",
		want:    "blocks/a.toml:3:14",
		content: `a\tb c`,
	},
	{
		name:    "multi-line literal string",
		file:    "[[block]]\nid = \"a\"\nbody = '''\nline one\n  line \\two\n'''\n",
		needle:  "two",
		want:    "blocks/a.toml:5:9",
		content: "line one\n  line \\two\n",
	},
	{
		name:   "end of the body is the closing delimiter",
		file:   "[[block]]\nid = \"a\"\nbody = \"a\\tb\"\n",
		needle: "\x00", // not in the body: look up len(Body)
		want:   "blocks/a.toml:3:13",
	},
	{
		name:    "template file",
		file:    "[[block]]\nid = \"a\"\ntemplate = \"t.md\"\n",
		tmpl:    "hello\\t\nworld {{ .x }}\n",
		needle:  "world",
		want:    "templates/t.md:2:1",
		content: "hello\\t\nworld {{ .x }}\n",
	},
	{
		name:     "constant",
		file:     "[const]\nrule = \"Never \\\"push\\\"\\t to main.\"\n\n[[block]]\nid = \"a\"\nbody = \"x\"\n",
		constant: "rule",
		needle:   "to main",
		want:     "blocks/a.toml:2:26",
		content:  `Never \"push\"\t to main.`,
	},
	{
		name:     "multi-line constant",
		file:     "[const]\nrule = \"\"\"\n  \\u00e9 one\n  two\"\"\"\n\n[[block]]\nid = \"a\"\nbody = \"x\"\n",
		constant: "rule",
		needle:   "two",
		want:     "blocks/a.toml:4:3",
	},
}

func TestSourcePos(t *testing.T) {
	for _, tt := range sourcePosTests {
		t.Run(tt.name, func(t *testing.T) {
			p, diags := bmLoad(tt.file, tt.tmpl)
			if len(diags) > 0 {
				t.Fatalf("load: %s", diags)
			}
			value, at, content := bmSubject(p, tt.constant)
			off := strings.Index(value, tt.needle)
			if off < 0 {
				off = len(value)
			}
			got := at(off, off)
			if got.String() != tt.want {
				t.Errorf("SourceRange(%d, %d) = %s, want %s", off, off, got, tt.want)
			}
			// The position's byte offset is the same place as its line and column.
			f := p.Files[got.Filename]
			if f.Pos(got.Start.Byte) != got.Start {
				t.Errorf("SourceRange(%d): %+v, but byte %d is at %+v", off, got.Start, got.Start.Byte, f.Pos(got.Start.Byte))
			}
			if text := p.Files[content.Filename].Text[content.Start.Byte:content.End.Byte]; tt.content != "" && text != tt.content {
				t.Errorf("the content range holds %q, want %q", text, tt.content)
			}
		})
	}
}

// bmSubject returns the value of constant name, or of block "a"'s body when name is "", with its mapping and the
// range of its content.
func bmSubject(p *Project, name string) (string, func(int, int) source.Range, source.Range) {
	if name != "" {
		c := p.Consts[name]
		return c.Value, c.SourceRange, c.ValueRange
	}
	b := p.ByID["a"]
	return b.Body, b.SourceRange, b.BodyRange
}

// TestSourceRangeSpans: a range of a body covers the text that wrote those bytes, escapes included.
func TestSourceRangeSpans(t *testing.T) {
	p, diags := bmLoad("[[block]]\nid = \"a\"\nbody = \"say \\u00e9 now\"\n", "")
	if len(diags) > 0 {
		t.Fatalf("load: %s", diags)
	}
	b := p.ByID["a"]
	text := p.Files["blocks/a.toml"].Text
	for _, tt := range []struct {
		start, end int
		want       string
	}{
		{0, 3, "say"},
		{4, 6, `\u00e9`}, // é is two bytes of the value and one escape of the file
		{4, 5, `\u00e9`}, // half of it still takes the escape
		{7, 10, "now"},
		{3, 3, ""},
	} {
		r := b.SourceRange(tt.start, tt.end)
		if got := text[r.Start.Byte:r.End.Byte]; got != tt.want {
			t.Errorf("SourceRange(%d, %d) holds %q, want %q", tt.start, tt.end, got, tt.want)
		}
	}
}

// TestSourcePosUnknown: a body whose source is unknown counts from its start: line 1 from BodyRange's start, later
// lines from column 1.
func TestSourcePosUnknown(t *testing.T) {
	b := &Block{Body: "ab\ncd", BodyRange: source.Range{Filename: "f", Start: source.Pos{Line: 3, Column: 9}}}
	for off, want := range map[int]string{0: "f:3:9", 1: "f:3:10", 4: "f:4:2", 99: "f:4:3", -1: "f:3:9"} {
		if got := b.SourceRange(off, off).String(); got != want {
			t.Errorf("SourceRange(%d) = %s, want %s", off, got, want)
		}
	}
	c := &Const{Value: "x", ValueRange: source.Range{Filename: "f", Start: source.Pos{Line: 2, Column: 5}}}
	if got := c.SourceRange(1, 1).String(); got != "f:2:6" {
		t.Errorf("Const.SourceRange(1) = %s, want f:2:6", got)
	}
}

// TestSourcePosMismatch: when the file does not decode to the loaded value, positions count from the value's start
// and never leave the file.
func TestSourcePosMismatch(t *testing.T) {
	f := source.NewFile("f", "body = \"a\\tb\"\n")
	b := &Block{Body: "a\nb\nc\nd", BodyRange: f.Range(8, 12)}
	b.src = newOrigin(f, 8, b.Body, false)
	if got := b.SourceRange(2, 2).String(); got != "f:2:1" {
		t.Errorf("SourceRange(2) = %s, want f:2:1", got)
	}
	if got := b.SourceRange(6, 6).String(); got != "f:1:9" {
		t.Errorf("SourceRange(6) = %s, want f:1:9 (the guess leaves the file)", got)
	}
}

// TestSourcePosConcurrent: the compiler asks for positions from many goroutines; the first decodes the string (run with
// -race).
func TestSourcePosConcurrent(t *testing.T) {
	p, diags := bmLoad(sourcePosTests[0].file, "")
	if len(diags) > 0 {
		t.Fatalf("load: %s", diags)
	}
	b := p.ByID["a"]
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := b.SourceRange(len(b.Body)-1, len(b.Body)-1).String(); got != "blocks/a.toml:3:14" {
				t.Errorf("SourceRange = %s, want blocks/a.toml:3:14", got)
			}
		}()
	}
	wg.Wait()
}

// TestSourcePosChanged: a body changed after loading no longer maps through the file it was loaded from.
func TestSourcePosChanged(t *testing.T) {
	p, diags := bmLoad("[[block]]\nid = \"a\"\nbody = \"\\u00e9\\u00e9 x\"\n", "")
	if len(diags) > 0 {
		t.Fatalf("load: %s", diags)
	}
	b := p.ByID["a"]
	if got := b.SourceRange(5, 5).String(); got != "blocks/a.toml:3:22" {
		t.Errorf("SourceRange(5) = %s, want blocks/a.toml:3:22", got)
	}
	b.Body = "éé y"
	if got := b.SourceRange(5, 5).String(); got != "blocks/a.toml:3:12" {
		t.Errorf("SourceRange(5) after the change = %s, want blocks/a.toml:3:12, counted from BodyRange", got)
	}
}

func TestTOMLString(t *testing.T) {
	tests := []struct {
		name, src string
		start     int
		want      string
		offs      []int
	}{
		{"basic", `a = "x\ty"`, 5, "x\ty", []int{5, 6, 8, 9}},
		{"literal", `a = 'x\ty'`, 5, `x\ty`, []int{5, 6, 7, 8, 9}},
		{"unicode escape", `a = "\u00e9!"`, 5, "é!", []int{5, 5, 11, 12}},
		{"multi-line trims", "a = \"\"\"\nab\\\n   cd\"\"\"", 8, "abcd", []int{8, 9, 15, 16, 17}},
		{"quotes before closing", `a = """x""""`, 7, `x"`, []int{7, 8, 9}},
		{"multi-line literal", "a = '''\nx\n'''", 8, "x\n", []int{8, 9, 10}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, offs, ok := tomlString(tt.src, tt.start)
			if !ok || got != tt.want || fmt.Sprint(offs) != fmt.Sprint(tt.offs) {
				t.Errorf("tomlString = %q, %v, %v; want %q, %v", got, offs, ok, tt.want, tt.offs)
			}
			checkOriginOffsets(t, tt.src, tt.start, got, offs)
		})
	}
}

// checkOriginOffsets: an origin of value, loaded from src at start, maps each byte where tomlString's offsets say,
// through its runs.
func checkOriginOffsets(t *testing.T, src string, start int, value string, offs []int) {
	t.Helper()
	o := newOrigin(source.NewFile("f.toml", src), start, value, false)
	for i, want := range offs {
		if got, ok := o.offset(i); !ok || got != want {
			t.Fatalf("origin offset of byte %d = %d, %v; want %d (tomlString: %v)", i, got, ok, want, offs)
		}
	}
	if _, ok := o.offset(len(value) + 1); ok {
		t.Fatalf("origin offset past the end is known")
	}
}

// FuzzTOMLString: decoding never panics, and a decoded string maps every byte to a source offset, in order, as an
// origin of it maps them too.
func FuzzTOMLString(f *testing.F) {
	for _, seed := range []string{`a = "x\ty"`, `a = 'x'`, "a = \"\"\"\nab\\\n   cd\"\"\"", `a = """x""""`, `a = "\u00e9"`, `a = "\x`} {
		f.Add(seed, 5)
	}
	f.Fuzz(func(t *testing.T, src string, start int) {
		if start < 0 || start > len(src) {
			return
		}
		val, offs, ok := tomlString(src, start)
		if !ok {
			return
		}
		if len(offs) != len(val)+1 {
			t.Fatalf("%d offsets for %d bytes", len(offs), len(val))
		}
		for i, o := range offs {
			if o < start || o > len(src) || i > 0 && o < offs[i-1] {
				t.Fatalf("offset %d of byte %d out of order or range", o, i)
			}
		}
		checkOriginOffsets(t, src, start, val, offs)
	})
}

// FuzzSourcePos: whatever the block file and template hold, looking up any range of any body or constant never
// panics, and every range lies inside the file, its byte offsets agreeing with its lines and columns.
func FuzzSourcePos(f *testing.F) {
	for _, tt := range sourcePosTests {
		f.Add(tt.file, tt.tmpl)
	}
	f.Fuzz(func(t *testing.T, file, tmpl string) {
		p, _ := bmLoad(file, tmpl)
		check := func(what, value string, at func(int, int) source.Range) {
			for off := -1; off <= len(value)+1; off++ {
				r := at(off, off+1)
				src, ok := p.Files[r.Filename]
				if !ok || src.Offset(r.Start.Line, r.Start.Column) != r.Start.Byte || r.End.Byte < r.Start.Byte || r.End.Byte > len(src.Text) {
					t.Fatalf("%s: SourceRange(%d) = %s %+v, outside the file", what, off, r, r)
				}
			}
		}
		for _, b := range p.Blocks {
			if b.BodyRange.Known() {
				check("block "+b.ID, b.Body, b.SourceRange)
			}
		}
		for _, c := range p.Consts {
			check("constant "+c.Name, c.Value, c.SourceRange)
		}
	})
}
