package templates

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"text/template"
	"unicode"

	"github.com/promptc/promptc/blocks"
)

// MaxOutput bounds what one block may render, whatever makes it large: a loop such as {{range 100000000}}, a huge
// constant or value, or a huge literal body must each fail with a diagnostic, not exhaust memory. It also bounds the
// result of every function a body calls, so that no intermediate value grows past it.
const MaxOutput = 16 << 20

// bigPiece is the size from which one write is taken to be a single large constant, value or function result rather
// than one more piece of a loop's output.
const bigPiece = 1 << 20

// limitedBuilder collects a body's output and fails once it passes MaxOutput, saying what most likely made it so
// large.
type limitedBuilder struct{ strings.Builder }

func (w *limitedBuilder) Write(p []byte) (int, error) {
	if w.Len()+len(p) > MaxOutput {
		if len(p) >= bigPiece {
			return 0, fmt.Errorf("the block renders more than %d MiB: it writes one piece of %s (a constant, a value or a function's result); shorten it, or limit the value with max_runes or max_bytes", MaxOutput>>20, mib(len(p)))
		}
		return 0, fmt.Errorf("the block renders more than %d MiB; a template loop is probably running away", MaxOutput>>20)
	}
	return w.Builder.Write(p)
}

// FuncNames lists the functions promptc adds to text/template's builtins (§3.2).
var FuncNames = []string{"bullets", "const", "dropped", "join", "json", "lookup", "quote", "ref", "title", "tools", "trim"}

// Consts are the project's constants as a body reads them: Text holds the text constants (read with const), Tables
// the lookup tables (read with lookup), each a table of strings by key. A name is in one map at most.
type Consts struct {
	Text   map[string]string
	Tables map[string]map[string]string
	// Lists holds the list constants (read with const, walked with range), each its items in order.
	Lists map[string][]string

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
}

// funcs is the function set of a body: its constants, and for one execution its environment and budget.
type funcs struct {
	name   string // the block id, which text/template names the template
	consts Consts
	env    Env
	st     *execState // nil outside a budgeted execution
}

// Map returns the function map of f. The parse-time map (see Parse) holds every name a body may call; an execution
// that needs its own environment or budget replaces them all with its own (see Execute).
func (f *funcs) Map() template.FuncMap {
	return f.withLists(template.FuncMap{
		"const":    f.constant,
		"lookup":   f.lookup,
		"ref":      f.ref,
		"title":    f.title,
		"dropped":  f.dropped,
		"tools":    f.tools,
		"quote":    f.quote,
		"trim":     f.trim,
		"bullets":  f.bullets,
		"join":     f.join,
		"json":     f.json,
		"index":    index,
		"print":    f.print,
		"printf":   f.printf,
		"println":  f.println,
		"html":     f.html,
		"js":       f.js,
		"urlquery": f.urlquery,
	})
}

// result is every function's last step: a result over MaxOutput is an error, and within a budgeted execution its
// size is charged to the execution's work budget.
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

func (f *funcs) constant(name string) (string, error) {
	if v, ok := f.consts.Text[name]; ok {
		return f.result("const", v)
	}
	if _, ok := f.consts.Tables[name]; ok {
		return "", fmt.Errorf("const %q: %q is a lookup table, not a text constant; read an entry with lookup %q KEY", name, name, name)
	}
	return "", fmt.Errorf("const %q: no such constant%s", name, blocks.DidYouMean(name, sortedKeys(f.consts.Text)))
}

// lookup implements lookup "table" KEY [DEFAULT] (§3.2).
func (f *funcs) lookup(table, key string, def ...string) (string, error) {
	if len(def) > 1 {
		return "", fmt.Errorf("lookup %q: takes a table, a key and at most one default, not %d defaults", table, len(def))
	}
	t, ok := f.consts.Tables[table]
	if !ok {
		if _, isText := f.consts.Text[table]; isText {
			return "", fmt.Errorf("lookup %q: %q is a text constant, not a lookup table; read it with const %q", table, table, table)
		}
		return "", fmt.Errorf("lookup %q: no such lookup table%s", table, blocks.DidYouMean(table, sortedKeys(f.consts.Tables)))
	}
	if v, ok := t[key]; ok {
		return f.result("lookup", v)
	}
	if len(def) == 1 {
		return f.result("lookup", def[0])
	}
	return "", fmt.Errorf("lookup %q: no entry %q%s", table, key, closestEntry(key, sortedKeys(t)))
}

