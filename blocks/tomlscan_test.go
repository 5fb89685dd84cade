package blocks

import (
	"strconv"
	"strings"
	"testing"

	"github.com/promptc/promptc/internal/hostile"
	"github.com/promptc/promptc/source"

	"github.com/BurntSushi/toml"
)

// posBlocks has the shapes of a real block file, and some traps: a multi-line string holding lines that look like
// headers, keys and comments, a multi-line array with comments, quoted keys and odd spacing.
const posBlocks = `# Blocks for the ops agent.
title = "Ops"
vars.agent_name.scope = "turn"

[runbook]
order = ["intro", "tools"]
sep = '\n'

[[block]]
id = "intro"
body = """
Hello {{ .name }}.
"""

[[block]]
id = "tools"
body = """Use the tools.
[[block]]
id = "fake"
note = 1 # not a comment
"""
scope = "task"

  [[block]]
  id   =   'third'
tasks = [
  "a", # a comment with ] and [[block]] and "
  "b",
]
after = 1
`

// posQuirks holds the less common corners of TOML.
const posQuirks = `"my key" = 1
'k' = 2
a . "b" . c = 3
point = { x = 1, y = "}" }
s = "a \" # b = 1"
q = """a""""
m = """x \""" y = 1"""
lit = '''it's'''
t = 0

  [ vars . "agent_name" ]
scope = "turn"

[[block]]
[[block.sub]]
id = "s"
[block.meta]
owner = "me"

[[block]]
[block.meta]
owner = "you"
`

// posQuotes has multi-line strings ending in extra quotes and holding an escaped delimiter: miss either and the
// scanner gets out of step.
const posQuotes = `arr = ["""a"""", '''
fake = 1
''']
real = 'x'
m = """x \"""
y = 1"""
`

const posUnicode = `"ünï" = "wört"
[t]
  "ß" = 1 # ü
"日本" . k = 'v'
`

// keyPos is where a key starts (Line, Col) and where its value's content starts (ValLine, ValCol: after the opening
// quotes of a string, at the bracket of an array).
type keyPos struct {
	Line, Col       int
	ValLine, ValCol int
}

func indexKeys(src string) *tomlIndex { return scanTOML(source.NewFile("f", src)) }

// key returns where key of occurrence n of table is, as a keyPos.
func (ix *tomlIndex) key(table string, n int, key string) (keyPos, bool) {
	e, ok := ix.entry(table, n, key)
	if !ok {
		return keyPos{}, false
	}
	v := ix.file.Pos(contentStart(ix.file.Text, e.Value.Start.Byte))
	return keyPos{e.Key.Start.Line, e.Key.Start.Column, v.Line, v.Column}, true
}

// table returns where the header of occurrence n of table starts.
func (ix *tomlIndex) table(table string, n int) (keyPos, bool) {
	r, ok := ix.headerRange(table, n)
	if !ok {
		return keyPos{}, false
	}
	return keyPos{Line: r.Start.Line, Col: r.Start.Column}, true
}

