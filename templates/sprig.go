package templates

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/suggest"
)

// The text and collection functions take sprig's names and argument order (the text last), so that they chain in
// pipelines: {{.slug | replace "_" " " | title}} (docs/reference.md, functions). Each works on values before
// escaping, and a text result keeps the trust of the value it was computed from: it is escaped as that value is,
// where it is printed.

// textFunc applies fn to the text of v and keeps v's trust.
func (f *funcs) textFunc(name string, v any, fn func(string) string) (any, error) {
	raw, trust, ok := textOf(v)
	if !ok {
		return "", fmt.Errorf("%s takes text, not %s", name, describe(v))
	}
	return f.resultAny(name, tagged(fn(raw), trust))
}

// texts returns the text of each argument, or an error naming the function and which argument is not a string.
func texts(name string, args ...any) ([]string, []blocks.Trust, error) {
	out := make([]string, len(args))
	trusts := make([]blocks.Trust, len(args))
	for i, a := range args {
		s, t, ok := textOf(a)
		if !ok {
			return nil, nil, fmt.Errorf("%s: argument %d must be text, not %s", name, i+1, describe(a))
		}
		out[i], trusts[i] = s, t
	}
	return out, trusts, nil
}

func (f *funcs) lower(s any) (any, error) { return f.textFunc("lower", s, strings.ToLower) }
func (f *funcs) upper(s any) (any, error) { return f.textFunc("upper", s, strings.ToUpper) }

// titleText is title S: the first rune of every word upper-cased and the rest unchanged, a word starting at the
// beginning or after white space, - or _ (which are kept).
func (f *funcs) titleText(s any) (any, error) {
	return f.textFunc("title", s, titleCase)
}

func titleCase(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 4)
	start := true
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				b.WriteByte(s[i]) // an invalid byte stays as it is; the escapers replace it
				start = false
				continue
			}
		}
		if start {
			b.WriteRune(unicode.ToUpper(r))
		} else {
			b.WriteRune(r)
		}
		start = unicode.IsSpace(r) || r == '-' || r == '_'
	}
	return b.String()
}

// replace is replace OLD NEW S: every non-overlapping occurrence of OLD in S, left to right, replaced by NEW.
func (f *funcs) replace(oldV, newV, sV any) (any, error) {
	a, trusts, err := texts("replace", oldV, newV, sV)
	if err != nil {
		return "", err
	}
	old, repl, s := a[0], a[1], a[2]
	n := strings.Count(s, old)
	if size := len(s) + n*(len(repl)-len(old)); n > 0 && (size > MaxOutput || (len(repl) > 0 && n > MaxOutput/len(repl))) {
		return "", f.room("replace", -1)
	}
	return f.resultAny("replace", tagged(strings.ReplaceAll(s, old, repl), stricter(trusts[2], trusts[1])))
}

func (f *funcs) trimPrefix(p, s any) (any, error) {
	a, trusts, err := texts("trimPrefix", p, s)
	if err != nil {
		return "", err
	}
	return f.resultAny("trimPrefix", tagged(strings.TrimPrefix(a[1], a[0]), trusts[1]))
}

func (f *funcs) trimSuffix(p, s any) (any, error) {
	a, trusts, err := texts("trimSuffix", p, s)
	if err != nil {
		return "", err
	}
	return f.resultAny("trimSuffix", tagged(strings.TrimSuffix(a[1], a[0]), trusts[1]))
}

func hasPrefix(p, s any) (bool, error) {
	a, _, err := texts("hasPrefix", p, s)
	if err != nil {
		return false, err
	}
	return strings.HasPrefix(a[1], a[0]), nil
}

func hasSuffix(p, s any) (bool, error) {
	a, _, err := texts("hasSuffix", p, s)
	if err != nil {
		return false, err
	}
	return strings.HasSuffix(a[1], a[0]), nil
}

func contains(sub, s any) (bool, error) {
	a, _, err := texts("contains", sub, s)
	if err != nil {
		return false, err
	}
	return strings.Contains(a[1], a[0]), nil
}

// regexps caches the compiled regular expressions of matches and regexReplaceAll. Parse compiles each literal
// first (an invalid one is a compile error), so a body only ever asks for patterns that compile.
var regexps sync.Map // pattern → *regexp.Regexp

// maxCachedRegexps bounds the cache: a process compiles a few projects, each with a few patterns.
const maxCachedRegexps = 4096

