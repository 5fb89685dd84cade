package blocks

import (
	"errors"
	"io"
	"io/fs"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/source"
)

// ManifestFile is the name of the manifest at a project's root.
const ManifestFile = "promptc.toml"

// Load reads the project rooted at fsys (promptc.toml, blocks/**/*.toml, templates/, fixtures/*.toml) and checks it.
// It returns every problem at once. The project is returned even when there are diagnostics, holding what could be
// read, so that later stages can report their own problems too; it is valid only when the diagnostics are empty.
//
// The values of the fixtures are read, not checked against their declarations (Fixture.RawSession, RawTurns): a
// front end loads through values.Load, which checks them (docs/values.md).
func Load(fsys fs.FS) (*Project, source.Diagnostics) {
	l := newLoader(fsys)
	l.load()
	return l.p, l.diags.Sort()
}

func newLoader(fsys fs.FS) *loader {
	return &loader{
		fsys: fsys,
		p: &Project{
			Vars:      map[string]*Var{},
			Consts:    map[string]*Const{},
			ByID:      map[string]*Block{},
			Templates: map[string]string{},
			Files:     map[string]*source.File{},
		},
		constRange:     map[string]source.Range{},
		toolRange:      map[string]source.Range{},
		brokenFixtures: map[string]bool{},
		badKeys:        map[string]bool{},
		badTasks:       map[string]bool{},
	}
}

type loader struct {
	fsys fs.FS
	// cache, when set, holds the blocks/ and templates/ files of the last load (see LoadCached).
	cache      *FileCache
	p          *Project
	diags      source.Diagnostics
	constRange map[string]source.Range
	// toolRange holds where each tool's name is written, for the message about a second definition.
	toolRange map[string]source.Range
	// brokenTemplates holds the templates/ files that exist but could not be read, by name relative to templates/.
	brokenTemplates map[string]bool
	// vars suggests variable names; built once the manifest is read.
	vars *suggest.Suggester
	// brokenFixtures holds the names of the fixtures whose files could not be read or parsed: a fixture extending
	// one is not told that it extends an unknown fixture.
	brokenFixtures map[string]bool
	// badKeys holds the keys of promptc.toml that are missing where required, or whose value has the wrong type,
	// as "table.key" (".tasks", "runbook.order", ".runbook"): what they would have declared is unknown, so its uses
	// are not reported as undeclared (one problem, one diagnostic).
	badKeys map[string]bool
	// badTasks holds the names in tasks that are not valid task names: reported once, at tasks, not again at
	// every gate that names them.
	badTasks map[string]bool
}

func (l *loader) errorf(rng source.Range, format string, args ...any) {
	l.diags.Errorf(rng, format, args...)
}

// sourceFile is one source file read, normalised and, for TOML, parsed: work that depends on the file alone, so it
// can run in parallel; its results are used in path order.
type sourceFile struct {
	name string
	file *source.File // nil when the file could not be read
	m    map[string]any
	ix   *tomlIndex
	diag *source.Diagnostic // why the file could not be read or parsed
}

func readFile(fsys fs.FS, name string) *sourceFile {
	data, err := readLimited(fsys, name, MaxSourceBytes)
	if err != nil {
		return readError(name, err)
	}
	return decodeFile(name, data)
}

// readError is a file that could not be read, with why.
func readError(name string, err error) *sourceFile {
	return &sourceFile{name: name, diag: &source.Diagnostic{Summary: "cannot read file: " + unwrapPathError(err), Subject: source.FileRange(name).Ptr()}}
}

// decodeFile checks and normalises the bytes data read from file name.
func decodeFile(name string, data []byte) *sourceFile {
	f := &sourceFile{name: name}
	if d := CheckSourceSize(name, len(data), "source file"); d != nil {
		f.diag = d
		return f
	}
	text, bad, ok := source.Normalize(data)
	if !ok {
		f.diag = &source.Diagnostic{Summary: "invalid UTF-8: source files must be UTF-8 encoded",
			Subject: &source.Range{Filename: name, Start: bad, End: bad}}
		return f
	}
	f.file = source.NewFile(name, text)
	return f
}

