package stats

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/assemble"

	"github.com/promptc/promptc/tokens"
)

// stBase is a two-task project: a global block, a block for issue only, a session block and a turn block, with one
// fixture.
var stBase = map[string]string{
	"promptc.toml": `name  = "acme"
tasks = ["issue", "chat"]

[runbook]
order = ["rules", "issue-only", "who"]

[turn]
order = ["assignment"]

[vars.agent_name]
scope = "session"
type  = "string"

[vars.issue_id]
scope = "turn"
type  = "string"
`,
	"blocks/main.toml": `[[block]]
id    = "rules"
title = "Rules"
body  = "Never push to main."

[[block]]
id    = "issue-only"
tasks = ["issue"]
body  = "Issues only."

[[block]]
id   = "who"
body = "You are {{.agent_name}}."

[[block]]
id   = "assignment"
body = "Work on {{.issue_id}}."
`,
	"fixtures/a.toml": `[session]
agent_name = "Ada"

[[turn]]
issue_id = "ISS-1"
`,
}

var (
	stTokOnce sync.Once
	stTok     *tokens.Counter
)

// stCounter returns one o200k counter shared by every test, so the vocabulary loads once.
func stCounter(t testing.TB) *tokens.Counter {
	t.Helper()
	stTokOnce.Do(func() { stTok = tokens.New(tokens.O200k) })
	return stTok
}

