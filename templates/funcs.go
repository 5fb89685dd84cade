package templates

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
	"text/template"
	"unicode"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/source"
)

// MaxOutput bounds what one block may render, whatever makes it large: a loop such as {{range 100000000}}, a huge
// constant or value, or a huge literal body must each fail with a diagnostic, not exhaust memory. It also bounds the
// result of every function a body calls, so that no intermediate value grows past it.
const MaxOutput = 16 << 20

// bigPiece is the size from which one write is taken to be a single large constant, value or function result rather
// than one more piece of a loop's output.
const bigPiece = 1 << 20

// limitedBuilder collects a body's output and fails once it passes MaxOutput, saying what most likely made it so
// large. It also keeps the text after a value that lays out lines from continuing them
// (docs/values.md#markdown-and-structure): the printer sets pending when it returns such a value, and the value's
// write turns it into need, which the next visible byte written meets (settle). An execution that splices (see
// Shrink) holds what it wrote before the splice in pre and the spliced bytes, a part of an earlier output that is
// not copied, in mid; the Builder then holds what came after.
type limitedBuilder struct {
	strings.Builder
	pre, mid  string
	lineStart int   // the offset of the current line's first byte
	pending   Break // asked by the value about to be written, of the text after it
	need      Break // asked of the text still to come
	sawLF     bool  // a line feed was written since need was set
	lead      Break // asked of the text before the output, by a value standing first in it (place)
	placed    bool  // a value laying out lines was printed, and placed (place)
}

// Len is the number of bytes written, spliced ones included.
func (w *limitedBuilder) Len() int { return len(w.pre) + len(w.mid) + w.Builder.Len() }

// String returns everything written, spliced bytes included.
func (w *limitedBuilder) String() string {
	if w.pre == "" && w.mid == "" {
		return w.Builder.String()
	}
	return w.pre + w.mid + w.Builder.String()
}

// splice appends s as written, without copying it: what was written so far moves to pre. Only executions that
// print no value laying out lines splice (Shrink), so no line state needs keeping across it.
func (w *limitedBuilder) splice(s string) {
	w.pre = w.String()
	w.Builder.Reset()
	w.mid = s
}

func (w *limitedBuilder) Write(p []byte) (int, error) {
	if w.Len()+len(p) > MaxOutput {
		if len(p) >= bigPiece {
			return 0, fmt.Errorf("the block renders more than %d MiB: it writes one piece of %s (a constant, a value or a function's result); shorten it, or limit the value with max_runes or max_bytes", MaxOutput>>20, mib(len(p)))
		}
		return 0, fmt.Errorf("the block renders more than %d MiB; a template loop is probably running away", MaxOutput>>20)
	}
	n := len(p)
	switch {
	case w.pending != BreakNone:
		w.write(p)
		w.need, w.sawLF, w.pending = w.pending, false, BreakNone
	case w.need != BreakNone:
		if at, text := w.settle(string(p)); text != "" {
			w.write(p[:at])
			w.write([]byte(text))
			p = p[at:]
		}
		w.write(p)
	default:
		w.write(p)
	}
	return n, nil
}

func (w *limitedBuilder) write(p []byte) {
	if i := bytes.LastIndexByte(p, '\n'); i >= 0 {
		w.lineStart = w.Len() + i + 1
	}
	w.Builder.Write(p)
}

// FuncNames lists the functions promptc adds to text/template's builtins (docs/reference.md, functions).
var FuncNames = []string{"bullets", "const", "contains", "default", "dropped", "first", "hasPrefix", "hasSuffix", "join", "json", "last", "lookup", "lower", "matches", "quote", "ref", "regexReplaceAll", "replace", "sortBy", "title", "tools", "trim", "trimPrefix", "trimSuffix", "upper", "where", "whereNot", "whereNotEmpty"}

// Consts are the project's constants as a body reads them: Text holds the text constants (read with const), Tables
// the lookup tables (read with lookup), each a table of strings by key. A name is in one map at most. Markers are
// the targets' begin and end markers, which printing breaks in every value (docs/values.md, markers).
type Consts struct {
	Text   map[string]string
	Tables map[string]map[string]string
	// Lists holds the list constants (read with const, walked with range), each its items in order.
	Lists   map[string][]string
	Markers []string
	// Tags names the XML-style tags the author's text uses (TagNames), which no value may close or open.
	Tags map[string]bool
	// Plain names the variables whose values print as they are: trusted strings and lists, bools and ints. An
	// action printing only those (and the author's text) needs no escaping, so it skips the printer.
	Plain map[string]bool
	// Scalars names the variables whose values hold no record (every type but record and records): a test of one
	// needs no record truth (docs/reference.md, "Nested data"), which costs a function call. Nil: none known.
	Scalars map[string]bool

	values map[string]any // the text constants and lists as const returns them (see boxed)
}

