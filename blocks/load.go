package blocks

import (
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
)

// ManifestFile is the name of the manifest at a project's root.
const ManifestFile = "promptc.toml"

// Load reads the project rooted at fsys (promptc.toml, blocks/**/*.toml, templates/, fixtures/*.toml) and checks it.
// It returns every problem at once. The project is returned even when there are diagnostics, holding what could be
// read, so that later stages can report their own problems too; it is valid only when the diagnostics are empty.
func Load(fsys fs.FS) (*Project, Diagnostics) {
	l := &loader{
		fsys: fsys,
		p: &Project{
			Vars:      map[string]*Var{},
			Consts:    map[string]*Const{},
			ByID:      map[string]*Block{},
			Templates: map[string]string{},
			Files:     map[string]string{},
		},
		constPos: map[string]Pos{},
	}
	l.load()
	return l.p, l.diags.Sort()
}

type loader struct {
	fsys     fs.FS
	p        *Project
	diags    Diagnostics
	constPos map[string]Pos
	// brokenTemplates holds the templates/ files that exist but could not be read, by name relative to templates/.
	brokenTemplates map[string]bool
}

func (l *loader) errorf(pos Pos, format string, args ...any) {
	l.diags.Add(pos, format, args...)
}

// readSource reads and normalises one source file; it reports a problem and returns ok=false when it cannot.
func (l *loader) readSource(name string) (string, bool) {
	f := readFile(l.fsys, name)
	return l.record(f)
}

// record keeps a read file's text, or reports why it could not be read.
func (l *loader) record(f *sourceFile) (string, bool) {
	if f.diag != nil {
		l.diags = append(l.diags, *f.diag)
		return "", false
	}
	l.p.Files[f.name] = f.text
	return f.text, true
}

// keepText keeps the text of a file that was read but did not parse, so that later passes can still see it.
func (l *loader) keepText(f *sourceFile) {
	if f.text != "" {
		l.p.Files[f.name] = f.text
	}
}

// sourceFile is one source file read, normalised and, for TOML, parsed: work that depends on the file alone, so it
// can run in parallel; its results are used in path order.
type sourceFile struct {
	name string
	text string
	m    map[string]any
	ix   *keyIndex
	diag *Diagnostic // why the file could not be read or parsed
}

func readFile(fsys fs.FS, name string) *sourceFile {
	f := &sourceFile{name: name}
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		f.diag = &Diagnostic{Pos{File: name}, "cannot read file: " + unwrapPathError(err)}
		return f
	}
	text, line, col, ok := Normalize(data)
	if !ok {
		f.diag = &Diagnostic{Pos{File: name, Line: line, Col: col}, "invalid UTF-8: source files must be UTF-8 encoded"}
		return f
	}
	f.text = text
	return f
}

// parseTOMLFiles reads and parses files on all processors. A file that was read but does not parse keeps its text
// (the loader records it) and carries the syntax error.
func parseTOMLFiles(fsys fs.FS, names []string) []*sourceFile {
	out := make([]*sourceFile, len(names))
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(names)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				f := readFile(fsys, names[i])
				if f.diag == nil {
					f.m, f.ix, f.diag = parseTOML(f.name, f.text)
				}
				out[i] = f
			}
		}()
	}
	for i := range names {
		work <- i
	}
	close(work)
	wg.Wait()
	return out
}

func unwrapPathError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// parseTOML decodes one file into a generic map, reporting syntax errors with their position.
func (l *loader) parseTOML(name, text string) (map[string]any, *keyIndex, bool) {
	m, ix, d := parseTOML(name, text)
	if d != nil {
		l.diags = append(l.diags, *d)
		return nil, nil, false
	}
	return m, ix, true
}

func parseTOML(name, text string) (map[string]any, *keyIndex, *Diagnostic) {
	var m map[string]any
	if _, err := toml.Decode(text, &m); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			msg := pe.Message
			if pe.Usage != "" {
				msg += "; " + firstLine(pe.Usage)
			}
			return nil, nil, &Diagnostic{Pos{File: name, Line: pe.Position.Line, Col: pe.Position.Col}, "TOML syntax error: " + msg}
		}
		return nil, nil, &Diagnostic{Pos{File: name}, "TOML error: " + err.Error()}
	}
	return m, indexKeys(text), nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return s
}

func (l *loader) load() {
	text, ok := l.readSource(ManifestFile)
	if !ok {
		if _, err := fs.Stat(l.fsys, ManifestFile); err != nil {
			l.diags = Diagnostics{{Pos: Pos{File: ManifestFile}, Message: "no promptc.toml: this is not a promptc project (create promptc.toml or pass -C DIR)"}}
		}
		return
	}
	manifest, ix, ok := l.parseTOML(ManifestFile, text)
	if ok {
		l.manifest(ManifestFile, manifest, ix)
	}
	l.loadTemplates()
	for _, f := range parseTOMLFiles(l.fsys, l.listTOML("blocks", true)) {
		l.keepText(f)
		if _, ok := l.record(f); ok {
			l.blockFile(f.name, f.m, f.ix)
		} else {
			l.p.Incomplete = true
		}
	}
	l.checkBlocks()
	for _, f := range parseTOMLFiles(l.fsys, l.listTOML("fixtures", false)) {
		l.keepText(f)
		if _, ok := l.record(f); ok {
			l.fixture(f.name, f.m, f.ix)
		}
	}
	// Fixture names, not file paths, give the order: "a-b.toml" sorts before "a.toml" by path but after it by name.
	sort.SliceStable(l.p.Fixtures, func(i, j int) bool { return l.p.Fixtures[i].Name < l.p.Fixtures[j].Name })
	if len(l.p.Fixtures) == 0 {
		l.p.Fixtures = []*Fixture{{Name: "default", Tasks: []string{"*"}, Session: Values{}, Implicit: true}}
	}
}

