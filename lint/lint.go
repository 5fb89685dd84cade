package lint

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/report"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/stats"
	"github.com/promptc/promptc/templates"
	"github.com/promptc/promptc/tokens"
)

// ID names a lint: one of the closed set below (docs/lint.md argues each one and its severity). IDs lists them;
// ParseID reads one from a user's text.
type ID string

// Lint ids (docs/lint.md argues each one and its severity).
const (
	VolatileText      ID = "volatile-text"
	ScopeInversion    ID = "scope-inversion"
	DuplicateSentence ID = "duplicate-sentence"
	PastedConstant    ID = "pasted-constant"
	UnusedConstant    ID = "unused-constant"
	UnusedVariable    ID = "unused-variable"
	InvisibleChar     ID = "invisible-char"
	ShortPrefix       ID = "short-prefix"
	UnknownAllow      ID = "unknown-allow"
	UnusedAllow       ID = "unused-allow"
	UnknownRef        ID = "unknown-ref"
	UncoveredTask     ID = "uncovered-task"
	// UntrustedInCodeSpan: an untrusted value printed between backticks, where its escapes show.
	UntrustedInCodeSpan ID = "untrusted-in-code-span"
)

// MinCacheTokens is the shortest prompt prefix Anthropic (cache_control breakpoints) and OpenAI (automatic prefix
// caching) will cache. A task prefix below it is never reused from one session to the next.
const MinCacheTokens = 1024

// minRuleRunes is the shortest text the one-rule-one-place lints compare: below it, equal text is more likely a
// common phrase ("Read the issue first.") than a copied rule.
const minRuleRunes = 40

// Finding is one lint result: a diagnostic (an error fails `promptc lint` with exit 1, a warning is reported and
// passes) with the lint's id. Its Subject is the offending text's exact range when it is in a source file, else the
// range of what the finding is about (a block, constant, variable, order entry or [[lint.allow]]); its Suggestion
// says what to do about it.
type Finding struct {
	source.Diagnostic
	Lint ID // such as "scope-inversion"
	// Block names what the finding is about, as an [[lint.allow]] entry's block key names it: a block id; for
	// unused-constant and findings inside a constant's text, the constant; for unused-variable, the variable; for
	// short-prefix, the task. Empty when the finding is about none of these.
	Block string
}

// String formats the finding as path:line:col: severity: summary (lint-id).
func (f Finding) String() string {
	return f.Range().String() + ": " + f.Severity.String() + ": " + f.Summary + " (" + string(f.Lint) + ")"
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
	r := f.Range()
	return json.Marshal(findingJSON{string(f.Lint), f.Severity.String(), r.Filename, r.Start.Line, r.Start.Column, f.Block, f.Summary, f.Suggestion})
}

// CountSeverities returns how many findings are errors and how many are warnings.
func CountSeverities(findings []Finding) (errs, warnings int) {
	for _, f := range findings {
		if f.Severity == source.SeverityError {
			errs++
		} else {
			warnings++
		}
	}
	return errs, warnings
}

// Summary returns "N errors, M warnings".
func Summary(findings []Finding) string {
	e, w := CountSeverities(findings)
	return plural.Count(e, "error") + ", " + plural.Count(w, "warning")
}