// readLimited reads file name of fsys, but no more than limit+1 bytes of it: enough to tell that it is too large
// without reading a huge file into memory.
//
// Only a regular file is read (a link to one is): opening a named pipe waits for a writer, so build, lint, the
// language server and serve's rebuilds would hang in open(2) on a FIFO that stands among the sources. Its type is
// known from a stat, which does not open it.
func readLimited(fsys fs.FS, name string, limit int) ([]byte, error) {
	if fi, err := fs.Stat(fsys, name); err == nil && !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: NotRegularError{fi.Mode()}}
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := 512
	if fi, err := f.Stat(); err == nil {
		if !fi.Mode().IsRegular() {
			return nil, &fs.PathError{Op: "open", Path: name, Err: NotRegularError{fi.Mode()}}
		}
		size = int(min(fi.Size(), int64(limit))) + 1
	}
	data := make([]byte, 0, size)
	for len(data) <= limit {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := f.Read(data[len(data):min(cap(data), limit+1)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
	return data, nil
}

// parseTOMLFiles reads and parses the files names on as many goroutines as there are processors, and returns them
// in the order given.
func parseTOMLFiles(fsys fs.FS, names []string) []*sourceFile {
	out := make([]*sourceFile, 0, len(names))
	eachTOMLFile(fsys, nil, names, func(f *sourceFile) { out = append(out, f) })
	return out
}

// eachTOMLFile parses the files names as parseTOMLFiles does and calls each with every one, in the order given, on
// the caller's goroutine, as soon as it and those before it are parsed: what each does with a file (decoding its
// blocks) overlaps with parsing the files after it. Files c holds as they are are not parsed again; c may be nil.
func eachTOMLFile(fsys fs.FS, c *FileCache, names []string, each func(*sourceFile)) {
	eachParsed(fsys, c, names, nil, func(_ int, f *sourceFile) { each(f) })
}

// eachParsed is eachTOMLFile, calling work (when not nil) with each file and its index on the goroutine that
// parsed it, before each is called with them on the caller's.
func eachParsed(fsys fs.FS, c *FileCache, names []string, work, each func(int, *sourceFile)) {
	out := make([]*sourceFile, len(names))
	ready := make([]chan struct{}, len(names))
	for i := range ready {
		ready[i] = make(chan struct{})
	}
	var next atomic.Int64
	for range min(runtime.GOMAXPROCS(0), len(names)) {
		go func() {
			for i := int(next.Add(1)) - 1; i < len(names); i = int(next.Add(1)) - 1 {
				out[i] = c.read(fsys, names[i], true)
				if work != nil {
					work(i, out[i])
				}
				close(ready[i])
			}
		}()
	}
	for i := range names {
		<-ready[i]
		each(i, out[i])
	}
}

func parseTOMLFile(fsys fs.FS, name string) *sourceFile {
	f := readFile(fsys, name)
	if f.diag == nil {
		f.m, f.ix, f.diag = parseTOML(f.file)
	}
	return f
}

func unwrapPathError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// parseTOML decodes one file into a generic map and indexes where its keys are, or reports its syntax error where
// it is.
func parseTOML(f *source.File) (map[string]any, *tomlIndex, *source.Diagnostic) {
	// BurntSushi/toml is quadratic in nesting depth and key-path length: refuse what would take seconds first.
	if d := checkTOMLLimits(f); d != nil {
		return nil, nil, d
	}
	// Most files take the fast path; the rest, and every error, are BurntSushi/toml's (see decodeTOMLFast).
	m, fast := decodeTOMLFast(f.Text)
	if fast {
		return m, scanTOML(f), nil
	}
	if _, err := toml.Decode(f.Text, &m); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			msg := pe.Message
			if pe.Usage != "" {
				msg += "; " + firstLine(pe.Usage)
			}
			at := syntaxErrorOffset(f.Text, pe)
			return nil, nil, &source.Diagnostic{Summary: "TOML syntax error: " + msg, Subject: f.Range(at, at).Ptr()}
		}
		return nil, nil, &source.Diagnostic{Summary: "TOML error: " + err.Error(), Subject: source.FileRange(f.Name).Ptr()}
	}
	return m, scanTOML(f), nil
}