// Env holds what a body's functions learn from the rest of the assembly, and so are bound per execution: whether a
// referenced block renders beside this one, and what the limits dropped from a value. A nil function makes every
// call of its template function an error.
type Env struct {
	// Ref returns the heading line of block id (ref "id"), Title its title alone (title "id"), or an error saying
	// why there is none to refer to.
	Ref, Title func(id string) (string, error)
	// Dropped returns how many items or records the limits dropped from list or records variable name
	// (dropped "name").
	Dropped func(name string) (int, error)
	// Tools returns the tools of the task being rendered, in the order the tools function prints them
	// (blocks.Project.ToolsFor).
	Tools func() ([]*blocks.Tool, error)
	// Level is the heading level the block's output sits under: its own title's, else that of the nearest titled
	// block before it in the artifact; 0 for none (DefaultLevel). Markdown values nest their headings under it.
	Level int
	// Mark, when set, is told the bytes [start, end) of the body's output (before the block's trim) that an escaped
	// value of a trust other than trusted wrote: an assembled marker holding one of them is broken inside it.
	Mark func(start, end int)
	// Lines is set when the body may print a value that lays out lines of its own (a markdown, background or code
	// value, or a quoted one): the execution then places each where it stands (docs/values.md, "Markdown and
	// structure"), which a body printing none of them does not need.
	Lines bool
}

// funcs is the function set of a body: its constants, and for one execution its environment and budget.
type funcs struct {
	name   string // the block id, which text/template names the template
	consts Consts
	env    Env
	st     *execState // nil outside a budgeted execution
	p      printer
	dicts  map[uintptr]*dictInfo // the dicts this execution made (see Dict), by their map's address
	sp     *splice               // nil outside an execution a Shrink records or replays
}

// bind sets f up for one execution writing to out (nil: none, when idle).
func (f *funcs) bind(env Env, out *limitedBuilder, marks *[]valueMark) {
	f.env = env
	f.dicts = nil
	f.p = printer{markers: f.consts.Markers, level: env.Level, out: out, marks: marks}
	if out != nil {
		f.st = newExecState()
	} else {
		f.st = nil
	}
}

// execMap is Map with the functions Parse's rewrites call, which no body can name: the range budget, the printer
// and the block-title form of title.
func (f *funcs) execMap() template.FuncMap {
	fm := f.Map()
	fm[rangeFunc] = f.rangeOver
	fm[printFunc] = f.p.printChecked
	fm[dictPrintFunc] = f.printDict
	f.addPrinting(fm)
	fm[blockTitleFunc] = f.title
	return fm
}

// Map returns the function map of f. The parse-time map (see Parse) holds every name a body may call; an execution
// that needs its own environment or budget replaces them all with its own (see Execute).
func (f *funcs) Map() template.FuncMap {
	m := withTruth(withCompare(f.withLists(template.FuncMap{
		"const":           f.constant,
		"lookup":          f.lookup,
		"ref":             f.ref,
		"title":           f.titleText,
		"dropped":         f.dropped,
		"tools":           f.tools,
		"quote":           f.quote,
		"trim":            f.trim,
		"bullets":         f.bullets,
		"join":            f.join,
		"json":            f.json,
		"index":           index,
		"print":           f.print,
		"printf":          f.printf,
		"println":         f.println,
		"html":            f.html,
		"js":              f.js,
		"urlquery":        f.urlquery,
		"lower":           f.lower,
		"upper":           f.upper,
		"replace":         f.replace,
		"trimPrefix":      f.trimPrefix,
		"trimSuffix":      f.trimSuffix,
		"hasPrefix":       hasPrefix,
		"hasSuffix":       hasSuffix,
		"contains":        contains,
		"matches":         matches,
		"regexReplaceAll": f.regexReplaceAll,
		"default":         byDefault,
		"where":           f.where,
		"whereNot":        f.whereNot,
		"whereNotEmpty":   f.whereNotEmpty,
		"sortBy":          f.sortBy,
		"first":           first,
		"last":            last,
		"empty":           empty,
	})))
	withArith(m)
	f.withSets(m)
	return m
}