// listTOML returns the .toml files under dir (recursively when deep), sorted by slash path so that the result does
// not depend on the order the file system lists directories in.
func (l *loader) listTOML(dir string, deep bool) []string {
	var names []string
	err := fs.WalkDir(l.fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipDir
			}
			l.errorf(Pos{File: p}, "cannot read: %s", unwrapPathError(err))
			return nil
		}
		if d.IsDir() {
			if p != dir && (!deep || strings.HasPrefix(d.Name(), ".")) {
				return fs.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".toml") && !strings.HasPrefix(d.Name(), ".") {
			names = append(names, p)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		l.errorf(Pos{File: dir}, "cannot read: %s", unwrapPathError(err))
	}
	sort.Strings(names)
	return names
}

// loadTemplates reads every file under templates/ (dot files excepted, so editor and OS litter is ignored).
func (l *loader) loadTemplates() {
	var names []string
	_ = fs.WalkDir(l.fsys, "templates", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p != "templates" || !errors.Is(err, fs.ErrNotExist) {
				l.errorf(Pos{File: p}, "cannot read: %s", unwrapPathError(err))
			}
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") && p != "templates" {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			names = append(names, p)
		}
		return nil
	})
	sort.Strings(names)
	l.brokenTemplates = map[string]bool{}
	for _, name := range names {
		rel := strings.TrimPrefix(name, "templates/")
		if text, ok := l.readSource(name); ok {
			l.p.Templates[rel] = text
		} else {
			l.brokenTemplates[rel] = true
		}
	}
}

// table gives typed, positioned access to one TOML table and remembers which keys were read, so that the rest can
// be reported as unknown.
type table struct {
	l     *loader
	file  string
	ix    *keyIndex
	name  string // table name as the key index knows it: "", "runbook", "vars.x", "block"
	n     int    // occurrence of an array-of-tables header
	what  string // how messages name the table: "[runbook]", "[[block]] \"id\""
	m     map[string]any
	known map[string]bool
}

func (l *loader) table(file string, ix *keyIndex, name string, n int, what string, m map[string]any) *table {
	return &table{l: l, file: file, ix: ix, name: name, n: n, what: what, m: m, known: map[string]bool{}}
}

// pos is the position of key, or of the table's header when the key cannot be located.
func (t *table) pos(key string) Pos {
	if kp, ok := t.ix.key(t.name, t.n, key); ok {
		return Pos{File: t.file, Line: kp.Line, Col: kp.Col}
	}
	return t.head()
}

// valPos is where the value of key starts.
func (t *table) valPos(key string) Pos {
	if kp, ok := t.ix.key(t.name, t.n, key); ok && kp.ValLine > 0 {
		return Pos{File: t.file, Line: kp.ValLine, Col: kp.ValCol}
	}
	return t.pos(key)
}

// head is the position of the table's header.
func (t *table) head() Pos {
	if t.name == "" {
		return Pos{File: t.file, Line: 1, Col: 1}
	}
	if kp, ok := t.ix.table(t.name, t.n); ok {
		return Pos{File: t.file, Line: kp.Line, Col: kp.Col}
	}
	// A table defined only through dotted keys or inline: point at its first key.
	prefix := t.name
	if i := strings.LastIndexByte(prefix, '.'); i >= 0 {
		if kp, ok := t.ix.key(prefix[:i], 0, prefix[i+1:]); ok {
			return Pos{File: t.file, Line: kp.Line, Col: kp.Col}
		}
	}
	if kp, ok := t.ix.key("", 0, prefix); ok {
		return Pos{File: t.file, Line: kp.Line, Col: kp.Col}
	}
	return Pos{File: t.file}
}

func (t *table) errorf(key string, format string, args ...any) {
	t.l.errorf(t.pos(key), format, args...)
}

func (t *table) get(key string) (any, bool) {
	t.known[key] = true
	v, ok := t.m[key]
	return v, ok
}

func (t *table) str(key string) (string, bool) {
	v, ok := t.get(key)
	if !ok {
		return "", false
	}
	s, isStr := v.(string)
	if !isStr {
		t.errorf(key, "%s must be a string, not %s", key, tomlType(v))
		return "", false
	}
	return s, true
}