// TestKeyIndexSources checks that the table sources are valid TOML, the only input the scanner is written for.
func TestKeyIndexSources(t *testing.T) {
	for name, src := range map[string]string{"posBlocks": posBlocks, "posQuirks": posQuirks, "posQuotes": posQuotes,
		"posUnicode": posUnicode} {
		var doc map[string]any
		if _, err := toml.Decode(src, &doc); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestKeyIndexKey(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		table string
		n     int
		key   string
		want  keyPos
		ok    bool
	}{
		{name: "root", src: posBlocks, key: "title", want: keyPos{2, 1, 2, 10}, ok: true},
		{name: "root dotted key", src: posBlocks, key: "vars.agent_name.scope", want: keyPos{3, 1, 3, 26}, ok: true},
		{name: "runbook array value", src: posBlocks, table: "runbook", key: "order", want: keyPos{6, 1, 6, 9}, ok: true},
		{name: "runbook literal", src: posBlocks, table: "runbook", key: "sep", want: keyPos{7, 1, 7, 8}, ok: true},
		{name: "block 0 id", src: posBlocks, table: "block", key: "id", want: keyPos{10, 1, 10, 7}, ok: true},
		{name: "body newline after delimiter", src: posBlocks, table: "block", key: "body",
			want: keyPos{11, 1, 12, 1}, ok: true},
		{name: "block 1 id", src: posBlocks, table: "block", n: 1, key: "id", want: keyPos{16, 1, 16, 7}, ok: true},
		{name: "body on delimiter line", src: posBlocks, table: "block", n: 1, key: "body",
			want: keyPos{17, 1, 17, 11}, ok: true},
		{name: "key after multi-line string", src: posBlocks, table: "block", n: 1, key: "scope",
			want: keyPos{22, 1, 22, 10}, ok: true},
		{name: "block 2 indented", src: posBlocks, table: "block", n: 2, key: "id", want: keyPos{25, 3, 25, 13}, ok: true},
		{name: "multi-line array", src: posBlocks, table: "block", n: 2, key: "tasks", want: keyPos{26, 1, 26, 9}, ok: true},
		{name: "key after multi-line array", src: posBlocks, table: "block", n: 2, key: "after",
			want: keyPos{30, 1, 30, 9}, ok: true},
		{name: "fake key in string", src: posBlocks, table: "block", n: 3, key: "id"},
		{name: "fake key in block 1", src: posBlocks, table: "block", n: 1, key: "note"},
		{name: "array element", src: posBlocks, table: "block", n: 2, key: "b"},
		{name: "missing key", src: posBlocks, table: "runbook", key: "title"},
		{name: "missing table", src: posBlocks, table: "nope", key: "id"},

		{name: "basic quoted key", src: posQuirks, key: "my key", want: keyPos{1, 1, 1, 12}, ok: true},
		{name: "literal quoted key", src: posQuirks, key: "k", want: keyPos{2, 1, 2, 7}, ok: true},
		{name: "spaced dotted key", src: posQuirks, key: "a.b.c", want: keyPos{3, 1, 3, 15}, ok: true},
		{name: "inline table", src: posQuirks, key: "point", want: keyPos{4, 1, 4, 9}, ok: true},
		{name: "inline table key not indexed", src: posQuirks, key: "x"},
		{name: "escaped quote", src: posQuirks, key: "s", want: keyPos{5, 1, 5, 6}, ok: true},
		{name: "key in escaped string", src: posQuirks, key: "b"},
		{name: "extra closing quotes", src: posQuirks, key: "q", want: keyPos{6, 1, 6, 8}, ok: true},
		{name: "escaped delimiter", src: posQuirks, key: "m", want: keyPos{7, 1, 7, 8}, ok: true},
		{name: "key in escaped delimiter", src: posQuirks, key: "y"},
		{name: "literal multi-line", src: posQuirks, key: "lit", want: keyPos{8, 1, 8, 10}, ok: true},
		{name: "after posQuirks", src: posQuirks, key: "t", want: keyPos{9, 1, 9, 5}, ok: true},
		{name: "spaced quoted header", src: posQuirks, table: "vars.agent_name", key: "scope",
			want: keyPos{12, 1, 12, 10}, ok: true},
		{name: "nested array table", src: posQuirks, table: "block.sub", key: "id", want: keyPos{16, 1, 16, 7}, ok: true},
		{name: "subtable of block 0", src: posQuirks, table: "block.meta", key: "owner",
			want: keyPos{18, 1, 18, 10}, ok: true},
		{name: "subtable of block 1", src: posQuirks, table: "block.meta", n: 1, key: "owner",
			want: keyPos{22, 1, 22, 10}, ok: true},

		{name: "posUnicode value column", src: posUnicode, key: "ünï", want: keyPos{1, 1, 1, 10}, ok: true},
		{name: "posUnicode indented", src: posUnicode, table: "t", key: "ß", want: keyPos{3, 3, 3, 9}, ok: true},
		{name: "posUnicode dotted", src: posUnicode, table: "t", key: "日本.k", want: keyPos{4, 1, 4, 13}, ok: true},

		{name: "extra closing quotes in array", src: posQuotes, key: "real", want: keyPos{4, 1, 4, 9}, ok: true},
		{name: "key in multi-line string in array", src: posQuotes, key: "fake"},
		{name: "escaped delimiter across lines", src: posQuotes, key: "m", want: keyPos{5, 1, 5, 8}, ok: true},
		{name: "key after escaped delimiter across lines", src: posQuotes, key: "y"},
		{name: "empty source", src: "", key: "a"},
		{name: "empty quoted key", src: `"" = 1`, key: "", want: keyPos{1, 1, 1, 6}, ok: true},
		{name: "escaped key", src: `"a\u00e9\"" = 1`, key: `aé"`, want: keyPos{1, 1, 1, 15}, ok: true},
		{name: "newline at end of file", src: "a = '''\n", key: "a", want: keyPos{1, 1, 2, 1}, ok: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := indexKeys(tt.src).key(tt.table, tt.n, tt.key)
			if got != tt.want || ok != tt.ok {
				t.Errorf("key(%q, %d, %q) = %+v, %v; want %+v, %v", tt.table, tt.n, tt.key, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestKeyIndexTable(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		table string
		n     int
		want  keyPos
		ok    bool
	}{
		{name: "root", src: posBlocks, want: keyPos{Line: 1, Col: 1}, ok: true},
		{name: "root of empty source", src: "", want: keyPos{Line: 1, Col: 1}, ok: true},
		{name: "root has one occurrence", src: posBlocks, n: 1},
		{name: "plain", src: posBlocks, table: "runbook", want: keyPos{Line: 5, Col: 1}, ok: true},
		{name: "block 0", src: posBlocks, table: "block", want: keyPos{Line: 9, Col: 1}, ok: true},
		{name: "block 1", src: posBlocks, table: "block", n: 1, want: keyPos{Line: 15, Col: 1}, ok: true},
		{name: "block 2 indented", src: posBlocks, table: "block", n: 2, want: keyPos{Line: 24, Col: 3}, ok: true},
		{name: "fake header in string", src: posBlocks, table: "block", n: 3},
		{name: "missing", src: posBlocks, table: "vars"},
		{name: "spaced quoted header", src: posQuirks, table: "vars.agent_name", want: keyPos{Line: 11, Col: 3}, ok: true},
		{name: "nested array table", src: posQuirks, table: "block.sub", want: keyPos{Line: 15, Col: 1}, ok: true},
		{name: "second subtable", src: posQuirks, table: "block.meta", n: 1, want: keyPos{Line: 21, Col: 1}, ok: true},
		{name: "posUnicode", src: posUnicode, table: "t", want: keyPos{Line: 2, Col: 1}, ok: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := indexKeys(tt.src).table(tt.table, tt.n)
			if got != tt.want || ok != tt.ok {
				t.Errorf("table(%q, %d) = %+v, %v; want %+v, %v", tt.table, tt.n, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestKeyIndexCount(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		table string
		want  int
	}{
		{name: "blocks, not the one in a string", src: posBlocks, table: "block", want: 3},
		{name: "plain table", src: posBlocks, table: "runbook", want: 0},
		{name: "root", src: posBlocks, table: "", want: 0},
		{name: "outer", src: posQuirks, table: "block", want: 2},
		{name: "nested counts on its own", src: posQuirks, table: "block.sub", want: 1},
		{name: "empty source", src: "", table: "block", want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := indexKeys(tt.src).count(tt.table); got != tt.want {
				t.Errorf("count(%q) = %d; want %d", tt.table, got, tt.want)
			}
		})
	}
}

// FuzzKeyIndex checks that no input makes the scanner panic or hang, that every position it records lies inside
// the source and points at a key or header, and, when BurntSushi/toml accepts the input, that the scanner indexed
// exactly the keys the parser saw and that string values start where it says.
func FuzzKeyIndex(f *testing.F) {
	for _, c := range hostile.Small() {
		f.Add("a = " + strconv.Quote(c.Value) + "\n" + c.Value)
	}
	for _, src := range []string{posBlocks, posQuirks, posQuotes, posUnicode, "", "a = '''\n", `"" = 1`, `"a\u00e9\"" = 1`,
		"a = [[1], {b = [2]}]\n[x]\n", "[[a]]\n[[a]]\nb = \"\"\"\\\n  c\"\"\"", "a = \"\\e\"\n\"\\e\" = 1"} {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		ix := indexKeys(src)
		lines := strings.Split(src, "\n")
		inside := func(what string, line, col int) {
			if line < 1 || col < 1 || line > len(lines) || col > len([]rune(lines[line-1]))+1 {
				t.Fatalf("%s at %d:%d is outside the %d lines of %q", what, line, col, len(lines), src)
			}
		}
		for ref := range ix.keys {
			p, _ := ix.key(ref.table.name, ref.table.n, ref.key)
			e := ix.entries[ix.keys[ref]]
			inside("key "+ref.key, p.Line, p.Col)
			inside("value of "+ref.key, p.ValLine, p.ValCol)
			if r := posRuneAt(lines, p.Line, p.Col); !isBareKeyByte(int(r)) && r != '"' && r != '\'' {
				t.Fatalf("key %q at %d:%d starts with %q", ref.key, p.Line, p.Col, r)
			}
			for _, rng := range append([]source.Range{e.Key, e.Value}, e.Items...) {
				if rng.Start.Byte > rng.End.Byte || rng.End.Byte > len(src) || ix.file.Pos(rng.Start.Byte) != rng.Start {
					t.Fatalf("key %q: range %+v is not a range of the source", ref.key, rng)
				}
			}
		}
		for ref, r := range ix.tables {
			inside("table "+ref.name, r.Start.Line, r.Start.Column)
			if c := posRuneAt(lines, r.Start.Line, r.Start.Column); c != '[' {
				t.Fatalf("table %q at %+v starts with %q", ref.name, r, c)
			}
		}
		for n := range ix.count("block") {
			if _, ok := ix.table("block", n); !ok {
				t.Fatalf("no header for block %d of %d", n, ix.count("block"))
			}
			ix.key("block", n, "id")
		}
		if p, ok := ix.table("", 0); !ok || p.Line != 1 || p.Col != 1 {
			t.Fatalf("root table at %+v, %v", p, ok)
		}

		var doc map[string]any
		md, err := toml.Decode(src, &doc)
		if err != nil || strings.Contains(src, "\r") {
			return // not the normalised, valid TOML the scanner is written for
		}
		if _, ok := ix.tables[tableRef{}]; ok {
			return // a table named "" shares its name with the root
		}
		parsed := map[string]bool{}
		for _, k := range md.Keys() {
			parsed[strings.Join(k, ".")] = true
		}
		var indexed []string
		for ref := range ix.keys {
			p, _ := ix.key(ref.table.name, ref.table.n, ref.key)
			full := posJoin(ref.table.name, ref.key)
			indexed = append(indexed, full)
			if !parsed[full] {
				t.Fatalf("indexed key %q that the parser did not see in %q", full, src)
			}
			want, ok := posDecodedString(doc, ref.table, ref.key)
			if !ok || want == "" {
				continue
			}
			if r := posRuneAt(lines, p.ValLine, p.ValCol); r != '\\' && r != []rune(want)[0] {
				t.Fatalf("value of %q at %d:%d starts with %q, want %q", full, p.ValLine, p.ValCol, r, want)
			}
		}
		for ref := range ix.tables {
			indexed = append(indexed, ref.name)
			if !parsed[ref.name] {
				t.Fatalf("indexed table %q that the parser did not see in %q", ref.name, src)
			}
		}
		// Every key the parser saw is indexed, or lies on the way to or inside (an inline table) one that is.
		for k := range parsed {
			found := false
			for _, full := range indexed {
				if strings.HasPrefix(k+".", full+".") || strings.HasPrefix(full+".", k+".") {
					found = true
					break
				}
			}
			if !found {
				t.Fatalf("parsed key %q was not indexed in %q", k, src)
			}
		}
	})
}

func posJoin(table, key string) string {
	if table == "" {
		return key
	}
	return table + "." + key
}

// posRuneAt returns the rune at line:col, '\n' just past the end of a line that has one, or tomlEOF.
func posRuneAt(lines []string, line, col int) rune {
	if line < 1 || line > len(lines) || col < 1 {
		return tomlEOF
	}
	rs := []rune(lines[line-1])
	switch {
	case col <= len(rs):
		return rs[col-1]
	case col == len(rs)+1 && line < len(lines):
		return '\n'
	}
	return tomlEOF
}

// posDecodedString returns the string value of key in occurrence n of table, when the dotted names lead there
// unambiguously.
func posDecodedString(doc map[string]any, t tableRef, key string) (string, bool) {
	m := doc
	if t.name != "" {
		parts := strings.Split(t.name, ".")
		for i, part := range parts {
			switch v := m[part].(type) {
			case map[string]any:
				if i == len(parts)-1 && t.n != 0 {
					return "", false
				}
				m = v
			case []map[string]any:
				if i < len(parts)-1 || t.n >= len(v) {
					return "", false
				}
				m = v[t.n]
			default:
				return "", false
			}
		}
	}
	parts := strings.Split(key, ".")
	for _, part := range parts[:len(parts)-1] {
		v, ok := m[part].(map[string]any)
		if !ok {
			return "", false
		}
		m = v
	}
	s, ok := m[parts[len(parts)-1]].(string)
	return s, ok
}
