package lint

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
)

// pasted-constant and duplicate-sentence: one rule, one place. A rule written twice drifts; these find the
// copies.

func (l *linter) oneRuleOnePlace() {
	l.pastedConstants()
	l.duplicateSentences()
}

// pastedConstants reports a constant's text written out in a block body instead of emitted with {{const "name"}}.
// Whitespace runs compare equal, so a re-wrapped copy is found too.
func (l *linter) pastedConstants() {
	l.ran[PastedConstant] = true
	// Every constant is looked for in every literal segment. Rather than one scan per constant, each segment is
	// scanned once: a window of its first 8 bytes selects the candidate constants through a bitset and a map, and
	// only those are compared in full.
	type want struct {
		ct   *blocks.Const
		text string
	}
	var wants []want
	byHead := map[uint64][]int{}
	var filter [1 << 10]uint64 // a 64Ki-bit set of window hashes
	for _, ct := range l.consts {
		text := squeezeSpace(strings.TrimSpace(ct.Value))
		if utf8.RuneCountInString(text) < minRuleRunes {
			continue
		}
		h := window8(text, 0)
		byHead[h] = append(byHead[h], len(wants))
		filter[bucket(h)>>6] |= 1 << (bucket(h) & 63)
		wants = append(wants, want{ct, text})
	}
	if len(wants) == 0 {
		return
	}
	next := make([]int, len(wants)) // per constant: where its next match may start, so matches do not overlap
	for _, bd := range l.bodies {
		for si := range bd.lits {
			seg := &bd.lits[si]
			norm := squeezeSpace(seg.text)
			var idx []int // from norm to seg.text, on the first match
			if len(norm) < 8 {
				continue
			}
			clear(next)
			h := window8(norm, 0)
			for i := 0; ; i++ {
				if b := bucket(h); filter[b>>6]&(1<<(b&63)) != 0 {
					for _, w := range byHead[h] {
						text := wants[w].text
						if i < next[w] || !strings.HasPrefix(norm[i:], text) {
							continue
						}
						next[w] = i + len(text)
						if idx == nil {
							idx = squeezedOffsets(seg.text)
						}
						l.pastedAt(bd, wants[w].ct, seg.off+idx[i], seg.off+idx[i+len(text)-1]+1)
					}
				}
				if i+8 >= len(norm) {
					break
				}
				h = h>>8 | uint64(norm[i+8])<<56
			}
		}
	}
}

// window8 reads 8 bytes of s at i as a little-endian number.
func window8(s string, i int) uint64 {
	var h uint64
	for k := 7; k >= 0; k-- {
		h = h<<8 | uint64(s[i+k])
	}
	return h
}

// bucket spreads a window over the filter's 64Ki bits.
func bucket(h uint64) uint64 { return (h * 0x9E3779B97F4A7C15) >> 48 }

// pastedAt reports constant ct's text pasted into bd at body bytes [start, end).
func (l *linter) pastedAt(bd *lintBody, ct *blocks.Const, start, end int) {
	l.pasted[bd] = append(l.pasted[bd], [2]int{start, end})
	fix := fmt.Sprintf(`replace the text with {{const %q}}`, ct.Name)
	var extra any = UseConst{Name: ct.Name}
	if bd.b.Raw {
		fix = fmt.Sprintf(`raw bodies cannot call const: move the text into a block without raw = true that uses {{const %q}}`, ct.Name)
		extra = nil
	}
	l.addFix(extra, PastedConstant, bd.b.SourceRange(start, end), bd.b.ID, fix,
		"block %q pastes the text of constant %q (%s) instead of using it: one rule, one place; the copy will drift from the constant", bd.b.ID, ct.Name, ct.Range)
}

// sentenceUse is one place a sentence is written: bytes [start, end) of a block's body (bd) or a constant's value
// (ct). Where that is in the source, and how a message names the owner, are worked out only for the sentences
// written in two places, which are few: a project's every sentence is recorded.
type sentenceUse struct {
	bd         *lintBody
	ct         *blocks.Const
	start, end int
	at         source.Range // set for the sentences of a key with two owners
}

// owner names the block or constant: `block "x"`, `constant "y"`.
func (o *sentenceUse) owner() string {
	if o.bd != nil {
		return fmt.Sprintf("block %q", o.bd.b.ID)
	}
	return fmt.Sprintf("constant %q", o.ct.Name)
}

// name is the block's id or the constant's name.
func (o *sentenceUse) name() string {
	if o.bd != nil {
		return o.bd.b.ID
	}
	return o.ct.Name
}

// of is the block or constant, one value per owner.
func (o *sentenceUse) of() any {
	if o.bd != nil {
		return o.bd
	}
	return o.ct
}