func (t *table) boolean(key string) (bool, bool) {
	v, ok := t.get(key)
	if !ok {
		return false, false
	}
	b, isBool := v.(bool)
	if !isBool {
		t.errorf(key, "%s must be true or false, not %s", key, tomlType(v))
		return false, false
	}
	return b, true
}

// integer reads a non-negative integer.
func (t *table) integer(key string) (int, bool) {
	v, ok := t.get(key)
	if !ok {
		return 0, false
	}
	n, isInt := v.(int64)
	if !isInt {
		t.errorf(key, "%s must be an integer, not %s", key, tomlType(v))
		return 0, false
	}
	if n < 0 || n > 1<<31 {
		t.errorf(key, "%s must be between 0 and %d, not %d", key, 1<<31, n)
		return 0, false
	}
	return int(n), true
}

func (t *table) strList(key string) ([]string, bool) {
	v, ok := t.get(key)
	if !ok {
		return nil, false
	}
	arr, isArr := v.([]any)
	if !isArr {
		t.errorf(key, "%s must be a list of strings, not %s", key, tomlType(v))
		return nil, false
	}
	out := make([]string, 0, len(arr))
	for i, e := range arr {
		s, isStr := e.(string)
		if !isStr {
			t.errorf(key, "%s[%d] must be a string, not %s", key, i, tomlType(e))
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// sub returns the nested table under key, or nil (with a diagnostic when the key holds something else).
func (t *table) sub(key string) (map[string]any, bool) {
	v, ok := t.get(key)
	if !ok {
		return nil, false
	}
	m, isMap := v.(map[string]any)
	if !isMap {
		t.errorf(key, "%s must be a table, not %s", key, tomlType(v))
		return nil, false
	}
	return m, true
}

// tables returns the array of tables under key.
func (t *table) tables(key string) ([]map[string]any, bool) {
	v, ok := t.get(key)
	if !ok {
		return nil, false
	}
	switch a := v.(type) {
	case []map[string]any:
		return a, true
	case []any:
		out := make([]map[string]any, 0, len(a))
		for _, e := range a {
			m, isMap := e.(map[string]any)
			if !isMap {
				t.errorf(key, "%s must be an array of tables ([[%s]]), not an array of %s", key, key, tomlType(e))
				return nil, false
			}
			out = append(out, m)
		}
		return out, true
	}
	t.errorf(key, "%s must be an array of tables ([[%s]]), not %s", key, key, tomlType(v))
	return nil, false
}

// unknown reports every key of the table that was never read.
func (t *table) unknown(allowed ...string) {
	var keys []string
	for k := range t.m {
		if !t.known[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		pos := t.pos(k)
		if kp, ok := t.ix.table(joinKey(t.name, k), t.n); ok && pos == t.head() {
			pos = Pos{File: t.file, Line: kp.Line, Col: kp.Col}
		}
		where := ""
		if t.what != "" {
			where = " in " + t.what
		}
		t.l.errorf(pos, "unknown key %q%s%s", k, where, didYouMeanOr(k, allowed))
	}
}

func didYouMeanOr(k string, allowed []string) string {
	if s := DidYouMean(k, allowed); s != "" {
		return s
	}
	if len(allowed) == 0 {
		return ""
	}
	return " (known keys: " + strings.Join(allowed, ", ") + ")"
}

func joinKey(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

func tomlType(v any) string {
	switch v := v.(type) {
	case string:
		return "a string"
	case int64, int, int8, int16, int32, uint, uint8, uint16, uint32, uint64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any, []map[string]any, []string:
		return "an array"
	case map[string]any:
		return "a table"
	case nil:
		return "nothing"
	case time.Time:
		return "a date or time"
	default:
		_ = v
		return fmt.Sprintf("a %T", v)
	}
}

// Locate finds the first occurrence of needle in from's file at or after from, so that a diagnostic about one
// element of a list can point at that element. A column past the end of from's line counts as the line's end. It
// returns the needle's position and true, or from and false when the file is not in p.Files, from has no line, or
// needle does not occur after it.
func (p *Project) Locate(from Pos, needle string) (Pos, bool) {
	text, ok := p.Files[from.File]
	if !ok {
		return from, false
	}
	off := lineOffset(text, from.Line)
	if off < 0 {
		return from, false
	}
	for col := 1; col < from.Col && off < len(text) && text[off] != '\n'; col++ {
		_, size := utf8.DecodeRuneInString(text[off:])
		off += size
	}
	i := strings.Index(text[off:], needle)
	if i < 0 {
		return from, false
	}
	line, col := LineCol(text, off+i)
	return Pos{File: from.File, Line: line, Col: col}, true
}

// locateNth finds the last occurrence of needle among the first occurrences of id in order up to the current one:
// for a duplicate in a list, the second mention rather than the first.
func (l *loader) locateNth(from Pos, needle string, order []string, id string) Pos {
	count := 0
	for _, o := range order {
		if o == id {
			count++
		}
	}
	pos := from
	for i := 0; i < count; i++ {
		next, ok := l.p.Locate(pos, needle)
		if !ok {
			break
		}
		pos = next
		if i < count-1 {
			pos.Col++ // search past this occurrence
		}
	}
	return pos
}