// closestEntry names the entry closest to key: as a suggestion when it is within the usual edit distance, and
// otherwise as the nearest there is, so that the message always points somewhere.
func closestEntry(key string, entries []string) string {
	if len(entries) == 0 {
		return " (the table is empty)"
	}
	if s := blocks.DidYouMean(key, entries); s != "" {
		return s
	}
	best, bestDist := "", -1
	k := []rune(key)
	for _, e := range entries {
		if d := levenshtein(k, []rune(e)); bestDist < 0 || d < bestDist {
			best, bestDist = e, d
		}
	}
	return fmt.Sprintf(" (the closest entry is %q)", best)
}

func levenshtein(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
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

func (f *funcs) quote(text any) (string, error) {
	s, ok := text.(string)
	if !ok {
		return "", fmt.Errorf("quote takes a string, not %s", blocks.DescribeValue(text))
	}
	// Each line gains at most two bytes ("> "), and the empty string becomes ">".
	if err := f.room("quote", len(s)+strings.Count(s, "\n")); err != nil {
		return "", err
	}
	return f.result("quote", Quote(s))
}

// trim implements trim TEXT: TEXT without leading and trailing white space (unicode.IsSpace), as a variable's
// trim key removes it.
func (f *funcs) trim(text any) (string, error) {
	s, ok := text.(string)
	if !ok {
		return "", fmt.Errorf("trim takes a string, not %s", blocks.DescribeValue(text))
	}
	return f.result("trim", strings.TrimFunc(s, unicode.IsSpace))
}

func (f *funcs) bullets(list any) (string, error) {
	items, err := stringList(list)
	if err != nil {
		return "", err
	}
	n := 0
	for _, it := range items {
		n += len("- \n") + len(it)
		if err := f.room("bullets", n-1); err != nil {
			return "", err
		}
	}
	s, err := Bullets(items)
	if err != nil {
		return "", err
	}
	return f.result("bullets", s)
}

func (f *funcs) join(list any, sep string) (string, error) {
	items, err := stringList(list)
	if err != nil {
		return "", err
	}
	if len(items) > 0 {
		// Checked before joining: 3,000 items and a 1 MB separator must not build 3 GB first.
		n := 0
		for _, it := range items {
			n += len(it)
			if err := f.room("join", n); err != nil {
				return "", err
			}
		}
		if len(sep) > 0 && len(items)-1 > (MaxOutput-n)/len(sep) {
			return "", f.room("join", -1)
		}
	}
	return f.result("join", strings.Join(items, sep))
}

func (f *funcs) json(v any) (string, error) {
	if n := jsonFloor(v, 0, 0); n > MaxOutput {
		return "", f.room("json", n)
	}
	s, err := JSON(v)
	if err != nil {
		return "", err
	}
	return f.result("json", s)
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
		switch a := a.(type) {
		case string:
			n += len(a)
		case []string:
			for _, s := range a {
				n += len(s)
			}
		}
	}
	return n
}

func (f *funcs) print(args ...any) (string, error) {
	if err := f.room("print", stringsFloor(args)); err != nil {
		return "", err
	}
	return f.result("print", fmt.Sprint(args...))
}

func (f *funcs) println(args ...any) (string, error) {
	if err := f.room("println", stringsFloor(args)+len(args)); err != nil {
		return "", err
	}
	return f.result("println", fmt.Sprintln(args...))
}

func (f *funcs) printf(format string, args ...any) (string, error) {
	if err := f.room("printf", printfFloor(format, args)); err != nil {
		return "", err
	}
	return f.result("printf", fmt.Sprintf(format, args...))
}

// escaperText is the text html, js and urlquery escape: their one string argument, or what fmt.Sprint prints for
// their arguments. Escaping never shortens it, so its size is checked first.
func (f *funcs) escaperText(name string, args []any) (string, error) {
	if len(args) == 1 {
		if s, ok := args[0].(string); ok {
			return s, f.room(name, len(s))
		}
	}
	if err := f.room(name, stringsFloor(args)); err != nil {
		return "", err
	}
	s := fmt.Sprint(args...)
	return s, f.room(name, len(s))
}

