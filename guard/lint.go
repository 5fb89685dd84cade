package guard

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/templates"
)

// Severities of a lint finding. An error fails `promptc lint` (exit 1); a warning is reported and passes.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

// Lint ids (DESIGN §8; docs/lint.md argues each one and its severity).
const (
	LintVolatileText      = "volatile-text"
	LintScopeInversion    = "scope-inversion"
	LintDuplicateSentence = "duplicate-sentence"
	LintPastedConstant    = "pasted-constant"
	LintUnusedConstant    = "unused-constant"
	LintUnusedVariable    = "unused-variable"
	LintInvisibleChar     = "invisible-char"
	LintShortPrefix       = "short-prefix"
	LintUnknownAllow      = "unknown-allow"
	LintUnusedAllow       = "unused-allow"
	LintUnknownRef        = "unknown-ref"
)

// MinCacheTokens is the shortest prompt prefix Anthropic (cache_control breakpoints) and OpenAI (automatic prefix
// caching) will cache. A task prefix below it is never reused from one session to the next.
const MinCacheTokens = 1024

// minRuleRunes is the shortest text the one-rule-one-place lints compare: below it, equal text is more likely a
// common phrase ("Read the issue first.") than a copied rule.
const minRuleRunes = 40

// Finding is one lint result.
type Finding struct {
	Lint     string // lint id, such as "scope-inversion"
	Severity string // SeverityError or SeverityWarning
	// Pos is the offending text's exact position when it is in a source file, else the position of what the
	// finding is about (a block, constant, variable, order entry or [[lint.allow]]).
	Pos blocks.Pos
	// Block names what the finding is about, as an [[lint.allow]] entry's block key names it: a block id; for
	// unused-constant and findings inside a constant's text, the constant; for unused-variable, the variable; for
	// short-prefix, the task. Empty when the finding is about none of these.
	Block   string
	Message string
	Fix     string // what to do about it
}

// String formats the finding as path:line:col: severity: message (lint-id).
func (f Finding) String() string {
	return f.Pos.String() + ": " + f.Severity + ": " + f.Message + " (" + f.Lint + ")"
}

