package lint

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/promptc/promptc/blocks"
)

// volatilePattern is one kind of text that looks like it belongs to a moment or a run, not to a prompt's source.
type volatilePattern struct {
	what string // "a date", "a UUID", …
	re   *regexp.Regexp
	why  string
	fix  string
}

const (
	volStaleWhy = "the runbook is cached and reused run after run, so this is stale on the next run, and keeping it current means editing the prefix and throwing its cache away each time"
	volStaleFix = "pass the value in a turn variable and render it in a turn block, or remove it; if it is a fixed example, silence it with [[lint.allow]]"
	volIDWhy    = "ids belong to one run or object; in the runbook they are either stale or edited per run, and every edit throws the cached prefix away"
	volIDFix    = "pass the id in a turn variable and render it in a turn block, or use a placeholder such as <id>"
	volWordWhy  = "the cached runbook is sent unchanged on later days, when it no longer holds"
	volWordFix  = "state it without reference to the present, or move it into a turn block that renders the actual time"
)

const monthNames = `(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`

// volatilePatterns are tried in order; a match that overlaps an earlier one is dropped, so "2024-05-01T10:00Z" is one
// date and time, not a date and a time. They compile on first use: check, which runs on every commit, never needs
// them, and compiling them is a third of promptc's start-up.
var volatilePatterns = sync.OnceValue(func() []volatilePattern {
	return []volatilePattern{
		{"a UUID", regexp.MustCompile(`(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`), volIDWhy, volIDFix},
		{"a date", regexp.MustCompile(`\b(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?:[T ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-][01]\d:?[0-5]\d)?)?\b`), volStaleWhy, volStaleFix},
		{"a date", regexp.MustCompile(`\b\d{1,2}[/.]\d{1,2}[/.](?:19|20)\d\d\b|\b\d{1,2}/\d{1,2}/\d\d\b`), volStaleWhy, volStaleFix},
		{"a date", regexp.MustCompile(`(?i)\b(?:\d{1,2}(?:st|nd|rd|th)?\s+)?` + monthNames + `\.?\s+(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?(?:19|20)\d\d\b`), volStaleWhy, volStaleFix},
		{"an epoch timestamp", regexp.MustCompile(`\b1\d{9}(?:\d{3})?\b`), volStaleWhy, volStaleFix},
		{"a long hex string", regexp.MustCompile(`(?i)\b[0-9a-f]{16,}\b`), volIDWhy, volIDFix},
		{"a time of day", regexp.MustCompile(`(?i)\b(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?:\s?[ap]\.?m\b\.?)?|\b(?:1[0-2]|0?[1-9])\s?[ap]\.?m\b\.?`), volStaleWhy, volStaleFix},
		{"a word relative to the present", regexp.MustCompile(`(?i)\b(?:today|tonight|yesterday|tomorrow|currently|nowadays|right now|as of now|as of today|at the moment|at present|(?:this|last|next) (?:morning|afternoon|evening|week|month|quarter|year))\b`), volWordWhy, volWordFix},
	}
})

type volatileMatch struct {
	start, end int
	pat        *volatilePattern
}

// findVolatile returns the volatile-looking matches in text, by offset, without overlaps. The matches kept so far
// are sorted and do not overlap, and so are one pattern's matches: each pattern is merged in with one pass over
// both, so that a text of thousands of dates costs time linear in them.
func findVolatile(text string) []volatileMatch {
	var out []volatileMatch
	pats := volatilePatterns()
	may := mayBeVolatile(text)
	for i := range pats {
		pat := &pats[i]
		if !may[i] {
			continue
		}
		ms := pat.re.FindAllStringIndex(text, -1)
		if len(ms) == 0 {
			continue
		}
		merged := make([]volatileMatch, 0, len(out)+len(ms))
		k := 0 // out[:k] are merged; out[k] is the first that ends after the current match starts
		for _, m := range ms {
			if pat.what == "a time of day" && timeInPath(text, m[0], m[1]) {
				continue
			}
			for k < len(out) && out[k].end <= m[0] {
				merged = append(merged, out[k])
				k++
			}
			if k < len(out) && out[k].start < m[1] {
				continue // overlaps a match of an earlier pattern
			}
			merged = append(merged, volatileMatch{m[0], m[1], pat})
		}
		out = append(merged, out[k:]...)
	}
	return out
}