// result is every function's last step: a result over MaxOutput is an error, and within a budgeted execution its
// size is charged to the execution's work budget.
// resultAny is result for a function whose result may be a value of some trust: its printed size is charged.
func (f *funcs) resultAny(name string, v any) (any, error) {
	var s string
	if m, ok := v.(Mixed); ok {
		// The larger of what it prints and what a further function would work on. A json result's raw encoding
		// is made only when a function asks for it (textOf), and that function's result is charged then.
		s = m.text
		if len(m.raw) > len(s) {
			s = m.raw
		}
	} else {
		s, _, _ = textOf(v)
	}
	if _, err := f.result(name, s); err != nil {
		return "", err
	}
	return v, nil
}

func (f *funcs) result(name, s string) (string, error) {
	if err := f.room(name, len(s)); err != nil {
		return "", err
	}
	if f.st != nil {
		if err := f.st.work(len(s)); err != nil {
			return "", err
		}
	}
	return s, nil
}

// room fails when a function's result, of at least n bytes, would be over MaxOutput: functions whose result size
// is known in advance call it before they build anything.
func (f *funcs) room(name string, n int) error {
	if n > MaxOutput || n < 0 {
		return fmt.Errorf("%s: its result would be %s, over the %d MiB a block may render", name, mibAtLeast(n), MaxOutput>>20)
	}
	return nil
}

// const, ref, title "id" and dropped take their name as a plain string: names are the author's, and a function
// taking any costs an allocation per call on the most common calls there are.
func (f *funcs) constant(name string) (string, error) {
	if v, ok := f.consts.Text[name]; ok {
		return f.result("const", v)
	}
	if _, ok := f.consts.Tables[name]; ok {
		return "", fmt.Errorf("const %q: %q is a lookup table, not a text constant; read an entry with lookup %q KEY", name, name, name)
	}
	return "", fmt.Errorf("const %q: no such constant%s", name, suggest.DidYouMean(name, sortedKeys(f.consts.Text)))
}

// lookup implements lookup "table" KEY [DEFAULT] (docs/reference.md#functions).
//
// The key is compared as it was given, before escaping; an entry found is the author's text, and a default is
// returned as it is, a value keeping its trust.
func (f *funcs) lookup(table string, keyV any, def ...any) (any, error) {
	key, _, ok := textOf(keyV)
	if !ok {
		return "", fmt.Errorf("lookup %q: the key must be text, not %s", table, describe(keyV))
	}
	if len(def) > 1 {
		return "", fmt.Errorf("lookup %q: takes a table, a key and at most one default, not %d defaults", table, len(def))
	}
	t, ok := f.consts.Tables[table]
	if !ok {
		if _, isText := f.consts.Text[table]; isText {
			return "", fmt.Errorf("lookup %q: %q is a text constant, not a lookup table; read it with const %q", table, table, table)
		}
		return "", fmt.Errorf("lookup %q: no such lookup table%s", table, suggest.DidYouMean(table, sortedKeys(f.consts.Tables)))
	}
	if v, ok := t[key]; ok {
		return f.result("lookup", v)
	}
	if len(def) == 1 {
		if _, _, ok := textOf(def[0]); !ok {
			return "", fmt.Errorf("lookup %q: the default must be text, not %s", table, describe(def[0]))
		}
		return f.resultAny("lookup", def[0])
	}
	return "", fmt.Errorf("lookup %q: no entry %q%s", table, key, closestEntry(key, sortedKeys(t)))
}

// closestEntry names the entry closest to key: as a suggestion when it is within the usual edit distance, and
// otherwise as the nearest there is, so that the message always points somewhere.
func closestEntry(key string, entries []string) string {
	if len(entries) == 0 {
		return " (the table is empty)"
	}
	if s := suggest.DidYouMean(key, entries); s != "" {
		return s
	}
	return fmt.Sprintf(" (the closest entry is %q)", suggest.Closest(key, entries))
}