var regexpCount struct {
	sync.Mutex
	n int
}

// compileRegexp compiles an RE2 pattern, cached.
func compileRegexp(pattern string) (*regexp.Regexp, error) {
	if re, ok := regexps.Load(pattern); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	regexpCount.Lock()
	if regexpCount.n < maxCachedRegexps {
		if _, loaded := regexps.LoadOrStore(pattern, re); !loaded {
			regexpCount.n++
		}
	}
	regexpCount.Unlock()
	return re, nil
}

// matches is matches RE S: whether RE (RE2, unanchored) matches somewhere in S.
func matches(reV, s any) (bool, error) {
	a, _, err := texts("matches", reV, s)
	if err != nil {
		return false, err
	}
	re, err := compileRegexp(a[0])
	if err != nil {
		return false, fmt.Errorf("matches: invalid regular expression %q: %v", a[0], err)
	}
	return re.MatchString(a[1]), nil
}

// regexReplaceAll is regexReplaceAll RE REPL S: every match of RE in S replaced by REPL, in which $1, ${name}
// expand to the match's groups. The result grows match by match and stops at MaxOutput.
func (f *funcs) regexReplaceAll(reV, replV, sV any) (any, error) {
	a, trusts, err := texts("regexReplaceAll", reV, replV, sV)
	if err != nil {
		return "", err
	}
	re, err := compileRegexp(a[0])
	if err != nil {
		return "", fmt.Errorf("regexReplaceAll: invalid regular expression %q: %v", a[0], err)
	}
	repl, s := a[1], a[2]
	var out []byte
	last := 0
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		out = append(out, s[last:m[0]]...)
		out = re.ExpandString(out, repl, s, m)
		last = m[1]
		if len(out) > MaxOutput {
			return "", f.room("regexReplaceAll", len(out))
		}
	}
	out = append(out, s[last:]...)
	return f.resultAny("regexReplaceAll", tagged(string(out), stricter(trusts[2], trusts[1])))
}

// byDefault is default D V: V, unless V is empty ("", 0, false, an empty list or records), then D. Either is
// returned as it is, a value keeping its trust.
func byDefault(d, v any) any {
	if isZero(v) {
		return d
	}
	return v
}

// recordList returns the records of a records value.
func recordList(name string, list any) ([]map[string]any, error) {
	switch l := list.(type) {
	case nil:
		return nil, nil
	case []map[string]any:
		return l, nil
	case []any:
		out := make([]map[string]any, len(l))
		for i, it := range l {
			r, ok := it.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s works on records, but item %d is %s", name, i+1, describe(it))
			}
			out[i] = r
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s works on records, not %s", name, describe(list))
}

// withZero returns records with room for the zero record of list (see zeroRecord) after its last one.
func withZero(records []map[string]any, list []map[string]any) []map[string]any {
	out := make([]map[string]any, len(records), len(records)+1)
	copy(out, records)
	if z := zeroRecord(list); z != nil {
		out = append(out, z)[:len(records)]
	}
	return out
}

// zeroRecord is the record first and last give for an empty records value: every declared field at its zero
// value. Prepare keeps it in the slice's capacity, just past its last record, where nothing else looks.
func zeroRecord(list []map[string]any) map[string]any {
	if cap(list) > len(list) {
		return list[:len(list)+1][len(list)]
	}
	return nil
}

// field returns the field of a record, or an error naming the declared ones.
func field(fn, name string, r map[string]any) (any, error) {
	v, ok := r[name]
	if !ok {
		names := sortedKeys(r)
		return nil, fmt.Errorf("%s: the records have no field %q%s; their fields are: %s", fn, name, suggest.DidYouMean(name, names), strings.Join(names, ", "))
	}
	return v, nil
}

// where is where FIELD VALUE LIST: the records of LIST whose FIELD equals VALUE, in order. Text compares as it was
// given, before escaping; ints and bools by value.
func (f *funcs) where(fieldV, value, list any) (any, error) {
	return f.filter("where", `where "FIELD" VALUE LIST`, fieldV, list, func(v any) bool { return equal(v, value) })
}

// whereNot is whereNot FIELD VALUE LIST: the records of LIST whose FIELD does not equal VALUE, in order; where's
// complement.
func (f *funcs) whereNot(fieldV, value, list any) (any, error) {
	return f.filter("whereNot", `whereNot "FIELD" VALUE LIST`, fieldV, list, func(v any) bool { return !equal(v, value) })
}

// whereNotEmpty is whereNotEmpty FIELD LIST: the records of LIST whose FIELD is not empty (see empty: "", 0, false,
// no records, a record with every field empty), in order.
func (f *funcs) whereNotEmpty(fieldV, list any) (any, error) {
	return f.filter("whereNotEmpty", `whereNotEmpty "FIELD" LIST`, fieldV, list, func(v any) bool { return !empty(v) })
}

// filter returns the records of list whose field named by fieldV keep holds for, in order; form is fn's signature
// for messages.
func (f *funcs) filter(fn, form string, fieldV, list any, keep func(any) bool) (any, error) {
	name, _, ok := textOf(fieldV)
	if !ok {
		return nil, fmt.Errorf("%s takes a field name first (%s), not %s", fn, form, describe(fieldV))
	}
	records, err := recordList(fn, list)
	if err != nil {
		return nil, err
	}
	if f.st != nil {
		if err := f.st.work(len(records)); err != nil {
			return nil, err
		}
	}
	var kept []map[string]any
	for _, r := range records {
		v, err := field(fn, name, r)
		if err != nil {
			return nil, err
		}
		if keep(v) {
			kept = append(kept, r)
		}
	}
	return withZero(kept, records), nil
}

// equal compares two values as a body sees them: text by its bytes before escaping, other values with ==.
func equal(a, b any) bool {
	as, _, aText := textOf(a)
	bs, _, bText := textOf(b)
	if aText || bText {
		return aText && bText && as == bs
	}
	ai, aInt := asInt(a)
	bi, bInt := asInt(b)
	if aInt || bInt {
		return aInt && bInt && ai == bi
	}
	ab, aBool := a.(bool)
	bb, bBool := b.(bool)
	return aBool && bBool && ab == bb
}

func asInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int64:
		return x, true
	}
	return 0, false
}