// syntaxErrorOffset is where a TOML syntax error is. BurntSushi/toml's line and column are often off (they count
// bytes, and sometimes the next line), but its byte offset is right; for an invalid escape it points at the start of
// the string, so the escape itself is looked up there.
func syntaxErrorOffset(text string, pe toml.ParseError) int {
	start := max(0, min(pe.Position.Start, len(text)))
	if strings.Contains(pe.Message, "escape") {
		end := min(len(text), start+max(pe.Position.Len, 0))
		for i := start; i < end; i++ {
			if text[i] == '\\' {
				if n, _ := escape(text[i:], true); n == 0 {
					return i
				}
				i++ // a valid escape: skip the character it escapes
			}
		}
	}
	return start
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return s
}

// record keeps a read file's text and reports whether it parsed; a file that could not be read or parsed is
// reported.
func (l *loader) record(f *sourceFile) bool {
	if f.file != nil {
		l.p.Files[f.name] = f.file
	}
	if f.diag != nil {
		d := *f.diag
		d.Cause = true
		l.diags = append(l.diags, d)
		return false
	}
	return true
}

func (l *loader) load() {
	mf := l.cache.manifest(l.fsys)
	if mf.file == nil {
		// Without a manifest nothing else can be checked: report only why it could not be read.
		if _, err := fs.Stat(l.fsys, ManifestFile); errors.Is(err, fs.ErrNotExist) {
			l.errorf(source.FileRange(ManifestFile), "no promptc.toml: this is not a promptc project (create promptc.toml or pass -C DIR)")
		} else {
			l.record(mf)
		}
		return
	}
	if !l.record(mf) {
		l.syntaxOnly()
		return
	}
	l.manifest(mf)
	l.vars = suggest.NewSuggester(sortedKeys(l.p.Vars))
	l.loadTemplates()
	names := l.listTOML("blocks", true)
	// Without a cache, each file's blocks are also decoded on the goroutine that parsed it, as decodeAlone decodes
	// them for the language server's cache, and merged below in path order: decoding them one after the other here
	// was a quarter of a build's load. A file that defines a name an earlier one defines too is decoded again in
	// place, so that the clash is reported as it is without this.
	var alone []*decodedFile
	var work func(int, *sourceFile)
	if l.cache == nil {
		base := l.decodeBase()
		alone = make([]*decodedFile, len(names))
		work = func(i int, f *sourceFile) {
			if f.diag == nil {
				alone[i] = base.decodeAlone(f)
			}
		}
	}
	eachParsed(l.fsys, l.cache, names, work, func(i int, f *sourceFile) {
		switch {
		case !l.record(f):
			l.p.Incomplete = true
		case alone != nil && alone[i] != nil:
			if !l.merge(alone[i]) {
				l.blockFile(f)
			}
		default:
			l.blockFileCached(f)
		}
	})
	l.checkBlocks()
	l.constMarkers()
	for _, f := range parseTOMLFiles(l.fsys, l.listTOML("fixtures", false)) {
		if !l.checkFixtureName(f.name) {
			continue
		}
		if l.record(f) {
			l.fixture(f)
		} else {
			l.brokenFixtures[fixtureName(f.name)] = true
		}
	}
	// Fixture names, not file paths, give the order: "a-b.toml" sorts before "a.toml" by path but after it by name.
	slices.SortStableFunc(l.p.Fixtures, func(a, b *Fixture) int { return strings.Compare(a.Name, b.Name) })
	l.resolveFixtures()
	if len(l.p.Fixtures) == 0 {
		l.p.Fixtures = []*Fixture{{Name: "default", Tasks: []string{"*"}, Session: Values{}, Implicit: true}}
	}
}

// syntaxOnly checks what the other files hold on their own (that they can be read, are UTF-8 and parse) when
// promptc.toml does not parse. Without the manifest every task, variable, order list and target is unknown, and
// checking the blocks and fixtures against nothing would report every use of them (blocks "not placed", tasks
// "undeclared", variables "unknown"), burying the one real problem under dozens that follow from it.
func (l *loader) syntaxOnly() {
	l.p.Incomplete = true
	l.loadTemplates()
	for _, f := range parseTOMLFiles(l.fsys, l.listTOML("blocks", true)) {
		l.record(f)
	}
	for _, f := range parseTOMLFiles(l.fsys, l.listTOML("fixtures", false)) {
		if l.checkFixtureName(f.name) {
			l.record(f)
		}
	}
}