// findingJSON is the stable JSON form of a finding (docs/lint.md).
type findingJSON struct {
	Lint     string `json:"lint"`
	Severity string `json:"severity"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Block    string `json:"block"`
	Message  string `json:"message"`
	Fix      string `json:"fix"`
}

// MarshalJSON writes the finding as {"lint", "severity", "file", "line", "col", "block", "message", "fix"}; line and
// col are 0 when unknown.
func (f Finding) MarshalJSON() ([]byte, error) {
	return json.Marshal(findingJSON{f.Lint, f.Severity, f.Pos.File, f.Pos.Line, f.Pos.Col, f.Block, f.Message, f.Fix})
}

// CountSeverities returns how many findings are errors and how many are warnings.
func CountSeverities(findings []Finding) (errs, warnings int) {
	for _, f := range findings {
		if f.Severity == SeverityError {
			errs++
		} else {
			warnings++
		}
	}
	return errs, warnings
}

// LintSummary returns "N errors, M warnings".
func LintSummary(findings []Finding) string {
	e, w := CountSeverities(findings)
	return lintCount(e, "error") + ", " + lintCount(w, "warning")
}

func lintCount(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// WriteFindings writes findings as text: one `path:line:col: severity: message (lint-id)` line each, followed by an
// indented `fix: …` line, then the summary line. It writes nothing when there are no findings.
func WriteFindings(w io.Writer, findings []Finding) error {
	if len(findings) == 0 {
		return nil
	}
	var b strings.Builder
	for _, f := range findings {
		b.WriteString(f.String())
		b.WriteByte('\n')
		if f.Fix != "" {
			b.WriteString("    fix: ")
			b.WriteString(f.Fix)
			b.WriteByte('\n')
		}
	}
	b.WriteString(LintSummary(findings))
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteFindingsJSON writes findings as an indented JSON array ([] when there are none).
func WriteFindingsJSON(w io.Writer, findings []Finding) error {
	if findings == nil {
		findings = []Finding{}
	}
	data, err := json.MarshalIndent(findings, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// subject kinds: what an [[lint.allow]] entry's block key may name for a lint.
const (
	subjBlock = 1 << iota
	subjConst
	subjVar
	subjTask
)

type lintRule struct {
	severity string
	subjects int // 0: the lint cannot be silenced
}

var lintRules = map[string]lintRule{
	LintVolatileText:      {SeverityWarning, subjBlock | subjConst},
	LintScopeInversion:    {SeverityWarning, subjBlock},
	LintDuplicateSentence: {SeverityWarning, subjBlock | subjConst},
	LintPastedConstant:    {SeverityError, subjBlock},
	LintUnusedConstant:    {SeverityWarning, subjConst},
	LintUnusedVariable:    {SeverityWarning, subjVar},
	LintInvisibleChar:     {SeverityError, subjBlock | subjConst},
	LintShortPrefix:       {SeverityWarning, subjTask},
	LintUnknownAllow:      {SeverityError, 0},
	LintUnusedAllow:       {SeverityWarning, 0},
	LintUnknownRef:        {SeverityError, subjBlock},
}

// LintIDs returns every lint id, sorted.
func LintIDs() []string {
	ids := make([]string, 0, len(lintRules))
	for id := range lintRules {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Lint runs the stability lints (DESIGN §8) over a compiled program and the artifacts it built (as Program.Build
// returns them), counting tokens with tok (nil: an o200k_base counter). Findings that a [[lint.allow]] entry of the
// manifest matches are dropped; an entry that matches nothing is itself reported (unused-allow). The result is sorted
// by position, then lint id, then message, and depends on the inputs alone.
func Lint(prog *assemble.Program, arts []*assemble.Artifact, tok *Counter) []Finding {
	if tok == nil {
		tok, _ = NewCounter("")
	}
	l := newLinter(prog, arts, tok)
	l.volatileText()
	l.scopeInversion()
	l.oneRuleOnePlace()
	l.unusedConstants()
	l.unusedVariables()
	l.invisibleChars()
	l.shortPrefix()
	l.unknownRefs()
	return sortFindings(l.applyAllows())
}

// LintErrors runs only the error-level lints, which need no token counts: the ones promptc check fails on. It stays
// cheap enough for a pre-commit hook on every commit.
func LintErrors(prog *assemble.Program, arts []*assemble.Artifact) []Finding {
	tok, _ := NewCounter("")
	l := newLinter(prog, arts, tok)
	l.pastedConstants()
	l.invisibleChars()
	l.unknownRefs()
	var out []Finding
	for _, f := range l.applyAllows() {
		if f.Severity == SeverityError {
			out = append(out, f)
		}
	}
	return sortFindings(out)
}

// unknownRefs reports refs to ids no block has. The compiler checks a ref only when it runs (§3.2), so a typo in a
// branch no fixture takes would otherwise surface in production.
func (l *linter) unknownRefs() {
	l.ran[LintUnknownRef] = true
	ids := lintKeys(l.p.ByID)
	for _, bd := range l.bodies {
		for _, u := range bd.uses.Refs {
			if _, ok := l.p.ByID[u.Name]; !ok {
				l.add(LintUnknownRef, bd.b.SourcePos(u.Off), bd.b.ID, "name an existing block id"+blocks.DidYouMean(u.Name, ids),
					"block %q refers to unknown block %q: the ref fails whenever its branch runs", bd.b.ID, u.Name)
			}
		}
	}
}

// formatRuns calls fn for each run of format characters (Unicode Cf: zero-width, bidi controls) in text, with the
// byte offset where it starts.
func formatRuns(text string, fn func(start int, run []rune)) {
	for i := 0; i < len(text); {
		if text[i] < utf8.RuneSelf {
			i++ // every format character is outside ASCII
			continue
		}
		start := i
		var run []rune
		for i < len(text) {
			r, size := utf8.DecodeRuneInString(text[i:])
			if !unicode.Is(unicode.Cf, r) {
				if len(run) == 0 {
					i += size
				}
				break
			}
			run = append(run, r)
			i += size
		}
		if len(run) > 0 {
			fn(start, run)
		}
	}
}

func sortFindings(out []Finding) []Finding {
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if c := a.Pos.Compare(b.Pos); c != 0 {
			return c < 0
		}
		if a.Lint != b.Lint {
			return a.Lint < b.Lint
		}
		return a.Message < b.Message
	})
	return out
}

type linter struct {
	prog   *assemble.Program
	p      *blocks.Project
	arts   []*assemble.Artifact
	tok    *Counter
	bodies []*lintBody            // one per block, in project order
	byID   map[string]*lintBody   // by block id
	consts []*blocks.Const        // by name
	ran    map[string]bool        // lints that could run (so a silence of one that could not is not called unused)
	out    []Finding              // before silencing
	pasted map[*lintBody][][2]int // body ranges reported as pasted constants
	usedBy map[string][]string    // constant name → ids of the blocks using it
}

// lintBody is a block's body with what the lints need: its uses and its literal text.
type lintBody struct {
	b    *blocks.Block
	uses templates.Uses
	lits []litSegment // the literal text: everything outside template actions
}

// litSegment is a piece of literal text at byte offset off of a body or constant value.
type litSegment struct {
	off  int
	text string
	// norm is text with whitespace runs squeezed to one space, and idx maps each byte of norm back to text; computed
	// once, on first use, since every constant is searched for in every segment.
	norm string
	idx  []int
}

func (seg *litSegment) squeezed() (string, []int) {
	if seg.idx == nil {
		seg.norm, seg.idx = squeezeSpace(seg.text)
	}
	return seg.norm, seg.idx
}

func newLinter(prog *assemble.Program, arts []*assemble.Artifact, tok *Counter) *linter {
	p := prog.Project
	l := &linter{prog: prog, p: p, arts: arts, tok: tok, byID: map[string]*lintBody{}, ran: map[string]bool{},
		pasted: map[*lintBody][][2]int{}, usedBy: map[string][]string{}}
	for _, b := range p.Blocks {
		bd := &lintBody{b: b}
		if body := prog.Body(b.ID); body != nil {
			bd.uses = body.Uses
			for _, lit := range body.Literals {
				bd.lits = append(bd.lits, litSegment{off: lit.Off, text: lit.Text})
			}
		}
		for _, u := range bd.uses.Consts {
			if ids := l.usedBy[u.Name]; len(ids) == 0 || ids[len(ids)-1] != b.ID {
				l.usedBy[u.Name] = append(ids, b.ID)
			}
		}
		l.bodies = append(l.bodies, bd)
		l.byID[b.ID] = bd
	}
	for _, name := range lintKeys(p.Consts) {
		l.consts = append(l.consts, p.Consts[name])
	}
	return l
}

func lintKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (l *linter) add(lint string, pos blocks.Pos, subject, fix, format string, args ...any) {
	l.out = append(l.out, Finding{Lint: lint, Severity: lintRules[lint].severity, Pos: pos, Block: subject,
		Message: fmt.Sprintf(format, args...), Fix: fix})
}

// ---------------------------------------------------------------------------------------------------------------
// volatile-text

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

// findVolatile returns the volatile-looking matches in text, by offset, without overlaps.
func findVolatile(text string) []volatileMatch {
	var out []volatileMatch
	pats := volatilePatterns()
	for i := range pats {
		pat := &pats[i]
	next:
		for _, m := range pat.re.FindAllStringIndex(text, -1) {
			if pat.what == "a time of day" && timeInPath(text, m[0], m[1]) {
				continue
			}
			for _, o := range out {
				if m[0] < o.end && o.start < m[1] {
					continue next
				}
			}
			out = append(out, volatileMatch{m[0], m[1], pat})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

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
	l.ran[LintVolatileText] = true
	for _, bd := range l.bodies {
		if bd.b.Section != blocks.Runbook {
			continue
		}
		scope := l.prog.Scope(bd.b.ID)
		for _, seg := range bd.lits {
			for _, m := range findVolatile(seg.text) {
				text := seg.text[m.start:m.end]
				l.add(LintVolatileText, bd.b.SourcePos(seg.off+m.start), bd.b.ID, m.pat.fix,
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
			l.add(LintVolatileText, ct.SourcePos(m.start), ct.Name, m.pat.fix,
				"constant %q, used by runbook block %s, contains %s, %q: %s", ct.Name, strings.Join(runbook, ", "), m.pat.what, text, m.pat.why)
		}
	}
}

// ---------------------------------------------------------------------------------------------------------------
// scope-inversion

// scopeInversion reports each runbook block that, in some task's order, comes before a block of a more stable scope.
// Everything after a block is cached only as widely as that block is shared, so the stable blocks after it lose the
// wider prefix they could be in. The order is read statically (every block a task's gate admits, whatever its when);
// the bytes and tokens come from the built runbooks.
func (l *linter) scopeInversion() {
	l.ran[LintScopeInversion] = true
	type inversion struct {
		b     *blocks.Block
		later []*blocks.Block // more stable blocks after b, in order
		seen  map[string]bool
		tasks []string
	}
	var order []*inversion
	byID := map[string]*inversion{}
	for _, task := range l.p.Tasks {
		var seq []*blocks.Block
		for _, id := range l.p.Runbook.Order {
			if b := l.slotBlock(id, task); b != nil {
				seq = append(seq, b)
			}
		}
		for i, b := range seq {
			r := blocks.ScopeRank(l.prog.Scope(b.ID))
			for _, c := range seq[i+1:] {
				rc := blocks.ScopeRank(l.prog.Scope(c.ID))
				if rc >= r {
					continue
				}
				inv := byID[b.ID]
				if inv == nil {
					inv = &inversion{b: b, seen: map[string]bool{}}
					byID[b.ID] = inv
					order = append(order, inv)
				}
				if len(inv.tasks) == 0 || inv.tasks[len(inv.tasks)-1] != task {
					inv.tasks = append(inv.tasks, task)
				}
				if !inv.seen[c.ID] {
					inv.seen[c.ID] = true
					inv.later = append(inv.later, c)
				}
			}
		}
	}
	for _, inv := range order {
		b := inv.b
		scope := l.prog.Scope(b.ID)
		r := blocks.ScopeRank(scope)
		// Order the later blocks as the runbook order has them (one task's sequence may not hold them all).
		sort.SliceStable(inv.later, func(i, j int) bool { return l.orderIndex(inv.later[i]) < l.orderIndex(inv.later[j]) })
		var names []string
		for i, c := range inv.later {
			if i == 3 && len(inv.later) > 4 {
				names = append(names, fmt.Sprintf("and %d more", len(inv.later)-3))
				break
			}
			names = append(names, fmt.Sprintf("%q (%s)", c.ID, l.prog.Scope(c.ID)))
		}
		// The cost: in the runbook where it is largest, the bytes of the more stable blocks rendered after b.
		bestBytes, bestTokens, where := 0, 0, ""
		for _, a := range l.arts {
			if a.Kind != blocks.Runbook {
				continue
			}
			after := false
			n, tokens := 0, 0
			for _, sp := range a.Spans {
				if sp.Block == b {
					after = true
					continue
				}
				if after && inv.seen[sp.Block.ID] && blocks.ScopeRank(sp.Scope) < r {
					n += sp.End - sp.Start
					tokens += l.tok.Count(a.Text[sp.Start:sp.End])
				}
			}
			if n > bestBytes {
				bestBytes, bestTokens, where = n, tokens, a.Path
			}
		}
		lost := "from being shared between sessions"
		if r == blocks.ScopeRank(blocks.ScopeTask) {
			lost = "out of the global prefix that every task shares"
		}
		cost := "no fixture renders it together with them, so the cost is not measured"
		if where != "" {
			cost = fmt.Sprintf("in %s this keeps %d bytes (~%d tokens, %s estimate) of stable text %s", where, bestBytes, bestTokens, l.tok.Encoding(), lost)
		}
		last := inv.later[len(inv.later)-1]
		free := "session-free (no session variables in its body or when)"
		if r == blocks.ScopeRank(blocks.ScopeTask) {
			free = "the same for every task (no tasks/except gate, no replaces, no .task)"
		}
		fix := fmt.Sprintf("move %q after %q in runbook.order, or make it %s", b.Slot, last.ID, free)
		what := fmt.Sprintf("block %q", b.ID)
		if b.Slot != b.ID {
			what = fmt.Sprintf("block %q (in the slot of %q)", b.ID, b.Slot)
		}
		l.add(LintScopeInversion, l.orderPos(b), b.ID, fix,
			"%s has %s scope but comes before more stable %s %s in %s %s: %s",
			what, scope, lintNoun(len(inv.later), "block", "blocks"), strings.Join(names, ", "),
			lintNoun(len(inv.tasks), "task", "tasks"), strings.Join(inv.tasks, ", "), cost)
	}
}

func lintNoun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// slotBlock returns the block that fills slot id in task's runbook by the static gates (ignoring when): a replacing
// block that admits the task, else the slot's own block, else nil.
func (l *linter) slotBlock(id, task string) *blocks.Block {
	b := l.p.ByID[id]
	if b == nil || b.Slot != id {
		return nil
	}
	for _, r := range b.ReplacedBy {
		if r.AdmitsTask(task) {
			return r
		}
	}
	if b.AdmitsTask(task) {
		return b
	}
	return nil
}

func (l *linter) orderIndex(b *blocks.Block) int {
	for i, id := range l.p.Runbook.Order {
		if id == b.Slot {
			return i
		}
	}
	return len(l.p.Runbook.Order)
}

// orderPos is where b's slot is named in runbook.order, the line to edit; else the block itself.
func (l *linter) orderPos(b *blocks.Block) blocks.Pos {
	if pos, ok := l.p.Locate(l.p.Runbook.Pos, strconv.Quote(b.Slot)); ok {
		return pos
	}
	return b.Pos
}

// ---------------------------------------------------------------------------------------------------------------
// pasted-constant and duplicate-sentence: one rule, one place.

func (l *linter) oneRuleOnePlace() {
	l.pastedConstants()
	l.duplicateSentences()
}

// pastedConstants reports a constant's text written out in a block body instead of emitted with {{const "name"}}.
// Whitespace runs compare equal, so a re-wrapped copy is found too.
func (l *linter) pastedConstants() {
	l.ran[LintPastedConstant] = true
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
		text, _ := squeezeSpace(strings.TrimSpace(ct.Value))
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
			norm, idx := seg.squeezed()
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
	if bd.b.Raw {
		fix = fmt.Sprintf(`raw bodies cannot call const: move the text into a block without raw = true that uses {{const %q}}`, ct.Name)
	}
	l.add(LintPastedConstant, bd.b.SourcePos(start), bd.b.ID, fix,
		"block %q pastes the text of constant %q (%s) instead of using it: one rule, one place; the copy will drift from the constant", bd.b.ID, ct.Name, ct.Pos)
}

// sentenceUse is one place a sentence is written.
type sentenceUse struct {
	owner string // "block \"x\"" or "constant \"y\""
	name  string // block id or constant name
	pos   blocks.Pos
	text  string
}

// duplicateSentences reports a sentence written literally in two blocks or constants (or a block and a constant).
// The first occurrence in source order is the original; each later one gets a finding.
func (l *linter) duplicateSentences() {
	l.ran[LintDuplicateSentence] = true
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
				record(sentenceUse{fmt.Sprintf("block %q", bd.b.ID), bd.b.ID, bd.b.SourcePos(start), seg.text[s.start:s.end]}, s.key)
			}
		}
	}
	for _, ct := range l.consts {
		for _, s := range splitSentences(ct.Value) {
			record(sentenceUse{fmt.Sprintf("constant %q", ct.Name), ct.Name, ct.SourcePos(s.start), ct.Value[s.start:s.end]}, s.key)
		}
	}
	for _, key := range keys {
		occ := byKey[key]
		owners := map[string]bool{}
		for _, o := range occ {
			owners[o.owner] = true
		}
		if len(owners) < 2 {
			continue
		}
		sort.SliceStable(occ, func(i, j int) bool { return lintPosLess(occ[i].pos, occ[j].pos) })
		first := occ[0]
		for _, o := range occ[1:] {
			if o.owner == first.owner {
				continue
			}
			fix := "define the sentence once as a constant in blocks/ and emit it with {{const \"name\"}} in both places"
			if strings.HasPrefix(first.owner, "constant") {
				fix = fmt.Sprintf("emit %s with {{const %q}} instead of repeating its sentence (split the constant if only this sentence is shared)", first.owner, first.name)
			}
			l.add(LintDuplicateSentence, o.pos, o.name, fix,
				"%s repeats a sentence of %s (%s): %q; one rule, one place: two copies drift apart", o.owner, first.owner, first.pos, lintClip(key, 80))
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

func lintPosLess(a, b blocks.Pos) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Col < b.Col
}

func lintClip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// squeezeSpace replaces every run of whitespace by one space. idx maps each byte of the result to the offset in s of the
// byte it came from.
func squeezeSpace(s string) (string, []int) {
	var b strings.Builder
	idx := make([]int, 0, len(s))
	space := false
	for i, r := range s {
		if unicode.IsSpace(r) {
			if !space {
				b.WriteByte(' ')
				idx = append(idx, i)
			}
			space = true
			continue
		}
		space = false
		n := b.Len()
		b.WriteRune(r)
		for k := n; k < b.Len(); k++ {
			idx = append(idx, i+k-n)
		}
	}
	return b.String(), idx
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
		key, _ := squeezeSpace(text[start:end])
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

func blankByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

// ---------------------------------------------------------------------------------------------------------------
// unused-constant and unused-variable

func (l *linter) unusedConstants() {
	for _, bd := range l.bodies {
		if bd.uses.DynamicConst {
			return // a computed const name may use any constant: nothing can be called unused
		}
	}
	l.ran[LintUnusedConstant] = true
	for _, ct := range l.consts {
		if len(l.usedBy[ct.Name]) > 0 {
			continue
		}
		l.add(LintUnusedConstant, ct.Pos, ct.Name,
			fmt.Sprintf("emit it with {{const %q}} where the rule applies, or delete it", ct.Name),
			"constant %q is never used: no block emits it with {{const %q}}", ct.Name, ct.Name)
	}
}

func (l *linter) unusedVariables() {
	l.ran[LintUnusedVariable] = true
	used := map[string]bool{}
	for _, bd := range l.bodies {
		for _, u := range bd.uses.Vars {
			used[u.Name] = true
		}
		if name, _ := bd.b.WhenVar(); name != "" {
			used[name] = true
		}
		if bd.uses.Data {
			// . hands every variable in the block's scope to the template.
			for name, v := range l.p.Vars {
				if v.Scope == blocks.ScopeSession || bd.b.Section == blocks.Turn {
					used[name] = true
				}
			}
		}
	}
	for _, name := range lintKeys(l.p.Vars) {
		if used[name] {
			continue
		}
		v := l.p.Vars[name]
		l.add(LintUnusedVariable, v.Pos, name,
			fmt.Sprintf("use it in a block ({{.%s}} or when = %q), or delete [vars.%s] and its values in fixtures/", name, name, name),
			"%s variable %q is declared but no block uses it: a value given for it changes no output", v.Scope, name)
	}
}

// ---------------------------------------------------------------------------------------------------------------
// invisible-char

var cfNames = map[rune]string{
	0x00AD: "SOFT HYPHEN",
	0x061C: "ARABIC LETTER MARK",
	0x180E: "MONGOLIAN VOWEL SEPARATOR",
	0x200B: "ZERO WIDTH SPACE",
	0x200C: "ZERO WIDTH NON-JOINER",
	0x200D: "ZERO WIDTH JOINER",
	0x200E: "LEFT-TO-RIGHT MARK",
	0x200F: "RIGHT-TO-LEFT MARK",
	0x202A: "LEFT-TO-RIGHT EMBEDDING",
	0x202B: "RIGHT-TO-LEFT EMBEDDING",
	0x202C: "POP DIRECTIONAL FORMATTING",
	0x202D: "LEFT-TO-RIGHT OVERRIDE",
	0x202E: "RIGHT-TO-LEFT OVERRIDE",
	0x2060: "WORD JOINER",
	0x2061: "FUNCTION APPLICATION",
	0x2062: "INVISIBLE TIMES",
	0x2063: "INVISIBLE SEPARATOR",
	0x2064: "INVISIBLE PLUS",
	0x2066: "LEFT-TO-RIGHT ISOLATE",
	0x2067: "RIGHT-TO-LEFT ISOLATE",
	0x2068: "FIRST STRONG ISOLATE",
	0x2069: "POP DIRECTIONAL ISOLATE",
	0xFEFF: "ZERO WIDTH NO-BREAK SPACE",
}

func cfName(r rune) string {
	if n, ok := cfNames[r]; ok {
		return n
	}
	if r >= 0xE0000 && r <= 0xE007F {
		return "TAG CHARACTER"
	}
	return "FORMAT CHARACTER"
}

func bidiControl(r rune) bool {
	return r == 0x061C || r >= 0x200E && r <= 0x200F || r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069
}

// invisibleChars reports Unicode format characters (category Cf: zero-width characters, bidi controls, tag
// characters) in every source file, and those written as escapes in block bodies and constants, since they reach
// the model while a reviewer sees nothing. A run of them is one finding.
func (l *linter) invisibleChars() {
	l.ran[LintInvisibleChar] = true
	seen := map[blocks.Pos]bool{}
	report := func(pos blocks.Pos, subject string, run []rune, escaped bool) {
		if seen[pos] {
			return
		}
		seen[pos] = true
		codes := make([]string, 0, len(run))
		bidi := false
		for i, r := range run {
			if i == 4 {
				codes = append(codes, fmt.Sprintf("and %d more", len(run)-4))
				break
			}
			codes = append(codes, fmt.Sprintf("U+%04X %s", r, cfName(r)))
		}
		for _, r := range run {
			bidi = bidi || bidiControl(r)
		}
		what := "invisible character"
		if len(run) > 1 {
			what = fmt.Sprintf("%d invisible characters", len(run))
		}
		how := ""
		if escaped {
			how = " (written as an escape)"
		}
		why := "it is invisible in review but reaches the model"
		if bidi {
			why = "bidi controls make text display in a different order than the model reads it"
		}
		l.add(LintInvisibleChar, pos, subject,
			"delete it; if it is deliberate (an emoji sequence, a script that needs joiners), silence it with [[lint.allow]] and say why",
			"%s %s%s: %s", what, strings.Join(codes, ", "), how, why)
	}
	for _, file := range lintKeys(l.p.Files) {
		if strings.HasPrefix(file, "fixtures/") {
			// Fixtures hold sample values, hostile ones on purpose: escaping removes format characters from
			// untrusted and background values, and that is what a fixture with them tests.
			continue
		}
		text := l.p.Files[file]
		formatRuns(text, func(start int, run []rune) {
			line, col := blocks.LineCol(text, start)
			report(blocks.Pos{File: file, Line: line, Col: col}, l.ownerAt(file, start), run, false)
		})
	}
	// Escapes such as \u200B are visible in the source but not in the output: find them in the decoded text.
	scan := func(text string, pos func(int) blocks.Pos, subject string) {
		formatRuns(text, func(start int, run []rune) { report(pos(start), subject, run, true) })
	}
	for _, bd := range l.bodies {
		scan(bd.b.Body, bd.b.SourcePos, bd.b.ID)
	}
	for _, c := range l.consts {
		scan(c.Value, c.SourcePos, c.Name)
	}
}

// ownerAt names the block body or constant value that holds byte off of file, or "".
func (l *linter) ownerAt(file string, off int) string {
	holds := func(f string, start, end int, ok bool) bool { return ok && f == file && start <= off && off < end }
	for _, bd := range l.bodies {
		if holds(bd.b.SourceRange()) {
			return bd.b.ID
		}
	}
	for _, c := range l.consts {
		if holds(c.SourceRange()) {
			return c.Name
		}
	}
	return ""
}

// ---------------------------------------------------------------------------------------------------------------
// short-prefix

// shortPrefix reports each task whose stable prefix (global and task blocks, the part every session of the task
// shares) is below the minimum that providers cache, measured on the runbook of the first fixture rendering it.
func (l *linter) shortPrefix() {
	first := map[string]*assemble.Artifact{}
	for _, a := range l.arts {
		if a.Kind == blocks.Runbook && first[a.Task] == nil {
			first[a.Task] = a
		}
	}
	if len(first) == 0 {
		return
	}
	l.ran[LintShortPrefix] = true
	for _, task := range l.p.Tasks {
		a := first[task]
		if a == nil {
			continue
		}
		end := a.PrefixEnd(blocks.ScopeTask)
		tokens := l.tok.Count(a.Text[:end])
		if tokens >= MinCacheTokens {
			continue
		}
		where := "is the whole of " + a.Path
		fix := "add the task's stable rules to the runbook, or accept that sessions of this task share no cache"
		if sp, ok := a.SpanAt(end); ok && end < len(a.Text) {
			line, col := blocks.LineCol(a.Text, end)
			where = fmt.Sprintf("ends at %d:%d of %s, where session block %q starts", line, col, a.Path, sp.Block.ID)
			fix = fmt.Sprintf("move stable text (rules, command tables, formats) before %q, or accept that sessions of this task share no cache", sp.Block.ID)
		}
		pos := l.taskPos(task)
		l.add(LintShortPrefix, pos, task, fix,
			"task %q shares only %d bytes (~%d tokens, %s estimate) between sessions: its stable prefix, the global and task blocks, %s; Anthropic and OpenAI cache no prefix under %d tokens, so no new session of this task starts from the cache",
			task, end, tokens, l.tok.Encoding(), where, MinCacheTokens)
	}
}

var manifestTasksKey = regexp.MustCompile(`(?m)^[ \t]*tasks[ \t]*=`)

// taskPos is where the manifest's tasks list names task.
func (l *linter) taskPos(task string) blocks.Pos {
	pos := blocks.Pos{File: blocks.ManifestFile}
	text := l.p.Files[blocks.ManifestFile]
	m := manifestTasksKey.FindStringIndex(text)
	if m == nil {
		return pos
	}
	line, col := blocks.LineCol(text, m[0])
	if p, ok := l.p.Locate(blocks.Pos{File: blocks.ManifestFile, Line: line, Col: col}, strconv.Quote(task)); ok {
		return p
	}
	return blocks.Pos{File: blocks.ManifestFile, Line: line, Col: col}
}

// ---------------------------------------------------------------------------------------------------------------
// [[lint.allow]]

// applyAllows drops the findings that an [[lint.allow]] entry matches and reports the entries that name an unknown
// lint or block (unknown-allow) or match nothing (unused-allow).
func (l *linter) applyAllows() []Finding {
	type allow struct {
		a    *blocks.Allow
		used bool
	}
	var valid []*allow
	var out []Finding
	problem := func(lint string, pos blocks.Pos, fix, format string, args ...any) {
		out = append(out, Finding{Lint: lint, Severity: lintRules[lint].severity, Pos: pos, Message: fmt.Sprintf(format, args...), Fix: fix})
	}
	ids := LintIDs()
	for _, a := range l.p.Allow {
		if a.Lint == "" {
			continue // reported by the loader
		}
		lintPos := a.Pos
		if p, ok := l.p.Locate(a.Pos, strconv.Quote(a.Lint)); ok {
			lintPos = p
		}
		r, known := lintRules[a.Lint]
		switch {
		case !known:
			problem(LintUnknownAllow, lintPos, "name one of: "+strings.Join(silenceable(), ", "),
				"[[lint.allow]] names unknown lint %q%s", a.Lint, blocks.DidYouMean(a.Lint, ids))
			continue
		case r.subjects == 0:
			problem(LintUnknownAllow, lintPos, "remove this [[lint.allow]]; those findings go away when the allows they name are fixed or removed",
				"[[lint.allow]] cannot silence %s: it reports the silences themselves", a.Lint)
			continue
		}
		if a.Block != "" {
			if cands, kind := l.subjects(r.subjects); !lintHas(cands, a.Block) {
				blockPos := a.Pos
				if p, ok := l.p.Locate(a.Pos, strconv.Quote(a.Block)); ok {
					blockPos = p
				}
				problem(LintUnknownAllow, blockPos, "name an existing "+kind+", or remove block to silence the lint everywhere",
					"[[lint.allow]] for %s names unknown %s %q%s", a.Lint, kind, a.Block, blocks.DidYouMean(a.Block, cands))
				continue
			}
		}
		valid = append(valid, &allow{a: a})
	}
	for _, f := range l.out {
		silenced := false
		for _, al := range valid {
			if al.a.Lint == f.Lint && (al.a.Block == "" || al.a.Block == f.Block) {
				al.used, silenced = true, true
			}
		}
		if !silenced {
			out = append(out, f)
		}
	}
	for _, al := range valid {
		if al.used || !l.ran[al.a.Lint] {
			continue
		}
		what := fmt.Sprintf("%q", al.a.Lint)
		if al.a.Block != "" {
			what += fmt.Sprintf(" for %q", al.a.Block)
		}
		problem(LintUnusedAllow, al.a.Pos, "remove this [[lint.allow]]",
			"[[lint.allow]] of %s silences nothing: the finding it was written for is gone", what)
	}
	return out
}

func silenceable() []string {
	var ids []string
	for _, id := range LintIDs() {
		if lintRules[id].subjects != 0 {
			ids = append(ids, id)
		}
	}
	return ids
}

// subjects returns the names an allow's block key may take for a lint with the given subject kinds, sorted, and how
// to call them.
func (l *linter) subjects(kinds int) ([]string, string) {
	var names, what []string
	if kinds&subjBlock != 0 {
		for _, b := range l.p.Blocks {
			names = append(names, b.ID)
		}
		what = append(what, "block")
	}
	if kinds&subjConst != 0 {
		names = append(names, lintKeys(l.p.Consts)...)
		what = append(what, "constant")
	}
	if kinds&subjVar != 0 {
		names = append(names, lintKeys(l.p.Vars)...)
		what = append(what, "variable")
	}
	if kinds&subjTask != 0 {
		names = append(names, l.p.Tasks...)
		what = append(what, "task")
	}
	sort.Strings(names)
	return names, strings.Join(what, " or ")
}

func lintHas(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