// WriteText writes findings as text: one `path:line:col: severity: message (lint-id)` line each, followed by an
// indented `fix: …` line, then the summary line. It writes nothing when there are no findings.
func WriteText(w io.Writer, findings []Finding) error {
	if len(findings) == 0 {
		return nil
	}
	var b strings.Builder
	for _, f := range findings {
		b.WriteString(f.String())
		b.WriteByte('\n')
		if f.Suggestion != "" {
			b.WriteString("    fix: ")
			b.WriteString(f.Suggestion)
			b.WriteByte('\n')
		}
	}
	b.WriteString(Summary(findings))
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON writes findings as an indented JSON array ([] when there are none).
func WriteJSON(w io.Writer, findings []Finding) error {
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

// Write writes findings in format f: text (WriteText) or json (WriteJSON); any other format is an error.
func Write(w io.Writer, f report.Format, findings []Finding) error {
	switch f {
	case report.Text:
		return WriteText(w, findings)
	case report.JSON:
		return WriteJSON(w, findings)
	}
	return fmt.Errorf("lint findings are written as text or json, not %s", f)
}

// subject kinds: what an [[lint.allow]] entry's block key may name for a lint.
const (
	subjBlock = 1 << iota
	subjConst
	subjVar
	subjTask
)

type lintRule struct {
	severity source.Severity
	subjects int // 0: the lint cannot be silenced
}

var lintRules = map[ID]lintRule{
	VolatileText:      {source.SeverityWarning, subjBlock | subjConst},
	ScopeInversion:    {source.SeverityWarning, subjBlock},
	DuplicateSentence: {source.SeverityWarning, subjBlock | subjConst},
	PastedConstant:    {source.SeverityError, subjBlock},
	UnusedConstant:    {source.SeverityWarning, subjConst},
	UnusedVariable:    {source.SeverityWarning, subjVar},
	InvisibleChar:     {source.SeverityError, subjBlock | subjConst},
	ShortPrefix:       {source.SeverityWarning, subjTask},
	UnknownAllow:      {source.SeverityError, 0},
	UnusedAllow:       {source.SeverityWarning, 0},
	UnknownRef:        {source.SeverityError, subjBlock},
	// A fixture is the fix, and a silenced task would be exactly the unguarded task the lint exists to prevent.
	UncoveredTask:       {source.SeverityError, 0},
	UntrustedInCodeSpan: {source.SeverityWarning, subjBlock},
}

// IDs returns every lint id, sorted.
func IDs() []ID {
	ids := make([]ID, 0, len(lintRules))
	for id := range lintRules {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

// Run runs the stability lints (docs/lint.md) over a compiled program and the artifacts it built (as Program.Build
// returns them), counting tokens with tok (nil: an o200k_base counter). Findings that a [[lint.allow]] entry of the
// manifest matches are dropped; an entry that matches nothing is itself reported (unused-allow). The result is sorted
// by position, then lint id, then message, and depends on the inputs alone. The lints that measure one runbook per
// task (short-prefix) sample each task's first fixture by name, and say so.
func Run(prog *assemble.Program, arts []*assemble.Artifact, tok *tokens.Counter) []Finding {
	out, _ := RunFixture(prog, arts, tok, "")
	return out
}

// RunFixture is Run with the lints that measure one runbook per task (short-prefix) sampling the named fixture
// ("" for each task's first fixture by name); a task the fixture does not render is not measured. It fails only
// when the project has no fixture of that name.
func RunFixture(prog *assemble.Program, arts []*assemble.Artifact, tok *tokens.Counter, fixture string) ([]Finding, error) {
	if err := stats.CheckSample(prog.Project, fixture); err != nil {
		return nil, err
	}
	if tok == nil {
		tok = tokens.New(tokens.O200k)
	}
	l := newLinter(prog, arts, tok)
	l.sample = fixture
	// The lints run in two halves of about equal cost, one on another goroutine: the one-rule-one-place lints,
	// short-prefix (which alone touch pasted and the squeezed literal segments; the token counter is safe for
	// concurrent use) and volatile-text (which only reads the literal segments), and the rest: scope-inversion, the
	// costliest alone, with the cheap ones. Each half has its own findings and its own record of what ran, merged after;
	// the findings are sorted before they are returned, so the order they were found in does not show.
	other := l.half()
	var wg sync.WaitGroup
	wg.Go(func() {
		other.oneRuleOnePlace()
		other.shortPrefix()
		other.volatileText()
	})
	l.scopeInversion()
	l.unusedConstants()
	l.unusedVariables()
	l.invisibleChars()
	l.unknownRefs()
	l.uncoveredTasks()
	l.untrustedInCodeSpans()
	wg.Wait()
	l.out = append(l.out, other.out...)
	for id := range other.ran {
		l.ran[id] = true
	}
	return sortFindings(l.applyAllows()), nil
}

// half returns a linter sharing l's project, bodies and indexes, with findings and a record of the lints run of
// its own, for lints run beside l's on another goroutine (see RunFixture for which may).
func (l *linter) half() *linter {
	h := *l
	h.out, h.ran = nil, map[ID]bool{}
	return &h
}

// Errors runs only the error-level lints, which need no token counts: the ones promptc check fails on. It stays
// cheap enough for a pre-commit hook on every commit.
func Errors(prog *assemble.Program, arts []*assemble.Artifact) []Finding {
	tok := tokens.New(tokens.O200k)
	l := newLinter(prog, arts, tok)
	l.pastedConstants()
	l.invisibleChars()
	l.unknownRefs()
	l.uncoveredTasks()
	var out []Finding
	for _, f := range l.applyAllows() {
		if f.Severity == source.SeverityError {
			out = append(out, f)
		}
	}
	return sortFindings(out)
}

// unknownRefs reports refs to ids no block has. The compiler checks a ref only when it runs (docs/reference.md#functions), so a typo in a
// branch no fixture takes would otherwise surface in production.
func (l *linter) unknownRefs() {
	l.ran[UnknownRef] = true
	ids := lintKeys(l.p.ByID)
	for _, bd := range l.bodies {
		for _, u := range bd.uses.Refs {
			if _, ok := l.p.ByID[u.Name]; !ok {
				l.add(UnknownRef, bd.b.SourceRange(u.Off, u.End), bd.b.ID, "name an existing block id"+suggest.DidYouMean(u.Name, ids),
					"block %q refers to unknown block %q: the ref fails whenever its branch runs", bd.b.ID, u.Name)
			}
		}
	}
}

// formatRuns calls fn for each run of format characters (Unicode Cf: zero-width, bidi controls) in text, with the
// byte offset where it starts.
func formatRuns(text string, fn func(start, end int, run []rune)) {
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
			fn(start, i, run)
		}
	}
}

func sortFindings(out []Finding) []Finding {
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if c := a.Range().Compare(b.Range()); c != 0 {
			return c < 0
		}
		if a.Lint != b.Lint {
			return a.Lint < b.Lint
		}
		return a.Summary < b.Summary
	})
	return out
}

type linter struct {
	prog   *assemble.Program
	p      *blocks.Project
	arts   []*assemble.Artifact
	tok    *tokens.Counter
	sample string                 // the fixture short-prefix measures, "" for each task's first
	bodies []*lintBody            // one per block, in project order
	byID   map[string]*lintBody   // by block id
	consts []*blocks.Const        // by name
	ran    map[ID]bool            // lints that could run (so a silence of one that could not is not called unused)
	out    []Finding              // before silencing
	pasted map[*lintBody][][2]int // body ranges reported as pasted constants
	usedBy map[string][]string    // constant name → ids of the blocks using it
	// slotIndex holds the runbook's slots by the id of their own block; built on first use.
	slotIndex map[string]*assemble.Slot
	// orderIndex holds the position of each id in runbook.order; built on first use.
	orderIndex map[string]int
	// owners indexes block bodies and constant values by file, for ownerAt; built on first use.
	owners map[string][]owner
	// subjectLists caches subjects by kinds.
	subjectLists map[int]*subjectList
}

// lintBody is a block's body with what the lints need: its uses and its literal text.
type lintBody struct {
	b    *blocks.Block
	uses templates.Uses
	lits []litSegment // the literal text: everything outside template actions
}

// litSegment is a piece of literal text at byte offset off of a body or constant value. Segments are read by lints
// running on two goroutines at once (RunFixture): nothing may write one after newLinter.
type litSegment struct {
	off  int
	text string
}

func newLinter(prog *assemble.Program, arts []*assemble.Artifact, tok *tokens.Counter) *linter {
	p := prog.Project
	l := &linter{prog: prog, p: p, arts: arts, tok: tok, byID: map[string]*lintBody{}, ran: map[ID]bool{},
		pasted: map[*lintBody][][2]int{}, usedBy: map[string][]string{}}
	for _, b := range p.Blocks {
		bd := &lintBody{b: b}
		if body := prog.Body(b.ID); body != nil {
			bd.uses = body.Uses
			for _, lit := range body.Literals {
				bd.lits = append(bd.lits, litSegment{off: lit.Off, text: lit.Text})
			}
		}
		for _, u := range append(slices.Clip(bd.uses.Consts), bd.uses.Lookups...) {
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

func (l *linter) add(lint ID, at source.Range, subject, fix, format string, args ...any) {
	l.out = append(l.out, newFinding(lint, at, subject, fix, fmt.Sprintf(format, args...)))
}

// addFix adds a finding as add does, with extra (a UseConst, a MoveEntry) as its Extra: the fix as data.
func (l *linter) addFix(extra any, lint ID, at source.Range, subject, fix, format string, args ...any) {
	f := newFinding(lint, at, subject, fix, fmt.Sprintf(format, args...))
	f.Extra = extra
	l.out = append(l.out, f)
}

func newFinding(lint ID, at source.Range, subject, fix, summary string) Finding {
	return Finding{Diagnostic: source.Diagnostic{Severity: lintRules[lint].severity, Summary: summary, Suggestion: fix,
		Subject: at.Ptr()}, Lint: lint, Block: subject}
}