// source is where the sentence is written.
func (o *sentenceUse) source() source.Range {
	if o.bd != nil {
		return o.bd.b.SourceRange(o.start, o.end)
	}
	return o.ct.SourceRange(o.start, o.end)
}

// duplicateSentences reports a sentence written literally in two blocks or constants (or a block and a constant).
// The first occurrence in source order is the original; each later one gets a finding.
func (l *linter) duplicateSentences() {
	l.ran[DuplicateSentence] = true
	byKey := map[string][]sentenceUse{}
	var keys []string
	record := func(o sentenceUse, key string) {
		if _, ok := byKey[key]; !ok {
			keys = append(keys, key)
		}
		byKey[key] = append(byKey[key], o)
	}
	for _, bd := range l.bodies {
		for _, seg := range bd.lits {
			for _, s := range splitSentences(seg.text) {
				start, end := seg.off+s.start, seg.off+s.end
				if l.insidePasted(bd, start, end) {
					continue
				}
				record(sentenceUse{bd: bd, start: start, end: end}, s.key)
			}
		}
	}
	for _, ct := range l.consts {
		for _, s := range splitSentences(ct.Value) {
			record(sentenceUse{ct: ct, start: s.start, end: s.end}, s.key)
		}
	}
	for _, key := range keys {
		occ := byKey[key]
		if !slices.ContainsFunc(occ[1:], func(o sentenceUse) bool { return o.of() != occ[0].of() }) {
			continue // one owner
		}
		for i := range occ {
			occ[i].at = occ[i].source()
		}
		sort.SliceStable(occ, func(i, j int) bool { return occ[i].at.Compare(occ[j].at) < 0 })
		first := occ[0]
		// A template file that several blocks name is written once: its sentences are one place, however many
		// blocks print them (docs/decisions.md, shared fragments).
		places := map[source.Range]bool{first.at: true}
		for _, o := range occ[1:] {
			if o.of() == first.of() || places[o.at] {
				continue
			}
			places[o.at] = true
			fix := "define the sentence once as a constant in blocks/ and emit it with {{const \"name\"}} in both places"
			if first.ct != nil {
				fix = fmt.Sprintf("emit %s with {{const %q}} instead of repeating its sentence (split the constant if only this sentence is shared)", first.owner(), first.name())
			}
			l.add(DuplicateSentence, o.at, o.name(), fix,
				"%s repeats a sentence of %s (%s): %q; one rule, one place: two copies drift apart", o.owner(), first.owner(), first.at, lintClip(key, 80))
		}
	}
}

func (l *linter) insidePasted(bd *lintBody, start, end int) bool {
	for _, r := range l.pasted[bd] {
		if start >= r[0] && end <= r[1] {
			return true
		}
	}
	return false
}

func lintClip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// squeezeSpace replaces every run of whitespace by one space. Text with nothing to squeeze (no whitespace but lone
// ASCII spaces, and only ASCII) is returned as it is, without a copy.
func squeezeSpace(s string) string {
	if !needsSqueeze(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// needsSqueeze reports whether squeezeSpace could change s: it holds a non-ASCII byte (a Unicode space, or bytes
// that are not UTF-8 and become U+FFFD), an ASCII whitespace other than a space, or two spaces in a row.
func needsSqueeze(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf, c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			return true
		case c == ' ' && i+1 < len(s) && s[i+1] == ' ':
			return true
		}
	}
	return false
}

// squeezedOffsets maps each byte of squeezeSpace(s) to the offset in s of the byte it stands for (a run of
// whitespace, to its first byte). Only a match needs it, so it is computed for the texts that have one.
func squeezedOffsets(s string) []int {
	idx := make([]int, 0, len(s))
	space := false
	for i, r := range s {
		if unicode.IsSpace(r) {
			if !space {
				idx = append(idx, i)
			}
			space = true
			continue
		}
		space = false
		n := utf8.RuneLen(r)
		if r == utf8.RuneError {
			n = len(string(utf8.RuneError)) // an invalid byte is written as U+FFFD
		}
		for k := range n {
			idx = append(idx, i+k)
		}
	}
	return idx
}

type sentenceSpan struct {
	start, end int // in the text, after trimming list markers and blanks
	key        string
}

// mdBlockStart is a line that starts a new Markdown element, so a sentence cannot run across the newline before it.
var mdBlockStart = regexp.MustCompile(`^[ \t]*(?:$|[-*+>#]|\d+[.)][ \t])`)

// sentenceMarker is the list, quote or heading marker at the start of a sentence, not part of it.
var sentenceMarker = regexp.MustCompile(`^(?:[ \t]*(?:[-*+>]|\d+[.)]|#+)[ \t]+)+`)