func sortedKeys[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (f *funcs) ref(id string) (string, error) {
	if f.env.Ref == nil {
		return "", fmt.Errorf("ref %q: references are resolved only while a runbook is assembled", id)
	}
	s, err := f.env.Ref(id)
	if err != nil {
		return "", err
	}
	return f.result("ref", s)
}

// title is title "id", the title of block id: Parse gives a title call whose one argument is a string literal to
// it, and every other title call to the text function titleText (docs/reference.md, title).
func (f *funcs) title(id string) (string, error) {
	if f.env.Title == nil {
		return "", fmt.Errorf("title %q: titles are resolved only while a runbook is assembled", id)
	}
	s, err := f.env.Title(id)
	if err != nil {
		return "", err
	}
	return f.result("title", s)
}

func (f *funcs) dropped(name string) (int, error) {
	if f.env.Dropped == nil {
		return 0, fmt.Errorf("dropped %q: known only while values are rendered", name)
	}
	return f.env.Dropped(name)
}

// quote quotes the text as printed: a value is escaped by its trust first, and the quoted lines are its bytes.
func (f *funcs) quote(text any) (any, error) {
	raw, trust, ok := textOf(text)
	if !ok {
		return "", fmt.Errorf("quote takes text, not %s", describe(text))
	}
	s := raw
	if m, isMixed := text.(Mixed); isMixed {
		s = m.text
	} else if trust != blocks.Trusted {
		s = f.p.escape(raw, trust)
	}
	// Each line gains at most two bytes ("> "), and the empty string becomes ">".
	if err := f.room("quote", len(s)+strings.Count(s, "\n")); err != nil {
		return "", err
	}
	q := Quote(s)
	if trust == blocks.Trusted {
		return f.result("quote", q)
	}
	return f.resultAny("quote", Mixed{text: q, raw: Quote(raw), trust: trust, marks: []span{{0, len(q), trust}}, block: true})
}

// trim implements trim TEXT: TEXT without leading and trailing white space (unicode.IsSpace), as a variable's
// trim key removes it.
func (f *funcs) trim(text any) (any, error) {
	return f.textFunc("trim", text, func(s string) string { return strings.TrimFunc(s, unicode.IsSpace) })
}

// bullets and join lay values out: each item is escaped by its trust on its own, as when printed alone, and the
// author's "- " and separator are kept as written.
func (f *funcs) bullets(list any) (any, error) {
	if f.sp.takes(list) {
		return f.sp.listFunc(f, "bullets", func(list, _ any) (any, error) { return f.bullets(list) }, list, nil)
	}
	if strs, ok := list.([]string); ok {
		// Trusted items: the author's text, laid out as it is.
		n := 0
		for _, it := range strs {
			n += len("- \n") + len(it)
			if err := f.room("bullets", n-1); err != nil {
				return "", err
			}
		}
		s, err := Bullets(strs)
		if err != nil {
			return "", err
		}
		return f.result("bullets", s)
	}
	items, err := textList(list)
	if err != nil {
		return "", err
	}
	n := 0
	for _, it := range items {
		s, _, _ := textOf(it)
		n += len("- \n") + len(s)
		if err := f.room("bullets", n-1); err != nil {
			return "", err
		}
	}
	m := mixedBuilder{p: &f.p, trust: blocks.Trusted}
	m.grow(n, len(items))
	for i, it := range items {
		if i > 0 {
			m.author("\n")
		}
		m.author("- ")
		m.value(it)
	}
	return f.resultAny("bullets", m.result())
}

func (f *funcs) join(list any, sepV any) (any, error) {
	if f.sp.takes(list) {
		return f.sp.listFunc(f, "join", f.join, list, sepV)
	}
	sep, sepTrust, ok := textOf(sepV)
	if !ok {
		return "", fmt.Errorf("join takes the list first, then the separator (text), but its separator is %s: write {{join LIST \", \"}}", describe(sepV))
	}
	if strs, isStrs := list.([]string); isStrs && sepTrust == blocks.Trusted {
		n := 0
		for _, it := range strs {
			n += len(it)
			if err := f.room("join", n); err != nil {
				return "", err
			}
		}
		if len(sep) > 0 && len(strs)-1 > (MaxOutput-n)/len(sep) {
			return "", f.room("join", -1)
		}
		return f.result("join", strings.Join(strs, sep))
	}
	items, err := textList(list)
	if err != nil {
		return "", err
	}
	n := 0
	if len(items) > 0 {
		// Checked before joining: 3,000 items and a 1 MB separator must not build 3 GB first.
		for _, it := range items {
			s, _, _ := textOf(it)
			n += len(s)
			if err := f.room("join", n); err != nil {
				return "", err
			}
		}
		if len(sep) > 0 && len(items)-1 > (MaxOutput-n)/len(sep) {
			return "", f.room("join", -1)
		}
	}
	m := mixedBuilder{p: &f.p, trust: blocks.Trusted}
	if len(items) > 0 {
		m.grow(n+(len(items)-1)*len(sep), 2*len(items)-1)
	}
	for i, it := range items {
		if i > 0 {
			m.value(sepV)
		}
		m.value(it)
	}
	return f.resultAny("join", m.result())
}

// json encodes the value with every string in it escaped by its trust, as printed alone.
func (f *funcs) json(v any) (any, error) {
	if n := jsonFloor(v, 0, 0); n > MaxOutput {
		return "", f.room("json", n)
	}
	raw := v
	v, keyTrust, err := f.undict(v)
	if err != nil {
		return "", err
	}
	esc, trust := f.p.escaped(v)
	trust = stricter(trust, keyTrust)
	s, err := JSON(esc)
	if err != nil {
		return "", err
	}
	if trust == blocks.Trusted || s == "" {
		return f.result("json", s)
	}
	return f.resultAny("json", Mixed{text: s, json: raw, trust: trust, marks: []span{{0, len(s), trust}}})
}

// jsonFloor adds to n a lower bound of the size of v's JSON encoding, from the strings it holds, for the shapes that
// template data takes; it stops once past MaxOutput, and at a depth no real value reaches.
func jsonFloor(v any, n, depth int) int {
	if n > MaxOutput || depth > 64 {
		return n
	}
	switch v := v.(type) {
	case string:
		return n + len(v) + 2
	case Untrusted, Background, Markdown, Fenced, Mixed:
		s, _, _ := textOf(v)
		return n + len(s) + 2
	case []string:
		for _, s := range v {
			if n += len(s) + 3; n > MaxOutput {
				return n
			}
		}
	case []any:
		for _, e := range v {
			n = jsonFloor(e, n+1, depth+1)
		}
	case map[string]any:
		for k, e := range v {
			n = jsonFloor(e, n+len(k)+4, depth+1)
		}
	case []map[string]any:
		for _, e := range v {
			n = jsonFloor(e, n+1, depth+1)
		}
	}
	return n
}

// stringsFloor is a lower bound of what fmt.Sprint prints for args: the strings they hold.
func stringsFloor(args []any) int {
	n := 0
	for _, a := range args {
		if s, _, ok := textOf(a); ok {
			n += len(s)
			continue
		}
		switch a := a.(type) {
		case []string:
			for _, s := range a {
				n += len(s)
			}
		}
	}
	return n
}

// print, println and printf format each value argument before escaping, with its verb, then escape what it gives
// by the value's trust: the format's own text is the author's.
func (f *funcs) print(args ...any) (any, error) {
	if err := f.room("print", stringsFloor(args)); err != nil {
		return "", err
	}
	return f.sprinted("print", fmt.Sprint, args)
}

func (f *funcs) println(args ...any) (any, error) {
	if err := f.room("println", stringsFloor(args)+len(args)); err != nil {
		return "", err
	}
	return f.sprinted("println", fmt.Sprintln, args)
}

func (f *funcs) printf(formatV any, args ...any) (any, error) {
	format, _, ok := textOf(formatV)
	if !ok {
		return "", fmt.Errorf("printf takes a format (text) first, not %s", describe(formatV))
	}
	if err := f.room("printf", printfFloor(format, args)); err != nil {
		return "", err
	}
	if err := noDicts("printf", args); err != nil {
		return "", err
	}
	if err := checkFormatArgs("printf", append([]any{formatV}, args...)); err != nil {
		return "", err
	}
	if _, trust, _ := textOf(formatV); trust != blocks.Trusted {
		// A format that is itself a value: its result is computed from it, and escaped as it is.
		return f.resultAny("printf", tagged(fmt.Sprintf(format, rawArgs(args)...), stricter(trust, argsTrust(args))))
	}
	return f.formatted("printf", func(a []any) string { return fmt.Sprintf(format, a...) }, args)
}

// formatted runs a formatting function on args twice when they hold values: with each value escaped (what prints)
// and with each as it was (what a further function sees).
func (f *funcs) formatted(name string, format func([]any) string, args []any) (any, error) {
	if err := noDicts(name, args); err != nil {
		return "", err
	}
	wrapped := make([]any, len(args))
	trust := blocks.Trusted
	for i, a := range args {
		var t blocks.Trust
		wrapped[i], t = f.p.wrap(a)
		trust = stricter(trust, t)
	}
	text := format(wrapped)
	if trust == blocks.Trusted {
		return f.result(name, text)
	}
	return f.resultAny(name, computed(text, format(rawArgs(args)), trust))
}

func rawArgs(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		out[i] = Raw(a)
	}
	return out
}