// mayBeVolatile tells, for each of volatilePatterns, whether it can match text at all, from a pass over its bytes:
// most literal text has no digit, no 16 hex digits in a row and none of the relative words, and running the
// regular expressions over it anyway is most of what lint costs. It never says no to a text a pattern matches:
// every pattern but the UUID and the relative words needs an ASCII digit (\d and [0-9] are ASCII), a UUID needs
// a '-' and a digit or hex letters, long hex 16 hex digits in a row, and the words are looked for in ASCII text
// only (case folding maps non-ASCII letters such as U+017F, long s, to ASCII ones).
func mayBeVolatile(text string) [8]bool {
	digit, dash, ascii := false, false, true
	run, hex16 := 0, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c == '-':
			dash = true
		case c >= 0x80:
			ascii = false
		}
		if c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' {
			if run++; run >= 16 {
				hex16 = true
			}
		} else {
			run = 0
		}
	}
	words := !ascii
	if ascii {
		words = hasWordFold(text)
	}
	hexUUID := dash && (digit || !ascii || strings.ContainsAny(text, "abcdefABCDEF"))
	return [8]bool{hexUUID, digit, digit, digit, digit, hex16, digit, words}
}

// relativeWords are what the relative-word pattern's alternatives start with (in lower case, ASCII).
var relativeWords = []string{"today", "tonight", "yesterday", "tomorrow", "currently", "nowadays", "right now", "as of now",
	"as of today", "at the moment", "at present", "this ", "last ", "next "}

// relativeFirst marks the first bytes of relativeWords.
var relativeFirst = func() (first [256]bool) {
	for _, w := range relativeWords {
		first[w[0]] = true
	}
	return first
}()

// timeInPath reports whether a time-like match is part of something else: file.go:12:30, a ratio 1:2:3, v1.2:30.
func timeInPath(text string, start, end int) bool {
	if start > 0 && strings.ContainsRune(":.", rune(text[start-1])) {
		return true
	}
	return end < len(text) && text[end] == ':'
}

// volatileText reports volatile-looking literal text in runbook blocks and in the constants they use. Turn blocks
// are volatile by design and are not checked.
func (l *linter) volatileText() {
	l.ran[VolatileText] = true
	for _, bd := range l.bodies {
		if bd.b.Section != blocks.Runbook {
			continue
		}
		scope, _ := l.prog.Scope(bd.b.ID)
		for _, seg := range bd.lits {
			for _, m := range findVolatile(seg.text) {
				text := seg.text[m.start:m.end]
				l.add(VolatileText, bd.b.SourceRange(seg.off+m.start, seg.off+m.end), bd.b.ID, m.pat.fix,
					"runbook block %q (%s scope) contains %s, %q: %s", bd.b.ID, scope, m.pat.what, text, m.pat.why)
			}
		}
	}
	for _, ct := range l.consts {
		var runbook []string
		for _, id := range l.usedBy[ct.Name] {
			if b := l.p.ByID[id]; b != nil && b.Section == blocks.Runbook {
				runbook = append(runbook, strconv.Quote(id))
			}
		}
		if len(runbook) == 0 {
			continue
		}
		for _, m := range findVolatile(ct.Value) {
			text := ct.Value[m.start:m.end]
			l.add(VolatileText, ct.SourceRange(m.start, m.end), ct.Name, m.pat.fix,
				"constant %q, used by runbook block %s, contains %s, %q: %s", ct.Name, strings.Join(runbook, ", "), m.pat.what, text, m.pat.why)
		}
	}
}

// hasWordFold reports whether ASCII text holds one of relativeWords, ignoring case: what strings.Contains reports of
// the text in lower case, in one pass and without the copy (lint asks it of every literal segment).
func hasWordFold(text string) bool {
	for i := 0; i < len(text); i++ {
		c := text[i] | 0x20 // lower case, for an ASCII letter
		if !relativeFirst[c] {
			continue
		}
		for _, w := range relativeWords {
			if w[0] == c && len(text)-i >= len(w) && strings.EqualFold(text[i:i+len(w)], w) {
				return true
			}
		}
	}
	return false
}