// stCompile loads a project from files held in memory and builds its artifacts; it fails the test on diagnostics.
func stCompile(t *testing.T, files map[string]string) (*assemble.Program, []*assemble.Artifact) {
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

// stProject is small enough to measure by hand. issue/a.runbook.md is
//
//	"## Rules\n\nNever push to main." (29 bytes, global) + "\n\nIssues only." (14, task) + "\n\nYou are Ada.\n" (15, session)
//
// and chat/a.runbook.md the same without "issue-only". It is stBase with a second turn and a second fixture for
// issue only, so that the prefixes shared across fixtures can be measured.
var stProject = withFiles(stBase, map[string]string{
	"fixtures/a.toml": `[session]
agent_name = "Ada"

[[turn]]
issue_id = "ISS-1"

[[turn]]
issue_id = "ISS-2"
`,
	"fixtures/b.toml": `tasks = ["issue"]

[session]
agent_name = "Bob"
`,
})

// withFiles returns a copy of project with files added or replaced.
func withFiles(project, files map[string]string) map[string]string {
	out := make(map[string]string, len(project)+len(files))
	for name, text := range project {
		out[name] = text
	}
	for name, text := range files {
		out[name] = text
	}
	return out
}

func TestStats(t *testing.T) {
	prog, arts := stCompile(t, stProject)
	tok := stCounter(t)
	r := Measure(prog, arts, tok)
	if r.Encoding != tokens.O200k.String() || len(r.Tasks) != 2 {
		t.Fatalf("encoding %q, %d tasks; want o200k_base, 2", r.Encoding, len(r.Tasks))
	}
	issueText := "## Rules\n\nNever push to main.\n\nIssues only.\n\nYou are Ada.\n"
	chatText := "## Rules\n\nNever push to main.\n\nYou are Ada.\n"
	rules, issueOnly, who := "## Rules\n\nNever push to main.", "\n\nIssues only.", "\n\nYou are Ada.\n"
	turn := "Work on ISS-1.\n"

	issue := r.Tasks[0]
	checks := []struct {
		name      string
		got, want any
	}{
		{"task", issue.Task, "issue"},
		{"fixture", issue.Fixture, "a"},
		{"artifact", issue.Artifact, "issue/a.runbook.md"},
		{"bytes", issue.Bytes, 58},
		{"tokens", issue.Tokens, tok.Count(issueText)},
		{"blocks", stBlockList(issue.Blocks), "rules global 29 blocks/main.toml:2:1; issue-only task 14 blocks/main.toml:7:1; who session 15 blocks/main.toml:12:1"},
		{"rules tokens", issue.Blocks[0].Tokens, tok.Count(rules)},
		{"issue-only tokens", issue.Blocks[1].Tokens, tok.Count(issueOnly)},
		{"who tokens", issue.Blocks[2].Tokens, tok.Count(who)},
		{"scopes", stScopeList(issue.Scopes), "global 1 29; task 1 14; session 1 15; turn 1 30"},
		{"turn tokens", issue.Scopes[3].Tokens, 2 * tok.Count(turn)},
		{"turn messages", issue.TurnMessages, 2},
		{"global prefix", issue.GlobalPrefix, Prefix{Bytes: 31, Line: 5, Col: 1, Tokens: tok.Count(issueText[:31]), Block: "issue-only"}},
		{"task prefix", issue.TaskPrefix, Prefix{Bytes: 45, Line: 7, Col: 1, Tokens: tok.Count(issueText[:45]), Block: "who"}},
		{"fixture prefix", issue.FixturePrefix, FixturePrefix{Prefix{Bytes: 53, Line: 7, Col: 9, Tokens: tok.Count(issueText[:53]), Block: "who"}, 2}},
		{"fixtures", len(issue.Fixtures), 2},
		{"fixture b", issue.Fixtures[1], Runbook{Fixture: "b", Artifact: "issue/b.runbook.md", Bytes: 58,
			Tokens: tok.Count(strings.Replace(issueText, "Ada", "Bob", 1)), GlobalPrefix: 31, TaskPrefix: 45}},
	}
	chat := r.Tasks[1]
	checks = append(checks, []struct {
		name      string
		got, want any
	}{
		{"chat bytes", chat.Bytes, 44},
		{"chat blocks", stBlockList(chat.Blocks), "rules global 29 blocks/main.toml:2:1; who session 15 blocks/main.toml:12:1"},
		{"chat scopes", stScopeList(chat.Scopes), "global 1 29; task 0 0; session 1 15; turn 1 30"},
		{"chat task prefix", chat.TaskPrefix, Prefix{Bytes: 31, Line: 5, Col: 1, Tokens: tok.Count(chatText[:31]), Block: "who"}},
		{"chat fixture prefix", chat.FixturePrefix, FixturePrefix{Prefix{Bytes: 44, Line: 6, Col: 1, Tokens: tok.Count(chatText), Block: ""}, 1}},
		{"shared bytes", [3]int{r.Shared.Bytes, r.Shared.Line, r.Shared.Col}, [3]int{31, 5, 1}},
		{"shared tokens", r.Shared.Tokens, tok.Count(issueText[:31])},
		{"shared artifacts", strings.Join(r.Shared.Artifacts, " "), "issue/a.runbook.md chat/a.runbook.md"},
		{"shared ends", r.Shared.Ends, []TaskBlock{{"issue", "issue-only"}, {"chat", "who"}}},
	}...)
	for _, c := range checks {
		if a, b := stJSON(t, c.got), stJSON(t, c.want); a != b {
			t.Errorf("%s = %s, want %s", c.name, a, b)
		}
	}
	// The bytes of the blocks add up to the runbook's.
	for _, ts := range r.Tasks {
		sum := 0
		for _, b := range ts.Blocks {
			sum += b.Bytes
		}
		if sum != ts.Bytes {
			t.Errorf("%s: blocks add up to %d bytes, runbook has %d", ts.Task, sum, ts.Bytes)
		}
	}
}

func stBlockList(bs []BlockSize) string {
	var parts []string
	for _, b := range bs {
		parts = append(parts, strings.Join([]string{b.Block, b.Scope.String(), strconv.Itoa(b.Bytes), b.Source}, " "))
	}
	return strings.Join(parts, "; ")
}

func stScopeList(ss []ScopeTotal) string {
	var parts []string
	for _, s := range ss {
		parts = append(parts, strings.Join([]string{s.Scope.String(), strconv.Itoa(s.Blocks), strconv.Itoa(s.Bytes)}, " "))
	}
	return strings.Join(parts, "; ")
}

func stJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestStatsUnrendered: a task that no fixture renders has no numbers and is left out of the shared prefix.
func TestStatsUnrendered(t *testing.T) {
	files := map[string]string{}
	for k, v := range stProject {
		files[k] = v
	}
	delete(files, "fixtures/a.toml")
	prog, arts := stCompile(t, files)
	r := Measure(prog, arts, stCounter(t))
	chat := r.Tasks[1]
	if chat.Fixture != "" || chat.Bytes != 0 || len(chat.Blocks) != 0 {
		t.Errorf("chat = %+v, want no numbers", chat)
	}
	if got := strings.Join(r.Shared.Artifacts, " "); got != "issue/b.runbook.md" {
		t.Errorf("shared artifacts = %q, want issue/b.runbook.md", got)
	}
	// The one runbook compared agrees with itself to its end, but only its global prefix is shared by construction.
	if r.Shared.Bytes != 31 || r.Shared.Agreed != 58 || len(r.Shared.Ends) != 1 || r.Shared.Ends[0].Block != "issue-only" {
		t.Errorf("shared = %+v, want the global prefix of issue/b.runbook.md (31 bytes, of 58 agreed)", r.Shared)
	}
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"task chat: no fixture renders this task\n", "shared by every task (left out, no fixture: chat): 31 bytes"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, b.String())
		}
	}
}

