package templates

import (
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Neutralize breaks every occurrence in s of any of markers (docs/reference.md#target): a backslash is inserted after the occurrence's
// first character, scanning left to right and resuming right after the inserted backslash. Occurrences that
// overlap are thus each broken in turn: with the marker "aa", "aaa" becomes `a\a\a`. Empty markers are ignored.
// If no marker holds a backslash or is a single character, the result holds no marker at all. s is returned as it
// is when it holds no marker, without allocating when there are at most a few markers.
//
// A marker may hold a backslash, even start with one (`\<END\>`, a marker written with Markdown escapes), and then
// an inserted backslash could start or complete an occurrence: the value `<END>`, escaped `\<END\>`, would become
// `\\<END\>`, which still holds the marker. So the backslash goes after the occurrence's first character that is
// not a backslash (`\<\END\>`), which for a marker that does not start with one is its first character; and if
// the result still holds a marker, every occurrence is broken instead by a character that no marker holds
// (BreakChar) after its first character, which can neither complete one nor start one. No value can make rendering fail (docs/values.md,
// markers from several values).
//
// The character that starts an occurrence is the UTF-8 sequence (or invalid byte) of s at that offset. Neutralize
// takes time linear in len(s), whatever the number of markers and however their occurrences overlap.
func Neutralize(s string, markers []string) string {
	out := neutralizeWhole(s, markers, '\\')
	if out == s || !holdsBackslash(markers) {
		return out
	}
	if m := matcherFor(markers); m != nil && m.occurs(out) {
		return neutralizeWhole(s, markers, BreakChar(markers))
	}
	return out
}

// holdsBackslash reports whether a marker holds a backslash: only then can breaking one make another.
func holdsBackslash(markers []string) bool {
	for _, m := range markers {
		if strings.IndexByte(m, '\\') >= 0 {
			return true
		}
	}
	return false
}

// BreakChar is the byte that breaks markers when a backslash cannot (see Neutralize): a backslash when no marker
// holds one, else the first ASCII punctuation character that no marker holds. Inserted in an occurrence, it
// breaks it, and being in no marker it is part of none.
func BreakChar(markers []string) byte {
	if !holdsBackslash(markers) {
		return '\\'
	}
	for _, c := range []byte("/|~^_#+:;.,-=*!?&%$@'\"`()[]{}<>") {
		if !slices.ContainsFunc(markers, func(m string) bool { return strings.IndexByte(m, c) >= 0 }) {
			return c
		}
	}
	return '\\' // every punctuation character is in some marker: no byte is safer than the rule's own
}

// breakAfter returns the offset after the character at which an occurrence starting at p of s is broken: the
// first character at or after p that is not a backslash (see Neutralize), or the one at p when there is none.
func breakAfter(s string, p int) int {
	q := p
	for q < len(s) && s[q] == '\\' {
		q++
	}
	if q == len(s) {
		q = p
	}
	_, size := utf8.DecodeRuneInString(s[q:])
	return q + size
}

// BreakMarkerEdges keeps a value from finishing a marker with the text beside it: when s ends with at least half of a
// marker's beginning (and at least minEdge bytes of it), or starts with as much of its end, that piece is broken as
// Neutralize breaks a whole occurrence, with a backslash after its first character. A template's own text next to
// the value, or another value, could otherwise complete it: `<!-- generated for {{.agent}} -->` with an agent named
// "<!-- END ACME". Rendering no longer applies it: a marker that values assemble with each other or with the text
// beside them is broken where it occurs in the artifact, inside a value's bytes (docs/values.md, markers from
// several values), which leaves values that form no marker as they are. A marker shorter than 2*minEdge has no edges to break.
func BreakMarkerEdges(s string, markers []string) string {
	if s == "" {
		return s
	}
	end, start := -1, false // where to break a marker's beginning at the end of s; whether to break s's first character
	for _, m := range markers {
		half := max((len(m)+1)/2, minEdge)
		for k := len(m) - 1; k >= half; k-- {
			if end < 0 && strings.HasSuffix(s, m[:k]) {
				end = len(s) - k
			}
			if !start && strings.HasPrefix(s, m[len(m)-k:]) {
				start = true
			}
		}
	}
	if end < 0 && !start {
		return s
	}
	_, first := utf8.DecodeRuneInString(s)
	if start && end >= 0 && end < first {
		end = -1 // the same character: one backslash after it serves both
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	rest := s
	if start {
		b.WriteString(s[:first])
		b.WriteByte('\\')
		rest = s[first:]
		end -= first
	}
	if end >= 0 {
		_, size := utf8.DecodeRuneInString(rest[end:])
		b.WriteString(rest[:end+size])
		b.WriteByte('\\')
		rest = rest[end+size:]
	}
	b.WriteString(rest)
	return b.String()
}

// minEdge is the shortest piece of a marker BreakMarkerEdges breaks: shorter ones ("<!", "->") are everyday text.
const minEdge = 4

// neutralizeWhole breaks every whole occurrence of a marker in s (see Neutralize) by inserting brk.
func neutralizeWhole(s string, markers []string, brk byte) string {
	if s == "" || len(markers) == 0 {
		return s
	}
	if len(markers) <= fewMarkers && !containsAny(s, markers) {
		return s
	}
	m := matcherFor(markers)
	if m == nil {
		return s
	}
	starts := m.starts(s)
	if starts == nil {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	written, resume := 0, 0 // s[:written] is in b; no occurrence is broken before resume
	for w, word := range starts {
		for word != 0 {
			p := w*64 + bits.TrailingZeros64(word)
			word &= word - 1
			if p < resume {
				continue // inside the first character of the occurrence just broken
			}
			_, size := utf8.DecodeRuneInString(s[p:])
			at := p + size
			if brk == '\\' {
				at = breakAfter(s, p)
			}
			b.WriteString(s[written:at])
			b.WriteByte(brk)
			written, resume = at, at
		}
	}
	b.WriteString(s[written:])
	return b.String()
}

// starts returns the offsets of s at which a marker occurs, as a bit set (bit p of word p/64), or nil for none.
func (m *matcher) starts(s string) []uint64 {
	// The automaton reads s backwards, so it is in an accepting state exactly where some marker starts.
	var starts []uint64
	state := int32(0)
	for p := len(s) - 1; p >= 0; p-- {
		state = m.next[int(state)*m.classes+int(m.class[s[p]])]
		if m.accept[state] {
			if starts == nil {
				starts = make([]uint64, len(s)/64+1)
			}
			starts[p/64] |= 1 << (p % 64)
		}
	}
	return starts
}

// occurs reports whether a marker occurs in s.
func (m *matcher) occurs(s string) bool {
	state := int32(0)
	for p := len(s) - 1; p >= 0; p-- {
		if state = m.next[int(state)*m.classes+int(m.class[s[p]])]; m.accept[state] {
			return true
		}
	}
	return false
}

// fewMarkers is how many markers are searched one by one before the automaton is built: a project has one or two
// targets, and most values hold no marker at all, which strings.Contains finds out without allocating.
const fewMarkers = 8

func containsAny(s string, markers []string) bool {
	for _, m := range markers {
		if m != "" && strings.Contains(s, m) {
			return true
		}
	}
	return false
}

// matcher is an Aho-Corasick automaton, made a DFA, over the reversed markers: reading a string backwards from its
// end, it is in an accepting state after reading byte p exactly when some marker occurs at offset p. Bytes are
// mapped to classes first (the bytes that occur in no marker share class 0), so the table holds one row of
// `classes` entries per trie node.
type matcher struct {
	class   [256]uint8
	classes int
	next    []int32 // next[state*classes+class]
	accept  []bool
}

// matchers caches the automaton of each marker set, since the same markers neutralise every value of a project.
var (
	matchers     sync.Map // key: markerKey(markers) → *matcher
	matcherCount int
	matcherMu    sync.Mutex
)

// maxCachedMatchers bounds the cache: a process compiles a few projects, each with one marker set.
const maxCachedMatchers = 64

// matcherFor returns the automaton for markers, or nil when all of them are empty.
func matcherFor(markers []string) *matcher {
	key := markerKey(markers)
	if key == "" {
		return nil
	}
	if m, ok := matchers.Load(key); ok {
		return m.(*matcher)
	}
	m := newMatcher(markers)
	matcherMu.Lock()
	if matcherCount < maxCachedMatchers {
		if _, loaded := matchers.LoadOrStore(key, m); !loaded {
			matcherCount++
		}
	}
	matcherMu.Unlock()
	return m
}

// markerKey identifies a marker set: its non-empty markers, sorted and without duplicates, each prefixed by its
// length so that no two sets share a key.
func markerKey(markers []string) string {
	ms := make([]string, 0, len(markers))
	for _, m := range markers {
		if m != "" {
			ms = append(ms, m)
		}
	}
	slices.Sort(ms)
	ms = slices.Compact(ms)
	var b strings.Builder
	for _, m := range ms {
		b.WriteString(strconv.Itoa(len(m)))
		b.WriteByte(':')
		b.WriteString(m)
	}
	return b.String()
}

func newMatcher(markers []string) *matcher {
	m := &matcher{}
	n := 1 // class 0: bytes in no marker
	for _, mk := range markers {
		for i := 0; i < len(mk); i++ {
			if m.class[mk[i]] == 0 {
				m.class[mk[i]] = uint8(n)
				n++
			}
		}
	}
	if n > 256 {
		// Every byte value occurs in some marker: 256 classes, one per byte, and no class 0 to spare.
		for c := range m.class {
			m.class[c] = uint8(c)
		}
		n = 256
	}
	m.classes = n
	row := func() int32 {
		m.next = append(m.next, make([]int32, n)...)
		for i := len(m.next) - n; i < len(m.next); i++ {
			m.next[i] = -1
		}
		m.accept = append(m.accept, false)
		return int32(len(m.accept) - 1)
	}
	row() // the root
	for _, mk := range markers {
		if mk == "" {
			continue
		}
		state := int32(0)
		for i := len(mk) - 1; i >= 0; i-- {
			at := int(state)*n + int(m.class[mk[i]])
			if m.next[at] < 0 {
				child := row()
				m.next[at] = child
			}
			state = m.next[at]
		}
		m.accept[state] = true
	}
	// Breadth first, fill in every missing transition from the failure state's, which is complete already.
	fail := make([]int32, len(m.accept))
	queue := make([]int32, 0, len(m.accept))
	for c := range n {
		if child := m.next[c]; child > 0 {
			fail[child] = 0
			queue = append(queue, child)
		} else {
			m.next[c] = 0
		}
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for c := range n {
			at := int(u)*n + c
			via := m.next[int(fail[u])*n+c]
			if child := m.next[at]; child >= 0 {
				fail[child] = via
				m.accept[child] = m.accept[child] || m.accept[via]
				queue = append(queue, child)
			} else {
				m.next[at] = via
			}
		}
	}
	return m
}