func (f *funcs) html(args ...any) (string, error) {
	s, err := f.escaperText("html", args)
	if err != nil {
		return "", err
	}
	return f.result("html", template.HTMLEscapeString(s))
}

func (f *funcs) js(args ...any) (string, error) {
	s, err := f.escaperText("js", args)
	if err != nil {
		return "", err
	}
	return f.result("js", template.JSEscapeString(s))
}

func (f *funcs) urlquery(args ...any) (string, error) {
	s, err := f.escaperText("urlquery", args)
	if err != nil {
		return "", err
	}
	return f.result("urlquery", urlQueryEscape(s))
}

// index replaces text/template's builtin, which returns a zero value (printed "<no value>") for a missing map key:
// under missingkey=error semantics, reading a variable that is not there must fail, however it is spelled.
func index(item any, keys ...any) (any, error) {
	for _, k := range keys {
		if m, ok := item.(map[string]any); ok {
			name, isName := k.(string)
			if !isName {
				return nil, fmt.Errorf("index: the data is indexed by variable name, not %s", blocks.DescribeValue(k))
			}
			if item, ok = m[name]; !ok {
				return nil, fmt.Errorf("index: no variable %q here", name)
			}
			continue
		}
		i, isInt := k.(int)
		if !isInt {
			return nil, fmt.Errorf("index: a list or string is indexed by an int, not %s", blocks.DescribeValue(k))
		}
		var n int
		switch v := item.(type) {
		case []string:
			n = len(v)
		case []map[string]any:
			n = len(v)
		case string:
			n = len(v)
		default:
			return nil, fmt.Errorf("index: cannot index %s", blocks.DescribeValue(item))
		}
		if i < 0 || i >= n {
			return nil, fmt.Errorf("index: %d out of range (length %d)", i, n)
		}
		switch v := item.(type) {
		case []string:
			item = v[i]
		case []map[string]any:
			item = v[i]
		default:
			item = item.(string)[i]
		}
	}
	return item, nil
}

// Execute renders the body with data. env supplies ref, title, dropped and tools, which depend on the rest of the
// assembly. An error is a diagnostic positioned in the block's source.
//
// Execution is bounded in output (MaxOutput), in the size of every function's result (MaxOutput each), and for a
// body with a range in work too: all its ranges together do at most MaxSteps steps of work, and its function
// results add up to at most MaxWork bytes. A body that uses none of ref, title, dropped, tools or range runs as
// parsed; any other is cloned per execution (the clone shares the parse tree) to bind its environment and budget,
// so concurrent executions never share them.
func (b *Body) Execute(data map[string]any, env Env) (string, *blocks.Diagnostic) {
	if b.Static {
		return b.output, nil
	}
	t := b.tmpl
	if b.perExecution {
		var x *executor
		b.mu.Lock()
		if n := len(b.executors); n > 0 {
			x, b.executors = b.executors[n-1], b.executors[:n-1]
		}
		b.mu.Unlock()
		if x == nil {
			// A template of its own (not a clone: the body's template is one of a project's whole set), sharing
			// the body's parse tree, which no execution changes.
			x = &executor{f: &funcs{name: b.Block.ID, consts: b.consts}}
			fm := x.f.Map()
			fm[rangeFunc] = x.f.rangeOver
			c, err := template.New(b.Block.ID).Option("missingkey=error").Funcs(fm).AddParseTree(b.Block.ID, t.Tree)
			if err != nil {
				d := b.diag(0, 0, err.Error())
				return "", &d
			}
			x.t = c
		}
		x.f.env, x.f.st = env, newExecState()
		defer func() {
			x.f.env, x.f.st = Env{}, nil // hold no caller's state while idle
			b.mu.Lock()
			b.executors = append(b.executors, x)
			b.mu.Unlock()
		}()
		t = x.t
	}
	out := &limitedBuilder{}
	out.Grow(len(b.Block.Body))
	if err := t.Execute(out, data); err != nil {
		var be *rangeError
		if errors.As(err, &be) {
			d := b.diag(be.off, be.off, be.Error())
			return "", &d
		}
		d := b.execError(err)
		return "", &d
	}
	return out.String(), nil
}