func argsTrust(args []any) blocks.Trust {
	t := blocks.Trusted
	for _, a := range args {
		_, at := (&printer{}).wrap(a)
		t = stricter(t, at)
	}
	return t
}

// escaperText is the text html, js and urlquery escape: their one string argument, or what fmt.Sprint prints for
// their arguments. Escaping never shortens it, so its size is checked first.
// The result is computed from the values before escaping and escaped by their strictest trust when printed.
func (f *funcs) escaperText(name string, args []any) (string, blocks.Trust, error) {
	if err := noDicts(name, args); err != nil {
		return "", 0, err
	}
	if len(args) == 1 {
		if s, trust, ok := textOf(args[0]); ok {
			return s, trust, f.room(name, len(s))
		}
	}
	if err := f.room(name, stringsFloor(args)); err != nil {
		return "", 0, err
	}
	if err := checkFormatArgs(name, args); err != nil {
		return "", 0, err
	}
	s := fmt.Sprint(rawArgs(args)...)
	return s, argsTrust(args), f.room(name, len(s))
}

func (f *funcs) html(args ...any) (any, error) {
	s, trust, err := f.escaperText("html", args)
	if err != nil {
		return "", err
	}
	return f.resultAny("html", tagged(template.HTMLEscapeString(s), trust))
}