// codeOnly is a sentence that is one code span: a command's syntax, not a rule.
var codeOnly = regexp.MustCompile("^`[^`]*`[.:;,]?$")

// splitSentences splits literal text into sentences: at ".", "!" or "?" before a blank (not inside a code span, not
// in an ellipsis), at blank lines, at lines that start a list item, quote or heading, and at the cells of a table
// row. A line break inside a paragraph is a space. Fenced code is not prose and is skipped. It returns the sentences
// of at least minRuleRunes runes, with whitespace squeezed in their key.
func splitSentences(text string) []sentenceSpan {
	var out []sentenceSpan
	emit := func(start, end int) {
		if m := sentenceMarker.FindStringIndex(text[start:end]); m != nil {
			start += m[1]
		}
		for start < end && blankByte(text[start]) {
			start++
		}
		for end > start && blankByte(text[end-1]) {
			end--
		}
		if start >= end {
			return
		}
		key := squeezeSpace(text[start:end])
		if utf8.RuneCountInString(key) >= minRuleRunes && !codeOnly.MatchString(key) {
			out = append(out, sentenceSpan{start, end, key})
		}
	}
	start, inCode, fence := 0, false, false
	// prose scans text[from:to] for sentence ends and emits each sentence that ends there.
	prose := func(from, to int) {
		for i := from; i < to; i++ {
			switch c := text[i]; c {
			case '`':
				inCode = !inCode
			case '.', '!', '?':
				if inCode || c == '.' && (i > from && text[i-1] == '.' || i+1 < to && text[i+1] == '.') {
					continue
				}
				j := i + 1
				for j < to && strings.IndexByte(")\"'*_`", text[j]) >= 0 {
					j++
				}
				if c == '.' && j == i+1 && abbreviation(text[:i], text[j:]) {
					continue
				}
				if j == to || blankByte(text[j]) {
					emit(start, j)
					start, i = j, j-1
				}
			}
		}
	}
	for ls := 0; ls < len(text); {
		le := len(text)
		if i := strings.IndexByte(text[ls:], '\n'); i >= 0 {
			le = ls + i
		}
		line := strings.TrimLeft(text[ls:le], " \t")
		switch {
		case strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~"):
			if !fence {
				emit(start, ls)
			}
			fence, inCode, start = !fence, false, le
		case fence:
			start = le
		case strings.HasPrefix(line, "|"):
			emit(start, ls)
			for cell := ls + strings.IndexByte(text[ls:le], '|'); cell < le; {
				end := le
				if i := strings.IndexByte(text[cell+1:le], '|'); i >= 0 {
					end = cell + 1 + i
				}
				start, inCode = cell+1, false
				prose(cell+1, end)
				emit(start, end)
				cell = end
			}
			start = le
		default:
			if mdBlockStart.MatchString(text[ls:le]) {
				emit(start, ls)
				start = ls
				if line == "" {
					inCode = false
				}
			}
			prose(ls, le)
		}
		ls = le + 1
	}
	if !fence {
		emit(start, len(text))
	}
	return out
}

// abbreviations end with a dot that does not end the sentence: "e.g.", "i.e.", "vs.", titles. The value says
// whether the abbreviation may also end one ("etc.", "et al."): it does when the next word starts with a capital.
var abbreviations = map[string]bool{
	"e.g": false, "i.e": false, "eg": false, "ie": false, "vs": false, "cf": false, "viz": false, "approx": false,
	"incl": false, "resp": false, "fig": false, "no": false, "nr": false, "ca": false, "dr": false, "mr": false,
	"mrs": false, "ms": false, "prof": false, "st": false, "jr": false, "sr": false, "etc": true, "al": true,
}

// abbreviation reports whether the dot that ends head is an abbreviation's, inside a sentence that goes on in tail.
// A dot after a number that a digit follows ("v1.2.3", "3.14") never reaches here: it is not before a blank.
func abbreviation(head, tail string) bool {
	k := len(head)
	for k > 0 && (head[k-1] == '.' || head[k-1] >= 'a' && head[k-1] <= 'z' || head[k-1] >= 'A' && head[k-1] <= 'Z') {
		k--
	}
	word := strings.ToLower(head[k:])
	canEnd, ok := abbreviations[word]
	if !ok || k > 0 && head[k-1] >= 0x80 { // part of a longer word in another script
		return false
	}
	next := strings.TrimLeft(tail, " \t\n")
	if next == "" {
		return false // the end of the text ends the sentence
	}
	if word == "no" {
		return next[0] >= '0' && next[0] <= '9' // "No. 5", not "Say no."
	}
	if canEnd {
		r, _ := utf8.DecodeRuneInString(next)
		return !unicode.IsUpper(r)
	}
	return true
}

func blankByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }
