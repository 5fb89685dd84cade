package lint

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/internal/hostile"
	"github.com/promptc/promptc/source"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/tokens"
)

var (
	ltTokOnce sync.Once
	ltTok     *tokens.Counter
)

// ltCounter returns one o200k counter shared by every test, so the vocabulary loads once.
func ltCounter(t testing.TB) *tokens.Counter {
	t.Helper()
	ltTokOnce.Do(func() {
		ltTok = tokens.New(tokens.O200k)
	})
	return ltTok
}

// ltCompile loads a project from files held in memory and builds its artifacts; it fails the test on diagnostics.
func ltCompile(t *testing.T, files map[string]string) (*assemble.Program, []*assemble.Artifact) {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, text := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(text)}
	}
	prog, diags := assemble.Load(fsys)
	if len(diags) > 0 {
		t.Fatalf("project does not compile:\n%s", diags)
	}
	arts, diags := prog.Build()
	if len(diags) > 0 {
		t.Fatalf("project does not build:\n%s", diags)
	}
	return prog, arts
}

// ltManifest returns a promptc.toml with tasks issue and chat, the given runbook order and extra text.
func ltManifest(order, extra string) string {
	return `name  = "acme"
tasks = ["issue", "chat"]

[runbook]
order = [` + order + `]

[vars.agent_name]
scope = "session"
type  = "string"

[vars.issue_id]
scope = "turn"
type  = "string"
` + extra
}

// ltBrief formats a finding as "file:line:col lint [block]" for table tests; messages are checked in their own tests.
func ltBrief(f Finding) string {
	s := f.Range().String() + " " + string(f.Lint)
	if f.Block != "" {
		s += " " + f.Block
	}
	return s
}

func TestLintTable(t *testing.T) {
	const useVars = `
[turn]
order = ["assignment"]
`
	const assignment = `
[[block]]
id   = "assignment"
body = "Work on {{.issue_id}} as {{.agent_name}}."
`
	tests := []struct {
		name  string
		files map[string]string
		only  []ID // compare only findings of these lints (every lint when empty)
		want  []string
	}{
		{
			name: "volatile-text in runbook block",
			files: map[string]string{
				"promptc.toml": ltManifest(`"intro"`, useVars),
				"blocks/a.toml": `[[block]]
id   = "intro"
body = "Released on 2024-05-01 at 10:30, build 1715000000, see 3f2a9c1e4b5d6a7f8e9d."
` + assignment,
			},
			only: []ID{VolatileText},
			want: []string{
				"blocks/a.toml:3:21 volatile-text intro",
				"blocks/a.toml:3:35 volatile-text intro",
				"blocks/a.toml:3:48 volatile-text intro",
				"blocks/a.toml:3:64 volatile-text intro",
			},
		},
		{
			name: "volatile-text: positions through escapes and lines",
			files: map[string]string{
				"promptc.toml": ltManifest(`"intro", "more"`, useVars),
				"blocks/a.toml": `[[block]]
id   = "intro"
body = "Tab\there, quote \" and today."

[[block]]
id   = "more"
body = """
First line.
Second line: as of 12 March 2025 {{.agent_name}} is currently on call."""
` + assignment,
			},
			only: []ID{VolatileText},
			want: []string{
				"blocks/a.toml:3:33 volatile-text intro",
				"blocks/a.toml:9:20 volatile-text more",
				"blocks/a.toml:9:53 volatile-text more",
			},
		},
		{
			name: "volatile-text in a template file and a constant",
			files: map[string]string{
				"promptc.toml":       ltManifest(`"intro"`, useVars),
				"templates/intro.md": "Line one.\n\nCall {{const \"ops\"}} tomorrow.\n",
				"blocks/a.toml": `[const]
ops = "the on-call of 2024-12-24"

[[block]]
id       = "intro"
template = "intro.md"
` + assignment,
			},
			only: []ID{VolatileText},
			want: []string{
				"blocks/a.toml:2:23 volatile-text ops",
				"templates/intro.md:3:22 volatile-text intro",
			},
		},
		{
			name: "volatile-text: none in turn blocks, paths, versions or code actions",
			files: map[string]string{
				"promptc.toml": ltManifest(`"intro"`, useVars),
				"blocks/a.toml": `[[block]]
id   = "intro"
body = "See main.go:12:30 and version 1.2.3; {{if .agent_name}}x{{end}}"

[[block]]
id   = "assignment"
body = "Today, 2024-05-01, work on {{.issue_id}}."
`,
			},
			only: []ID{VolatileText},
		},
		{
			name: "volatile-text silenced by an allow for its block",
			files: map[string]string{
				"promptc.toml": ltManifest(`"intro"`, useVars+`
[[lint.allow]]
lint   = "volatile-text"
block  = "intro"
reason = "the release date is part of the contract"
`),
				"blocks/a.toml": `[[block]]
id   = "intro"
body = "Released on 2024-05-01."
` + assignment,
			},
			only: []ID{VolatileText, UnusedAllow},
		},
		{
			name: "unused-allow",
			files: map[string]string{
				"promptc.toml": ltManifest(`"intro"`, useVars+`
[[lint.allow]]
lint   = "volatile-text"
reason = "dates were fine once"
`),
				"blocks/a.toml": `[[block]]
id   = "intro"
body = "Nothing volatile {{.agent_name}}."
` + assignment,
			},
			only: []ID{VolatileText, UnusedAllow},
			want: []string{"promptc.toml:18:1 unused-allow"},
		},
		{
			name: "scope-inversion: session block before a global one",
			files: map[string]string{
				"promptc.toml": ltManifest(`"who", "rules"`, useVars),
				"blocks/a.toml": `[[block]]
id   = "who"
body = "You are {{.agent_name}}."

[[block]]
id   = "rules"
body = "Never push to main."
` + assignment,
			},
			only: []ID{ScopeInversion},
			want: []string{"promptc.toml:5:10 scope-inversion who"},
		},
		{
			name: "scope-inversion: task block before a global one",
			files: map[string]string{
				"promptc.toml": ltManifest(`"issue-only", "rules", "who"`, useVars),
				"blocks/a.toml": `[[block]]
id    = "issue-only"
tasks = ["issue"]
body  = "Issues only."

[[block]]
id   = "rules"
body = "Never push to main."

[[block]]
id   = "who"
body = "You are {{.agent_name}}."
` + assignment,
			},
			only: []ID{ScopeInversion},
			want: []string{"promptc.toml:5:10 scope-inversion issue-only"},
		},
		{
			name: "scope-inversion: none from most to least stable",
			files: map[string]string{
				"promptc.toml": ltManifest(`"rules", "issue-only", "who"`, useVars),
				"blocks/a.toml": `[[block]]
id    = "issue-only"
tasks = ["issue"]
body  = "Issues only."

[[block]]
id   = "rules"
body = "Never push to main."

[[block]]
id   = "who"
body = "You are {{.agent_name}}."
` + assignment,
			},
			only: []ID{ScopeInversion},
		},
		{
			name: "scope-inversion silenced",
			files: map[string]string{
				"promptc.toml": ltManifest(`"who", "rules"`, useVars+`
[[lint.allow]]
lint   = "scope-inversion"
block  = "who"
reason = "the identity must come first"
`),
				"blocks/a.toml": `[[block]]
id   = "who"
body = "You are {{.agent_name}}."

[[block]]
id   = "rules"
body = "Never push to main."
` + assignment,
			},
			only: []ID{ScopeInversion, UnusedAllow},
		},
		{
			name: "duplicate-sentence in two blocks",
			files: map[string]string{
				"promptc.toml": ltManifest(`"a", "b"`, useVars),
				"blocks/a.toml": `[[block]]
id   = "a"
body = "Short one. Never merge a pull request that you opened yourself. Done."

[[block]]
id   = "b"
body = """
- Never merge a pull request
  that you opened yourself.
- Short one."""
` + assignment,
			},
			only: []ID{DuplicateSentence},
			want: []string{"blocks/a.toml:8:3 duplicate-sentence b"},
		},
		{
			name: "duplicate-sentence: none for short sentences, code spans, fences or one block",
			files: map[string]string{
				"promptc.toml": ltManifest(`"a", "b"`, useVars),
				"blocks/a.toml": "[[block]]\nid   = \"a\"\nraw  = true\nbody = '''\nRead the issue first. Then act.\n`tracker issue create --title <title> --body-file <file>`.\n```\nThis line is code and is repeated in another block.\n```\nThe same sentence twice within one single block is fine.\nThe same sentence twice within one single block is fine.\n'''\n\n" +
					"[[block]]\nid   = \"b\"\nbody = '''\nRead the issue first.\n`tracker issue create --title <title> --body-file <file>`.\n```\nThis line is code and is repeated in another block.\n```\n'''\n" + assignment,
			},
			only: []ID{DuplicateSentence},
		},
		{
			// A shared fragment (docs/decisions.md): one template file named by several blocks is written once;
			// a copy of its sentence elsewhere is reported once, at the template, not once per block.
			name: "duplicate-sentence: none for a template several blocks name",
			files: map[string]string{
				"promptc.toml": ltManifest(`"a", "b", "c"`, useVars),
				"blocks/a.toml": `[[block]]
id       = "a"
tasks    = ["issue"]
template = "frag.md"

[[block]]
id       = "b"
tasks    = ["chat"]
template = "frag.md"

[[block]]
id   = "c"
body = "Short one."
` + assignment,
				"templates/frag.md": "Never merge a pull request that you opened yourself.\n",
			},
			only: []ID{DuplicateSentence},
		},
		{
			name: "duplicate-sentence: a copy of a shared template's sentence, reported once",
			files: map[string]string{
				"promptc.toml": ltManifest(`"a", "b", "c"`, useVars),
				"blocks/a.toml": `[[block]]
id   = "a"
body = "Never merge a pull request that you opened yourself."

[[block]]
id       = "b"
tasks    = ["issue"]
template = "frag.md"

[[block]]
id       = "c"
tasks    = ["chat"]
template = "frag.md"
` + assignment,
				"templates/frag.md": "Never merge a pull request that you opened yourself.\n",
			},
			only: []ID{DuplicateSentence},
			want: []string{"templates/frag.md:1:1 duplicate-sentence b"},
		},
		{
			name: "duplicate-sentence between a constant and a block",
			files: map[string]string{
				"promptc.toml": ltManifest(`"a", "c"`, useVars),
				"blocks/a.toml": `[const]
rules = "Always run the full test suite before you push a branch. Keep commits small."

[[block]]
id   = "a"
body = "{{const \"rules\"}}"

[[block]]
id   = "c"
body = "First. Always run the full test suite before you push a branch."
` + assignment,
			},
			only: []ID{DuplicateSentence},
			want: []string{"blocks/a.toml:10:16 duplicate-sentence c"},
		},
		{
			name: "pasted-constant",
			files: map[string]string{
				"promptc.toml": ltManifest(`"a"`, useVars),
				"blocks/a.toml": `[const]
boundary = "Run only the commands listed in this runbook, and nothing else."

[[block]]
id   = "a"
body = """
Intro.
Run only the commands listed
in this runbook, and nothing else. {{const "boundary"}}"""
` + assignment,
			},
			only: []ID{PastedConstant, DuplicateSentence},
			want: []string{"blocks/a.toml:8:1 pasted-constant a"},
		},
		{
			name: "pasted-constant silenced; its sentence is not also a duplicate",
			files: map[string]string{
				"promptc.toml": ltManifest(`"a"`, useVars+`
[[lint.allow]]
lint   = "pasted-constant"
block  = "a"
reason = "kept verbatim for the legal team"
`),
				"blocks/a.toml": `[const]
boundary = "Run only the commands listed in this runbook, and nothing else."

[[block]]
id   = "a"
body = "Run only the commands listed in this runbook, and nothing else. {{const \"boundary\"}}"
` + assignment,
			},
			only: []ID{PastedConstant, DuplicateSentence, UnusedAllow},
		},
		{
			name: "unused constant and variable",
			files: map[string]string{
				"promptc.toml": ltManifest(`"a"`, useVars+`
[vars.spare]
scope = "session"
type  = "bool"

[vars.flag]
scope = "session"
type  = "bool"
`),
				"blocks/a.toml": `[const]
used   = "x"
unused = "y"

[[block]]
id   = "a"
when = "flag"
body = "{{const \"used\"}}"
` + assignment,
			},
			only: []ID{UnusedConstant, UnusedVariable},
			want: []string{
				"blocks/a.toml:3:1 unused-constant unused",
				"promptc.toml:18:1 unused-variable spare",
			},
		},
		{
			name: "unused: the whole data uses every variable in scope",
			files: map[string]string{
				"promptc.toml": ltManifest(`"a"`, useVars+`
[vars.spare]
scope = "session"
type  = "bool"
`),
				"blocks/a.toml": `[[block]]
id   = "a"
body = "{{json .}}"

[[block]]
id   = "assignment"
body = "{{.issue_id}}"
`,
			},
			only: []ID{UnusedConstant, UnusedVariable},
		},
		{
			name: "unused silenced by name",
			files: map[string]string{
				"promptc.toml": ltManifest(`"a"`, useVars+`
[vars.spare]
scope = "session"
type  = "bool"

[[lint.allow]]
lint   = "unused-variable"
block  = "spare"
reason = "the platform sends it; the next release uses it"
`),
				"blocks/a.toml": `[[block]]
id   = "a"
body = "Hi."
` + assignment,
			},
			only: []ID{UnusedVariable, UnusedAllow},
		},
		{
			// Fixtures hold sample values, hostile on purpose, and escaping strips format characters from them: not
			// a finding.
			name: "invisible-char in a body and an escape, not in a fixture",
			files: map[string]string{
				"promptc.toml":    ltManifest(`"a", "b"`, useVars),
				"blocks/a.toml":   "[[block]]\nid   = \"a\"\nbody = \"Never\u200b push \u202eto main.\"\n\n[[block]]\nid   = \"b\"\nbody = \"Hidden\\u2066 text.\"\n" + assignment,
				"fixtures/f.toml": "[session]\nagent_name = \"A\u200dB\"\n",
			},
			only: []ID{InvisibleChar},
			want: []string{
				"blocks/a.toml:3:14 invisible-char a",
				"blocks/a.toml:3:21 invisible-char a",
				"blocks/a.toml:7:15 invisible-char b",
			},
		},
		{
			name: "short-prefix: one per task",
			files: map[string]string{
				"promptc.toml": ltManifest(`"a", "who"`, useVars),
				"blocks/a.toml": `[[block]]
id   = "a"
body = "Never push to main."

[[block]]
id   = "who"
body = "You are {{.agent_name}}."
` + assignment,
			},
			only: []ID{ShortPrefix},
			want: []string{
				"promptc.toml:2:10 short-prefix issue",
				"promptc.toml:2:19 short-prefix chat",
			},
		},
		{
			name: "short-prefix: none over the minimum",
			files: map[string]string{
				"promptc.toml": ltManifest(`"a", "who"`, useVars),
				"blocks/a.toml": `[[block]]
id   = "a"
body = "` + ltLongText(1100) + `"

[[block]]
id   = "who"
body = "You are {{.agent_name}}."
` + assignment,
			},
			only: []ID{ShortPrefix},
		},
		{
			name: "short-prefix silenced for one task",
			files: map[string]string{
				"promptc.toml": ltManifest(`"a"`, useVars+`
[[lint.allow]]
lint   = "short-prefix"
block  = "chat"
reason = "chat sessions are short"
`),
				"blocks/a.toml": `[[block]]
id   = "a"
body = "Never push to main."
` + assignment,
			},
			only: []ID{ShortPrefix, UnusedAllow},
			want: []string{"promptc.toml:2:10 short-prefix issue"},
		},
		{
			name: "unknown-allow: lint, block, and a lint that cannot be silenced",
			files: map[string]string{
				"promptc.toml": ltManifest(`"a"`, useVars+`
[[lint.allow]]
lint   = "volatile-txt"
reason = "typo"

[[lint.allow]]
lint   = "volatile-text"
block  = "nope"
reason = "no such block"

[[lint.allow]]
lint   = "unused-allow"
reason = "cannot"

[[lint.allow]]
lint   = "unused-variable"
block  = "a"
reason = "a is a block, not a variable"
`),
				"blocks/a.toml": `[[block]]
id   = "a"
body = "Hello."
` + assignment,
			},
			only: []ID{UnknownAllow, UnusedAllow},
			want: []string{
				"promptc.toml:19:10 unknown-allow",
				"promptc.toml:24:10 unknown-allow",
				"promptc.toml:28:10 unknown-allow",
				"promptc.toml:33:10 unknown-allow",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prog, arts := ltCompile(t, tt.files)
			var got []string
			for _, f := range Run(prog, arts, ltCounter(t)) {
				if len(tt.only) == 0 || slices.Contains(tt.only, f.Lint) {
					got = append(got, ltBrief(f))
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// ltLongText returns n distinct-enough words, one token each in o200k.
func ltLongText(n int) string {
	words := []string{"alpha", "beta", "gamma", "delta", "omega", "river", "stone", "cloud"}
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[i%len(words)])
	}
	return b.String()
}

// TestLintMessages pins the full text of one finding of each lint: what it says and the fix it names.
func TestLintMessages(t *testing.T) {
	files := map[string]string{
		"promptc.toml": ltManifest(`"who", "rules", "more"`, `
[turn]
order = ["assignment"]

[vars.spare]
scope = "turn"
type  = "string"

[[lint.allow]]
lint   = "duplicate-sentence"
reason = "stale"
`),
		"blocks/a.toml": `[const]
boundary = "Run only the commands listed in this runbook, and nothing else."

[[block]]
id   = "who"
body = "You are {{.agent_name}}, on call today."

[[block]]
id   = "rules"
body = "Run only the commands listed in this runbook, and nothing else."

[[block]]
id   = "more"
body = "More\u200b."

[[block]]
id   = "assignment"
body = "Work on {{.issue_id}}."
`,
	}
	prog, arts := ltCompile(t, files)
	tok := ltCounter(t)
	var b strings.Builder
	if err := WriteText(&b, Run(prog, arts, tok)); err != nil {
		t.Fatal(err)
	}
	// The inversion's cost: the spans of "rules" and "more" after "who" in issue/default.runbook.md.
	rules, more := "\n\nRun only the commands listed in this runbook, and nothing else.", "\n\nMore\u200b.\n"
	want := fmt.Sprintf(`blocks/a.toml:2:1: warning: constant "boundary" is never used: no block emits it with {{const "boundary"}} (unused-constant)
    fix: emit it with {{const "boundary"}} where the rule applies, or delete it
blocks/a.toml:6:42: warning: runbook block "who" (session scope) contains a word relative to the present, "today": the cached runbook is sent unchanged on later days, when it no longer holds (volatile-text)
    fix: state it without reference to the present, or move it into a turn block that renders the actual time
blocks/a.toml:10:9: error: block "rules" pastes the text of constant "boundary" (blocks/a.toml:2:1) instead of using it: one rule, one place; the copy will drift from the constant (pasted-constant)
    fix: replace the text with {{const "boundary"}}
blocks/a.toml:14:13: error: invisible character U+200B ZERO WIDTH SPACE (written as an escape): it is invisible in review but reaches the model (invisible-char)
    fix: delete it; if it is deliberate (an emoji sequence, a script that needs joiners), silence it with [[lint.allow]] and say why
promptc.toml:2:10: warning: task "issue" shares only 0 bytes (~0 tokens, o200k_base estimate) between sessions: its stable prefix, the global and task blocks, ends at 1:1 of issue/default.runbook.md (fixture "default", the only one rendering the task), where session block "who" starts; Anthropic and OpenAI cache no prefix under 1024 tokens, so no new session of this task starts from the cache (short-prefix)
    fix: move stable text (rules, command tables, formats) before "who", or accept that sessions of this task share no cache
promptc.toml:2:19: warning: task "chat" shares only 0 bytes (~0 tokens, o200k_base estimate) between sessions: its stable prefix, the global and task blocks, ends at 1:1 of chat/default.runbook.md (fixture "default", the only one rendering the task), where session block "who" starts; Anthropic and OpenAI cache no prefix under 1024 tokens, so no new session of this task starts from the cache (short-prefix)
    fix: move stable text (rules, command tables, formats) before "who", or accept that sessions of this task share no cache
promptc.toml:5:10: warning: block "who" has session scope but comes before more stable blocks "rules" (global), "more" (global) in tasks issue, chat: over 2 runbooks it keeps up to %d bytes (~%d tokens, o200k_base estimate) of stable text from being shared between sessions, in issue/default.runbook.md (scope-inversion)
    fix: move "who" after "more" in runbook.order (promptc.toml:5:26), or make it session-free (no session variables in its body or when)
promptc.toml:18:1: warning: turn variable "spare" is declared but no block uses it: a value given for it changes no output (unused-variable)
    fix: use it in a block ({{.spare}} or when = "spare"), or delete [vars.spare] and its values in fixtures/
promptc.toml:22:1: warning: [[lint.allow]] of "duplicate-sentence" silences nothing: the finding it was written for is gone (unused-allow)
    fix: remove this [[lint.allow]]
2 errors, 7 warnings
`, len(rules)+len(more), tok.Count(rules)+tok.Count(more))
	if got := b.String(); got != want {
		t.Errorf("lint output:\n%s\nwant:\n%s", got, want)
	}
}

func TestLintJSON(t *testing.T) {
	f := Finding{Lint: PastedConstant, Block: "rules", Diagnostic: source.Diagnostic{Severity: source.SeverityError,
		Summary: "m", Suggestion: "f", Subject: &source.Range{Filename: "blocks/a.toml", Start: source.Pos{Line: 3, Column: 9}}}}
	var b strings.Builder
	if err := WriteJSON(&b, []Finding{f}); err != nil {
		t.Fatal(err)
	}
	want := `[
  {
    "lint": "pasted-constant",
    "severity": "error",
    "file": "blocks/a.toml",
    "line": 3,
    "col": 9,
    "block": "rules",
    "message": "m",
    "fix": "f"
  }
]
`
	if b.String() != want {
		t.Errorf("JSON:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	if err := WriteJSON(&b, nil); err != nil || b.String() != "[]\n" {
		t.Errorf("no findings: %q, %v; want []", b.String(), err)
	}
	var back []map[string]any
	if err := json.Unmarshal([]byte(want), &back); err != nil || len(back) != 1 {
		t.Errorf("round trip: %v", err)
	}
}

// TestLintDeterministic lints the same project twice and expects the same findings in the same order.
func TestLintDeterministic(t *testing.T) {
	prog, arts := ltCompile(t, map[string]string{
		"promptc.toml": ltManifest(`"who", "a", "b"`, ""),
		"blocks/a.toml": `[[block]]
id   = "who"
body = "You are {{.agent_name}} today, 2024-01-01."

[[block]]
id   = "a"
body = "Never merge a pull request that you opened yourself."

[[block]]
id   = "b"
body = "Never merge a pull request that you opened yourself."
`,
	})
	first := Run(prog, arts, ltCounter(t))
	for i := 0; i < 5; i++ {
		again := Run(prog, arts, ltCounter(t))
		if fmt.Sprint(again) != fmt.Sprint(first) {
			t.Fatalf("run %d differs:\n%v\nwant:\n%v", i, again, first)
		}
	}
}

// TestLintTracker lints the reference project: it must have no error-level finding.
func TestLintTracker(t *testing.T) {
	prog, diags := assemble.LoadDir("../examples/tracker")
	if len(diags) > 0 {
		t.Fatalf("examples/tracker does not compile:\n%s", diags)
	}
	arts, diags := prog.Build()
	if len(diags) > 0 {
		t.Fatalf("examples/tracker does not build:\n%s", diags)
	}
	for _, f := range Run(prog, arts, ltCounter(t)) {
		if f.Severity == source.SeverityError {
			t.Errorf("%s", f)
		} else {
			t.Logf("%s", f)
		}
	}
}

func TestSplitSentences(t *testing.T) {
	text := "Intro sentence that is long enough to count here. Short.\n- A list item that is also long enough to count.\n" +
		"| `cmd --flag` | A table cell sentence that is long enough. |\n```\ncode line that is long enough to be a sentence.\n```\n" +
		"Wrapped sentence that runs\nover two lines and is long enough."
	var got []string
	for _, s := range splitSentences(text) {
		got = append(got, s.key)
	}
	want := []string{
		"Intro sentence that is long enough to count here.",
		"A list item that is also long enough to count.",
		"A table cell sentence that is long enough.",
		"Wrapped sentence that runs over two lines and is long enough.",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sentences:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestSplitSentencesAbbreviations keeps abbreviations and version numbers inside their sentence
// (docs/lint.md#duplicate-sentence-warning: a sentence never ends after an abbreviation such as "e.g.").
func TestSplitSentencesAbbreviations(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{
			name: "e.g. in parentheses",
			text: "Prefer small commits (e.g. one logical change each) and write their messages in English.",
			want: []string{"Prefer small commits (e.g. one logical change each) and write their messages in English."},
		},
		{
			name: "i.e., vs., cf. and a title",
			text: "Use the staging cluster, i.e. the one named stg, not prod vs. dev as Dr. Smith wrote, cf. the runbook. " +
				"Then ask the on-call engineer for approval before you deploy.",
			want: []string{
				"Use the staging cluster, i.e. the one named stg, not prod vs. dev as Dr. Smith wrote, cf. the runbook.",
				"Then ask the on-call engineer for approval before you deploy.",
			},
		},
		{
			name: "e.g. at the end of a line",
			text: "Name the tool that failed, e.g.\ngit or make, and quote its last line of output.",
			want: []string{"Name the tool that failed, e.g. git or make, and quote its last line of output."},
		},
		{
			name: "etc. inside and at the end of a sentence",
			text: "Clean up caches, build outputs, logs etc. before you run the full test suite. " +
				"Report lint errors, vet warnings, flaky tests etc. Then open the pull request and ask for a review.",
			want: []string{
				"Clean up caches, build outputs, logs etc. before you run the full test suite.",
				"Report lint errors, vet warnings, flaky tests etc.",
				"Then open the pull request and ask for a review.",
			},
		},
		{
			name: "version numbers",
			text: "Require Go 1.22 or later and pin golangci-lint to v1.59.1 in the CI job. Use Python 3.12 for every script, never Python 2.7.",
			want: []string{
				"Require Go 1.22 or later and pin golangci-lint to v1.59.1 in the CI job.",
				"Use Python 3.12 for every script, never Python 2.7.",
			},
		},
		{
			name: "no. before a number, not at a sentence end",
			text: "See ticket No. 42 for the history of this decision and its trade-offs. Never answer no. Always explain why you refuse.",
			want: []string{
				"See ticket No. 42 for the history of this decision and its trade-offs.",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, s := range splitSentences(tt.text) {
				got = append(got, s.key)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("sentences:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestFindVolatile(t *testing.T) {
	tests := []struct {
		text string
		want string // matches, "|"-separated
	}{
		{"id 123e4567-e89b-12d3-a456-426614174000 here", "123e4567-e89b-12d3-a456-426614174000"},
		{"on 2024-05-01T10:30:00Z sharp", "2024-05-01T10:30:00Z"},
		{"1/5/2024, 01.05.2024 and 1/5/24", "1/5/2024|01.05.2024|1/5/24"},
		{"5 May 2024, May 5, 2024, March 2024", "5 May 2024|May 5, 2024|March 2024"},
		{"at 1715000000 or 1715000000123", "1715000000|1715000000123"},
		{"commit 3f2a9c1e4b5d6a7f8e9d", "3f2a9c1e4b5d6a7f8e9d"},
		{"at 10:30, 10:30:15, 10am or 3 p.m.", "10:30|10:30:15|10am|3 p.m."},
		{"Today, currently, right now, as of today, this week", "Today|currently|right now|as of today|this week"},
		// Not volatile: paths with line numbers, versions, ratios, durations, "now" alone, short hex.
		{"main.go:12:30, v1.2.3, 1:2:3, 300 words, from now on, you may go, 20 lines, abc123", ""},
	}
	for _, tt := range tests {
		var got []string
		for _, m := range findVolatile(tt.text) {
			got = append(got, tt.text[m.start:m.end])
		}
		if strings.Join(got, "|") != tt.want {
			t.Errorf("findVolatile(%q) = %q, want %q", tt.text, strings.Join(got, "|"), tt.want)
		}
	}
}

// FuzzSplitSentences: splitting never panics and every sentence lies inside the text.
func FuzzSplitSentences(f *testing.F) {
	for _, c := range hostile.Small() {
		f.Add(c.Value)
	}
	f.Add("Intro sentence that is long enough to count here. Short.\n- A list item that is also long enough to count.\n")
	f.Add("| `cmd` | A table cell sentence that is long enough. |\n```\ncode\n```\nWrapped\nline.")
	f.Fuzz(func(t *testing.T, text string) {
		for _, s := range splitSentences(text) {
			if s.start < 0 || s.end > len(text) || s.start >= s.end {
				t.Fatalf("sentence [%d, %d) outside text of %d bytes", s.start, s.end, len(text))
			}
		}
	})
}

// FuzzLint: linting any project that compiles never panics, whatever its block body and constant hold.
func FuzzLint(f *testing.F) {
	for _, c := range hostile.Small() {
		f.Add(c.Value, c.Value)
	}
	f.Add("Released on 2024-05-01 {{.agent_name}}.", "Run only the commands listed in this runbook, and nothing else.")
	f.Add("Never\u200b push. {{const \"c\"}}", "x")
	f.Add("{{if .agent_name}}Today{{else}}2024-01-01{{end}}\n- Run only the commands listed in this runbook, and nothing else.", "today")
	tok := ltCounter(f)
	f.Fuzz(func(t *testing.T, body, value string) {
		fsys := fstest.MapFS{
			"promptc.toml": {Data: []byte(ltManifest(`"a", "b"`, ""))},
			"blocks/a.toml": {Data: []byte("[const]\nc = " + strconv.Quote(value) + "\n\n[[block]]\nid = \"a\"\nbody = " +
				strconv.Quote(body) + "\n\n[[block]]\nid = \"b\"\nbody = '''\n" + strings.ReplaceAll(body, "'''", "") + "'''\n")},
		}
		prog, diags := assemble.Load(fsys)
		if len(diags) > 0 {
			return
		}
		arts, diags := prog.Build()
		if len(diags) > 0 {
			return
		}
		Run(prog, arts, tok)
	})
}

// ltPrefixText returns a one-line text that, followed by the runbook separator, counts exactly n tokens: the stable
// prefix of a runbook whose first block is this text and whose second is a session block. It repeats a sentence and
// trims it to the shortest length that reaches n tokens, found by bisection with the counter the lint uses.
func ltPrefixText(t *testing.T, tok *tokens.Counter, n int) string {
	t.Helper()
	long := strings.TrimSpace(strings.Repeat("Run the tests before you push, and read the whole diff twice. ", n/4))
	count := func(k int) int { return tok.Count(strings.TrimRight(long[:k], " ") + "\n\n") }
	lo, hi := 0, len(long) // count(lo) < n <= count(hi)
	if count(hi) < n {
		t.Fatalf("%d bytes count %d tokens, fewer than %d", hi, count(hi), n)
	}
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; count(mid) < n {
			lo = mid
		} else {
			hi = mid
		}
	}
	if got := count(hi); got != n {
		t.Fatalf("no prefix of the text counts %d tokens: %d bytes count %d", n, hi, got)
	}
	return strings.TrimRight(long[:hi], " ")
}

// TestShortPrefixThreshold: the short-prefix lint reports a stable prefix below MinCacheTokens and none at it. The
// prefix is the first block's text and the separator before the session block; its count is checked on the built
// runbook with the counter the lint uses, so the case tests the boundary and not the construction.
func TestShortPrefixThreshold(t *testing.T) {
	tok := ltCounter(t)
	const manifest = `name  = "acme"
tasks = ["issue"]

[runbook]
order = ["stable", "who"]

[vars.agent_name]
scope = "session"
type  = "string"
`
	tests := []struct {
		tokens int
		want   string // the finding, with %d for the prefix's bytes
	}{
		{
			tokens: MinCacheTokens - 1,
			want: `promptc.toml:2:10: warning: task "issue" shares only %d bytes (~1023 tokens, o200k_base estimate) between sessions: its stable prefix, the global and task blocks, ends at 3:1 of issue/default.runbook.md (fixture "default", the only one rendering the task), where session block "who" starts; Anthropic and OpenAI cache no prefix under 1024 tokens, so no new session of this task starts from the cache (short-prefix)
    fix: move stable text (rules, command tables, formats) before "who", or accept that sessions of this task share no cache
0 errors, 1 warning
`,
		},
		{tokens: MinCacheTokens, want: ""},
		{tokens: MinCacheTokens + 1, want: ""},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.tokens), func(t *testing.T) {
			text := ltPrefixText(t, tok, tt.tokens)
			prog, arts := ltCompile(t, map[string]string{
				"promptc.toml": manifest,
				"blocks/a.toml": `[[block]]
id   = "stable"
body = "` + text + `"

[[block]]
id   = "who"
body = "You are {{.agent_name}}."
`,
			})
			rb := arts[0]
			end := rb.PrefixEnd(blocks.ScopeTask)
			if got := tok.Count(rb.Text[:end]); got != tt.tokens {
				t.Fatalf("%s: the stable prefix counts %d tokens, want %d", rb.Path, got, tt.tokens)
			}
			var only []Finding
			for _, f := range Run(prog, arts, tok) {
				if f.Lint == ShortPrefix {
					only = append(only, f)
				}
			}
			var b strings.Builder
			if err := WriteText(&b, only); err != nil {
				t.Fatal(err)
			}
			want := tt.want
			if want != "" {
				want = fmt.Sprintf(want, end)
			}
			if got := b.String(); got != want {
				t.Errorf("short-prefix findings:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestUnusedLookupTable: a lookup table read with lookup is used; one read by nothing is reported as a table, with
// the fix that fits it.
func TestUnusedLookupTable(t *testing.T) {
	files := map[string]string{
		"promptc.toml":  "name = \"a\"\ntasks = [\"t\"]\n[runbook]\norder = [\"b\"]\n[vars.k]\nscope = \"session\"\ntype = \"string\"\n",
		"blocks/a.toml": "[const.used]\nx = \"X\"\n\n[const.unused]\ny = \"Y\"\n\n[[block]]\nid = \"b\"\nbody = '{{lookup \"used\" .k .k}}'\n",
	}
	prog, arts := ltCompile(t, files)
	var got []string
	for _, f := range Run(prog, arts, ltCounter(t)) {
		if f.Lint == UnusedConstant {
			got = append(got, f.String()+" / "+f.Suggestion)
		}
	}
	want := `blocks/a.toml:4:1: warning: lookup table "unused" is never used: no block reads it with {{lookup "unused" …}} (unused-constant) / read it with {{lookup "unused" KEY}} where it applies, or delete it`
	if strings.Join(got, "\n") != want {
		t.Errorf("unused-constant findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}

// TestScopeInversionOneFindingPerMove: one finding per edit of runbook.order, covering every task it fixes
// (docs/lint.md#scope-inversion-warning; a ported project once printed 22 warnings that all had one fix). Five task
// blocks and a session block before a global one are one move of the global block, not six findings.
func TestScopeInversionOneFindingPerMove(t *testing.T) {
	var order, body strings.Builder
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&order, "%q, ", fmt.Sprintf("t%d", i))
		fmt.Fprintf(&body, "[[block]]\nid   = \"t%d\"\nbody = \"Step %d of the {{.task}} task.\"\n\n", i, i)
	}
	prog, arts := ltCompile(t, map[string]string{
		"promptc.toml": ltManifest(order.String()+`"who", "footer"`, ""),
		"blocks/a.toml": body.String() + `[[block]]
id   = "who"
body = "You are {{.agent_name}}."

[[block]]
id   = "footer"
body = "Never push to main."
`,
	})
	var got []string
	for _, f := range Run(prog, arts, ltCounter(t)) {
		if f.Lint == ScopeInversion {
			got = append(got, f.String()+"\n    fix: "+f.Suggestion)
		}
	}
	footer := "\n\nNever push to main.\n"
	want := fmt.Sprintf(`promptc.toml:5:47: warning: block "footer" has global scope but comes after less stable blocks "t1" (task), "t2" (task), "t3" (task), and 3 more in tasks issue, chat: over 2 runbooks it keeps up to %d bytes (~%d tokens, o200k_base estimate) of its own stable text from being shared between sessions, in issue/default.runbook.md (scope-inversion)
    fix: move "footer" before "t1" in runbook.order (promptc.toml:5:10)`, len(footer), ltCounter(t).Count(footer))
	if strings.Join(got, "\n") != want {
		t.Errorf("scope-inversion findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}

// TestTaskMoves pins the grouping rule's input: in one task's order, the fewest blocks to move (ties keep the
// more stable blocks in place) and the gaps of runbook.order each may go to.
func TestTaskMoves(t *testing.T) {
	g, k, s := blocks.ScopeGlobal, blocks.ScopeTask, blocks.ScopeSession
	tests := []struct {
		name  string
		ranks []blocks.Scope // one block per slot, in order
		want  string         // slot:down|up:lo-hi, the moved blocks in order
	}{
		{"in order", []blocks.Scope{g, g, k, s}, ""},
		{"session first moves down past the globals", []blocks.Scope{s, g, g}, "0:down:3-3"},
		{"a tie keeps the global in place", []blocks.Scope{k, g}, "0:down:2-2"},
		{"one global after many task blocks moves up", []blocks.Scope{k, k, k, s, g}, "4:up:0-0"},
		{"two blocks down to one place", []blocks.Scope{g, s, k, g, s}, "1:down:4-5 2:down:4-4"},
		{"a task block may land anywhere before the first session", []blocks.Scope{k, g, g, s}, "0:down:3-3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var seq []invItem
			for i, r := range tt.ranks {
				seq = append(seq, invItem{b: &blocks.Block{ID: strconv.Itoa(i)}, slot: i, rank: r})
			}
			var got []string
			for _, m := range taskMoves(seq, len(seq)) {
				dir := "up"
				if m.down {
					dir = "down"
				}
				got = append(got, fmt.Sprintf("%d:%s:%d-%d", m.item.slot, dir, m.lo, m.hi))
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("moves = %q, want %q", strings.Join(got, " "), tt.want)
			}
		})
	}
}

// TestUncoveredTask: a task no fixture's tasks admit is an uncovered-task error at its name in the manifest, from
// Run and from Errors (so check fails on it); a "*" fixture, or no fixture at all (the implicit default),
// covers every task.
func TestUncoveredTask(t *testing.T) {
	block := "[[block]]\nid = \"intro\"\nbody = \"Rules.\"\n"
	tests := []struct {
		name     string
		fixtures map[string]string
		want     []string
	}{
		{name: "no fixtures", want: nil},
		{name: "star", fixtures: map[string]string{"fixtures/a.toml": "tasks = [\"*\"]\n"}, want: nil},
		{name: "both named", fixtures: map[string]string{"fixtures/a.toml": "tasks = [\"issue\"]\n", "fixtures/b.toml": "tasks = [\"chat\"]\n"}},
		{name: "chat uncovered", fixtures: map[string]string{"fixtures/a.toml": "tasks = [\"issue\"]\n"},
			want: []string{"promptc.toml:2:19 uncovered-task chat"}},
		{name: "tasks inherited through extends", fixtures: map[string]string{"fixtures/a.toml": "tasks = [\"issue\"]\n", "fixtures/b.toml": "extends = \"a\"\n"},
			want: []string{"promptc.toml:2:19 uncovered-task chat"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"promptc.toml": ltManifest(`"intro"`, ""), "blocks/a.toml": block}
			for k, v := range tt.fixtures {
				files[k] = v
			}
			prog, arts := ltCompile(t, files)
			for name, findings := range map[string][]Finding{"Project": Run(prog, arts, ltCounter(t)), "Errors": Errors(prog, arts)} {
				var got []string
				for _, f := range findings {
					if f.Lint == UncoveredTask {
						got = append(got, ltBrief(f))
						if f.Severity != source.SeverityError || !strings.Contains(f.Suggestion, `tasks admit "chat"`) {
							t.Errorf("%s: %s: severity %v, fix %q", name, f, f.Severity, f.Suggestion)
						}
					}
				}
				if fmt.Sprint(got) != fmt.Sprint(tt.want) {
					t.Errorf("%s: uncovered-task findings %q, want %q", name, got, tt.want)
				}
			}
		})
	}
}

// TestUncoveredTaskNotSilenced: an allow of uncovered-task is an unknown-allow error that says why, and the task is
// still reported.
func TestUncoveredTaskNotSilenced(t *testing.T) {
	prog, arts := ltCompile(t, map[string]string{
		"promptc.toml":    ltManifest(`"intro"`, "[[lint.allow]]\nlint = \"uncovered-task\"\nreason = \"later\"\n"),
		"blocks/a.toml":   "[[block]]\nid = \"intro\"\nbody = \"Rules.\"\n",
		"fixtures/a.toml": "tasks = [\"issue\"]\n",
	})
	var got []string
	for _, f := range Errors(prog, arts) {
		got = append(got, string(f.Lint)+": "+f.Summary)
	}
	want := []string{
		`uncovered-task: no fixture renders task "chat", so no golden file guards it: check cannot see its runbook change, and a ref that fails in it is found in production`,
		`unknown-allow: [[lint.allow]] cannot silence uncovered-task: a task no fixture renders is unguarded, and a fixture is the fix`,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("findings:\n%q\nwant\n%q", got, want)
	}
}

// TestUnusedRecordFields: unused-variable reports the declared fields of a used record or records variable that no
// block reads, at any depth; a use of a record or a nested field as a whole reads every field below it.
func TestUnusedRecordFields(t *testing.T) {
	manifest := "name = \"a\"\ntasks = [\"t\"]\n[runbook]\norder = [\"b\"]\n" +
		"[vars.repos]\nscope = \"session\"\ntype = \"records\"\n" +
		"[vars.repos.fields.url]\ntype = \"string\"\n" +
		"[vars.repos.fields.stars]\ntype = \"int\"\n" +
		"[vars.repos.fields.owner]\ntype = \"record\"\n" +
		"[vars.repos.fields.owner.fields.login]\ntype = \"string\"\n" +
		"[vars.repos.fields.owner.fields.email]\ntype = \"string\"\n" +
		"[vars.repos.fields.meta]\ntype = \"record\"\n" +
		"[vars.repos.fields.meta.fields.x]\ntype = \"string\"\n"
	tests := []struct{ name, body, want string }{
		{"fields read one by one", `{{range .repos}}{{.url}} {{.owner.login}}{{end}}`,
			"promptc.toml:10:1: warning: field \"stars\" of \"repos\" is declared but no block reads it: a value given for it changes no output (unused-variable) / read it in a block, or delete [vars.repos.fields.stars] and its values in fixtures/\n" +
				"promptc.toml:16:1: warning: field \"email\" of \"repos.owner\" is declared but no block reads it: a value given for it changes no output (unused-variable) / read it in a block, or delete [vars.repos.fields.owner.fields.email] and its values in fixtures/\n" +
				"promptc.toml:18:1: warning: field \"meta\" of \"repos\" is declared but no block reads it: a value given for it changes no output (unused-variable) / read it in a block, or delete [vars.repos.fields.meta] and its values in fixtures/"},
		{"nested field read", `{{range .repos}}{{.url}}{{.stars}}{{.owner.login}}{{.owner.email}}{{.meta.x}}{{end}}`, ""},
		{"a nested record used whole", `{{range .repos}}{{.url}}{{json .owner}}{{json .meta}}{{.stars}}{{end}}`, ""},
		{"records used whole", `{{json .repos}}`, ""},
		{"an item used whole", `{{range .repos}}{{json .}}{{end}}`, ""},
		// A test of a records value reads whether it is empty or how long it is, and no field: the fields the
		// other uses leave unread are still reported.
		{"tested with or", `{{if or .repos .task}}{{range .repos}}{{.url}} {{.owner.login}} {{.stars}} {{.meta.x}}{{end}}{{end}}`,
			"promptc.toml:16:1: warning: field \"email\" of \"repos.owner\" is declared but no block reads it: a value given for it changes no output (unused-variable) / read it in a block, or delete [vars.repos.fields.owner.fields.email] and its values in fixtures/"},
		{"counted with len", `{{len .repos}} repos{{range .repos}}{{.url}} {{.owner.login}} {{.owner.email}} {{.meta.x}}{{end}}`,
			"promptc.toml:10:1: warning: field \"stars\" of \"repos\" is declared but no block reads it: a value given for it changes no output (unused-variable) / read it in a block, or delete [vars.repos.fields.stars] and its values in fixtures/"},
		{"tested with not, and, empty", `{{if not (and .repos .task)}}{{end}}{{if empty .repos}}{{end}}{{range .repos}}{{if or .owner .meta}}{{.url}} {{.owner.login}} {{.owner.email}} {{.stars}}{{end}}{{if not .}}{{end}}{{end}}`,
			"promptc.toml:20:1: warning: field \"x\" of \"repos.meta\" is declared but no block reads it: a value given for it changes no output (unused-variable) / read it in a block, or delete [vars.repos.fields.meta.fields.x] and its values in fixtures/"},
		{"or encoded may hold any field", `{{json (or .repos .task)}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"promptc.toml": manifest, "blocks/a.toml": "[[block]]\nid = \"b\"\nbody = '" + tt.body + "'\n"}
			prog, arts := ltCompile(t, files)
			var got []string
			for _, f := range Run(prog, arts, ltCounter(t)) {
				if f.Lint == UnusedVariable {
					got = append(got, f.String()+" / "+f.Suggestion)
				}
			}
			if strings.Join(got, "\n") != tt.want {
				t.Errorf("unused-variable findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), tt.want)
			}
		})
	}
}

// TestFixtureSample: a sample the project has no fixture for is refused, with the closest name suggested, as stats
// refuses it (stats.CheckSample); the one asked for is the runbook short-prefix measures (stats.Sample).
func TestFixtureSample(t *testing.T) {
	prog, arts := ltCompile(t, map[string]string{
		"promptc.toml":     "name = \"acme\"\ntasks = [\"issue\"]\n\n[runbook]\norder = [\"rules\"]\n",
		"blocks/main.toml": "[[block]]\nid   = \"rules\"\nbody = \"Never push to main.\"\n",
		"fixtures/a.toml":  "",
		"fixtures/b.toml":  "",
	})
	if _, err := RunFixture(prog, arts, ltCounter(t), "bb"); err == nil || err.Error() != `no fixture "bb" (did you mean "b"?)` {
		t.Errorf("unknown fixture: %v", err)
	}
	// short-prefix measures the runbook asked for, and says so; without a fixture, the first by name.
	for sample, want := range map[string]string{
		"b": `is the whole of issue/b.runbook.md (fixture "b", as asked)`,
		"":  `is the whole of issue/a.runbook.md (fixture "a", the first by name of 2 rendering the task; --fixture picks another)`,
	} {
		findings, err := RunFixture(prog, arts, ltCounter(t), sample)
		if err != nil {
			t.Fatalf("fixture %q: %v", sample, err)
		}
		if len(findings) != 1 || findings[0].Lint != ShortPrefix || !strings.Contains(findings[0].Summary, want) {
			t.Errorf("fixture %q: findings %v, want one short-prefix finding that %s", sample, findings, want)
		}
	}
}

// TestIDsTyped: every lint id constant is an ID, not an untyped string, so that a caller can hold one in a variable
// and compare it with Finding.Lint.
func TestIDsTyped(t *testing.T) {
	for _, id := range []any{VolatileText, ScopeInversion, DuplicateSentence, PastedConstant, UnusedConstant,
		UnusedVariable, InvisibleChar, ShortPrefix, UnknownAllow, UnusedAllow, UnknownRef, UncoveredTask,
		UntrustedInCodeSpan} {
		if _, ok := id.(ID); !ok {
			t.Errorf("lint id %v is a %T, want a lint.ID", id, id)
		}
	}
	if n := len(IDs()); n != 13 {
		t.Errorf("IDs() lists %d ids; TestIDsTyped checks 13: add the new one here", n)
	}
}