func (f *funcs) js(args ...any) (any, error) {
	s, trust, err := f.escaperText("js", args)
	if err != nil {
		return "", err
	}
	return f.resultAny("js", tagged(template.JSEscapeString(s), trust))
}

func (f *funcs) urlquery(args ...any) (any, error) {
	s, trust, err := f.escaperText("urlquery", args)
	if err != nil {
		return "", err
	}
	return f.resultAny("urlquery", tagged(urlQueryEscape(s), trust))
}

// index replaces text/template's builtin, which returns a zero value (printed "<no value>") for a missing map key:
// under missingkey=error semantics, reading a variable that is not there must fail, however it is spelled.
func index(item any, keys ...any) (any, error) {
	for _, k := range keys {
		if d, ok := item.(Dict); ok {
			name, _, isText := textOf(k)
			if !isText {
				return nil, fmt.Errorf("index: a dict is indexed by a string, not %s", describe(k))
			}
			if item, ok = d[name]; !ok {
				return nil, fmt.Errorf("index: the dict has no key %q; test for one with hasKey", name)
			}
			continue
		}
		if m, ok := item.(map[string]any); ok {
			name, isName := k.(string)
			if !isName {
				return nil, fmt.Errorf("index: the data is indexed by variable name, not %s", describe(k))
			}
			if item, ok = m[name]; !ok {
				return nil, fmt.Errorf("index: no variable %q here", name)
			}
			continue
		}
		i, isInt := k.(int)
		if !isInt {
			return nil, fmt.Errorf("index: a list or text is indexed by an int, not %s", describe(k))
		}
		var n int
		s, _, isText := textOf(item)
		switch v := item.(type) {
		case []string:
			n = len(v)
		case []any:
			n = len(v)
		case []map[string]any:
			n = len(v)
		default:
			if !isText {
				return nil, fmt.Errorf("index: cannot index %s", describe(item))
			}
			n = len(s)
		}
		if i < 0 || i >= n {
			return nil, fmt.Errorf("index: %d out of range (length %d)", i, n)
		}
		switch v := item.(type) {
		case []string:
			item = v[i]
		case []any:
			item = v[i]
		case []map[string]any:
			item = v[i]
		default:
			item = s[i]
		}
	}
	return item, nil
}