func TestSharedLen(t *testing.T) {
	tests := []struct {
		name  string
		texts []string
		want  int
	}{
		{"none", nil, 0},
		{"one", []string{"abc"}, 3},
		{"equal", []string{"abc", "abc"}, 3},
		{"prefix of another", []string{"abcd", "ab"}, 2},
		{"differ", []string{"abx", "aby", "abz"}, 2},
		// é (C3 A9) and è (C3 A8) share a first byte: the prefix stops before the character.
		{"inside a character", []string{"aé", "aè"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sharedLen(tt.texts); got != tt.want {
				t.Errorf("sharedLen(%q) = %d, want %d", tt.texts, got, tt.want)
			}
		})
	}
}

// TestStatsDeterministic: the same artifacts give the same report, byte for byte.
func TestStatsDeterministic(t *testing.T) {
	prog, arts := stCompile(t, stProject)
	var first strings.Builder
	if err := Measure(prog, arts, stCounter(t)).WriteJSON(&first); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		_, arts := stCompile(t, stProject)
		var again strings.Builder
		if err := Measure(prog, arts, stCounter(t)).WriteJSON(&again); err != nil {
			t.Fatal(err)
		}
		if again.String() != first.String() {
			t.Fatalf("run %d differs:\n%s\nwant:\n%s", i, again.String(), first.String())
		}
	}
}

// TestStatsSharedCapped: session text that coincides in the one fixture every task is compared on is not a shared
// prefix, so the figure never exceeds a task's global prefix (docs/stats.md#what-is-measured; a ported project was
// once told "shared by every task: 2333 bytes" with a global prefix of 1,751). --fixture picks the sample, and an
// unknown one is an error.
func TestStatsSharedCapped(t *testing.T) {
	prog, arts := stCompile(t, withFiles(stProject, map[string]string{
		"promptc.toml": strings.Replace(stProject["promptc.toml"], `order = ["rules", "issue-only", "who"]`, `order = ["rules", "who", "issue-only"]`, 1),
	}))
	tok := stCounter(t)
	r := Measure(prog, arts, tok)
	// Both runbooks of fixture a start "## Rules\n\nNever push to main.\n\nYou are Ada." (the session block who), but
	// only the rules are the same in every session.
	if sp := r.Shared; sp.Bytes != 31 || sp.Agreed <= sp.Bytes || sp.Ends[0].Block != "who" || sp.Ends[1].Block != "who" {
		t.Errorf("shared = %+v, want 31 bytes ending in who, agreed past them", sp)
	}
	for _, ts := range r.Tasks {
		if r.Shared.Bytes > ts.GlobalPrefix.Bytes {
			t.Errorf("shared %d bytes > global prefix of %s (%d)", r.Shared.Bytes, ts.Task, ts.GlobalPrefix.Bytes)
		}
	}

	r, err := MeasureFixture(prog, arts, tok, "b")
	if err != nil {
		t.Fatal(err)
	}
	if r.Sample != "b" || r.Tasks[0].Fixture != "b" || r.Tasks[0].Artifact != "issue/b.runbook.md" || r.Tasks[1].Fixture != "" {
		t.Errorf("sample b: %q, issue %q %q, chat %q", r.Sample, r.Tasks[0].Fixture, r.Tasks[0].Artifact, r.Tasks[1].Fixture)
	}
	if got := strings.Join(r.Shared.Artifacts, " "); got != "issue/b.runbook.md" {
		t.Errorf("shared artifacts = %q, want issue/b.runbook.md", got)
	}
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`task issue: issue/b.runbook.md (fixture "b", as asked, of 2 fixtures rendering it)`,
		`task chat: fixture "b" does not render this task`, `shared by every task (left out, not rendered by fixture "b": chat): 31 bytes`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, b.String())
		}
	}

	if _, err := MeasureFixture(prog, arts, tok, "c"); err == nil || err.Error() != `no fixture "c" (did you mean "a"?)` {
		t.Errorf("unknown fixture: %v", err)
	}
}