// fixtureName is the name of the fixture in file name: its base name without .toml.
func fixtureName(name string) string {
	return strings.TrimSuffix(name[strings.LastIndexByte(name, '/')+1:], ".toml")
}

// checkName reports a source file whose name holds a character that cannot be printed safely: a control or format
// character, or a byte that is not UTF-8. Such a name would reach terminals and CI logs inside every message about
// the file.
func (l *loader) checkName(name string) bool {
	for _, r := range name {
		if r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			l.errorf(source.FileRange(name), "the file name holds a control or invisible character: rename the file to printable characters")
			return false
		}
	}
	return true
}

// checkFixtureName reports a fixture whose name cannot name artifacts: a fixture's name is a part of the artifact
// paths TASK/FIXTURE.runbook.md, which golden/ must read back exactly.
func (l *loader) checkFixtureName(name string) bool {
	if !l.checkName(name) {
		return false
	}
	base := strings.TrimSuffix(name[strings.LastIndexByte(name, '/')+1:], ".toml")
	if strings.ContainsAny(base, `\`) || base == "" {
		l.errorf(source.FileRange(name), "fixture name %q cannot name artifact files (no backslash, not empty): rename the file", base)
		return false
	}
	return true
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
			l.errorf(source.FileRange(p), "cannot read: %s", unwrapPathError(err))
			return nil
		}
		if d.IsDir() {
			if p != dir && (!deep || strings.HasPrefix(d.Name(), ".")) {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".toml") || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		switch {
		case dir == "fixtures":
			names = append(names, p) // fixture names are checked as fixtures
		case l.checkName(p):
			names = append(names, p)
		default:
			l.p.Incomplete = true // what the file defines is missing: do not report its uses as unknown
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		l.errorf(source.FileRange(dir), "cannot read: %s", unwrapPathError(err))
	}
	slices.Sort(names)
	return names
}

// loadTemplates reads every file under templates/ (dot files excepted, so editor and OS litter is ignored).
func (l *loader) loadTemplates() {
	var names []string
	_ = fs.WalkDir(l.fsys, "templates", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p != "templates" || !errors.Is(err, fs.ErrNotExist) {
				l.errorf(source.FileRange(p), "cannot read: %s", unwrapPathError(err))
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
	slices.Sort(names)
	l.brokenTemplates = map[string]bool{}
	for _, name := range names {
		rel := strings.TrimPrefix(name, "templates/")
		if !l.checkName(name) {
			l.brokenTemplates[rel] = true
			l.cache.template(name, nil)
			continue
		}
		f := l.cache.read(l.fsys, name, false)
		l.cache.template(name, f)
		if l.record(f) {
			l.p.Templates[rel] = f.file.Text
		} else {
			l.brokenTemplates[rel] = true
		}
	}
}

// isName reports whether s matches [a-z][a-z0-9_]*: the syntax of task and variable names.
func isName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// isBlockID reports whether s matches [a-z0-9][a-z0-9_-]*.
func isBlockID(s string) bool {
	if s == "" || s[0] == '_' || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// quoteName is a block id as messages name it: Go-quoted, so that an id that is not valid (and reported as such)
// cannot print a control character either, or "(without id)".
func quoteName(id string) string {
	if id == "" {
		return "(without id)"
	}
	return strconv.Quote(id)
}

// NotRegularError is the error of reading a source that is not a regular file: a named pipe, a socket, a device or
// a directory. Its message says which.
type NotRegularError struct{ Mode fs.FileMode }

func (e NotRegularError) Error() string {
	what := "not a regular file"
	switch t := e.Mode.Type(); {
	case t&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case t&fs.ModeSocket != 0:
		what = "a socket"
	case t&fs.ModeCharDevice != 0:
		what = "a character device"
	case t&fs.ModeDevice != 0:
		what = "a device"
	case t&fs.ModeDir != 0:
		what = "a directory"
	}
	return what + ", not a regular file: promptc reads only regular files, so that reading never waits; replace it with a file"
}