// Output is what a body renders: its text (before the block's trim), and what must separate it from the text
// around it in the artifact, for a value it starts or ends with that lays out lines of its own
// (docs/values.md#markdown-and-structure): Lead of the text before it, Trail of the text after it.
type Output struct {
	Text        string
	Lead, Trail Break
}

// Execute renders the body with data: Run's text.
func (b *Body) Execute(data map[string]any, env Env) (string, *source.Diagnostic) {
	out, d := b.Run(data, env)
	return out.Text, d
}

// Run renders the body with data. env supplies ref, title, dropped and tools, which depend on the rest of the
// assembly. An error is a diagnostic positioned in the block's source.
//
// Execution is bounded in output (MaxOutput), in the size of every function's result (MaxOutput each), and for a
// body with a range in work too: all its ranges together do at most MaxSteps steps of work, and its function
// results add up to at most MaxWork bytes. A body that uses none of ref, title, dropped, tools or range runs as
// parsed; any other runs with a function set of its parser's that no other execution holds meanwhile (a template of
// the set sharing the body's parse tree), bound to its environment and budget, so concurrent executions never share
// them.
//
// Where values and the text around them would assemble structure no value may make (an ordered list marker, an
// HTML block, an author's XML-style tag: docs/values.md#markdown-and-structure), the output is searched for it
// and, only where some is found, rendered again noting which bytes values wrote, and broken inside them.
func (b *Body) Run(data map[string]any, env Env) (Output, *source.Diagnostic) {
	if b.Static {
		return Output{Text: b.output}, nil
	}
	var marks []valueMark
	collect := env.Mark != nil
	out, d := b.run(data, env, collect, &marks, nil)
	if d != nil {
		return Output{}, d
	}
	if mayAssemble(out.Text, b.consts.Tags) {
		if !collect {
			if out, d = b.run(data, env, true, &marks, nil); d != nil {
				return Output{}, d
			}
		}
		var at []int
		if out.Text, at = breakStructure(out.Text, marks, b.consts.Tags); at != nil {
			shiftMarks(marks, at)
		}
	}
	if env.Mark != nil {
		for _, m := range marks {
			env.Mark(m.start, m.end)
		}
	}
	return out, nil
}

// run executes the body once; with collect set, marks receives the bytes escaped values wrote.
func (b *Body) run(data map[string]any, env Env, collect bool, marks *[]valueMark, sp *splice) (Output, *source.Diagnostic) {
	out, d := b.execute(data, env, collect, marks, sp)
	if d != nil {
		return Output{}, d
	}
	return Output{Text: out.String(), Lead: out.lead, Trail: out.need}, nil
}

// execute is one execution of a body that is not static, returning its output as written. With collect set,
// marks receives the bytes escaped values wrote. sp, when set, is the splice state of a Shrink the execution
// records or replays: it runs with a function set of its own, bound to sp, but with the budget a plain execution
// would give it (none for a body that runs as parsed).
func (b *Body) execute(data map[string]any, env Env, collect bool, marks *[]valueMark, sp *splice) (*limitedBuilder, *source.Diagnostic) {
	t := b.tmpl
	printed := b.printed != nil && !collect && hasPrinted(data, b.printedKeys)
	if printed {
		t = b.printed
	}
	if b.whole {
		data = withoutPrinted(data)
	}
	out := &limitedBuilder{}
	out.Grow(len(b.Block.Body))
	if own := b.perExecution || env.Level != 0 || collect || env.Lines; own || sp != nil {
		set := b.parser.takeExecSet()
		x, err := set.executor(b)
		if err != nil {
			b.parser.putExecSet(set)
			d := b.diag(0, 0, err.Error())
			return nil, &d
		}
		set.f.name = b.Block.ID
		if collect {
			*marks = (*marks)[:0]
			set.f.bind(env, out, marks)
		} else {
			set.f.bind(env, out, nil)
		}
		set.f.sp = sp
		if !own {
			set.f.st = nil // as the body runs as parsed: no budget
		}
		defer func() {
			set.f.bind(Env{}, nil, nil) // hold no caller's state while idle
			set.f.sp = nil
			b.parser.putExecSet(set)
		}()
		t = x.t
		if printed {
			t = x.printed
		}
	}
	if err := t.Execute(out, data); err != nil {
		var be *rangeError
		if errors.As(err, &be) {
			d := b.diag(be.off, be.off, be.Error())
			return nil, &d
		}
		d := b.execError(err)
		return nil, &d
	}
	return out, nil
}