// sortBy is sortBy FIELD LIST: the records of LIST ordered by FIELD, stably: text by its bytes before escaping,
// ints numerically, false before true.
func (f *funcs) sortBy(fieldV, list any) (any, error) {
	name, _, ok := textOf(fieldV)
	if !ok {
		return nil, fmt.Errorf("sortBy takes a field name first (sortBy \"FIELD\" LIST), not %s", describe(fieldV))
	}
	records, err := recordList("sortBy", list)
	if err != nil {
		return nil, err
	}
	for _, r := range records {
		if _, err := field("sortBy", name, r); err != nil {
			return nil, err
		}
	}
	if f.st != nil {
		if err := f.st.work(len(records)); err != nil {
			return nil, err
		}
	}
	out := withZero(records, records)
	slices.SortStableFunc(out, func(a, b map[string]any) int { return compare(a[name], b[name]) })
	return out, nil
}

func compare(a, b any) int {
	if as, _, ok := textOf(a); ok {
		bs, _, _ := textOf(b)
		return strings.Compare(as, bs)
	}
	if ai, ok := asInt(a); ok {
		bi, _ := asInt(b)
		return cmp.Compare(ai, bi)
	}
	ab, _ := a.(bool)
	bb, _ := b.(bool)
	switch {
	case ab == bb:
		return 0
	case !ab:
		return -1
	}
	return 1
}

// first and last return the first or last item of a list or records value; an empty one gives an empty value: ""
// for a list, a record whose fields are all empty for records.
func first(list any) (any, error) { return end("first", list, true) }
func last(list any) (any, error)  { return end("last", list, false) }

func end(name string, list any, head bool) (any, error) {
	pick := func(n int) int {
		if head {
			return 0
		}
		return n - 1
	}
	switch l := list.(type) {
	case nil:
		return "", nil
	case []string:
		if len(l) == 0 {
			return "", nil
		}
		return l[pick(len(l))], nil
	case []any:
		if len(l) == 0 {
			return "", nil
		}
		return l[pick(len(l))], nil
	case []map[string]any:
		if len(l) == 0 {
			if z := zeroRecord(l); z != nil {
				return z, nil
			}
			return map[string]any{}, nil
		}
		return l[pick(len(l))], nil
	}
	return "", fmt.Errorf("%s takes a list or records, not %s", name, describe(list))
}
