package guard

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/golden"
	"github.com/promptc/promptc/tokens"
)

// cmpProject is small enough to compare by hand. Its runbooks are
//
//	chat/a.runbook.md  "## Rules\n\nNever push to main.\n\nYou are Ada.\n"                   (44 bytes)
//	issue/a.runbook.md "## Rules\n\nNever push to main.\n\nIssues only.\n\nYou are Ada.\n"   (58 bytes)
//
// with spans rules [0,29) global, issue-only [29,43) task (issue only), who [29,44) or [43,58) session; and both
// turn messages are "Work on ISS-1.\n" (15 bytes, block assignment). In blocks/main.toml the ids sit at 2:1 (rules),
// 7:1 (issue-only), 12:1 (who) and 16:1 (assignment).
var cmpProject = map[string]string{
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

const (
	cmpChat  = "## Rules\n\nNever push to main.\n\nYou are Ada.\n"
	cmpIssue = "## Rules\n\nNever push to main.\n\nIssues only.\n\nYou are Ada.\n"
)

// cmpEdit is one textual edit of a project file: old replaced by new; an empty old means the file's whole text
// becomes new (a new file), and remove deletes the file.
type cmpEdit struct {
	file, old, new string
	remove         bool
}

// cmpEdited returns a copy of files with the edits applied. Each old text must occur exactly once, so that an edit
// cannot silently miss (or hit twice) when the project is changed.
func cmpEdited(t *testing.T, files map[string]string, edits ...cmpEdit) map[string]string {
	t.Helper()
	out := make(map[string]string, len(files))
	for k, v := range files {
		out[k] = v
	}
	for _, e := range edits {
		switch {
		case e.remove:
			delete(out, e.file)
		case e.old == "":
			out[e.file] = e.new
		default:
			if n := strings.Count(out[e.file], e.old); n != 1 {
				t.Fatalf("edit of %s: %q occurs %d times, want once", e.file, e.old, n)
			}
			out[e.file] = strings.Replace(out[e.file], e.old, e.new, 1)
		}
	}
	return out
}

// cmpBuild compiles a project held in memory; it fails the test on diagnostics.
func cmpBuild(t *testing.T, files map[string]string) []*assemble.Artifact {
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
	return arts
}

// cmpTree is the golden tree of some artifacts: their bytes, no source maps.
func cmpTree(arts []*assemble.Artifact) map[string][]byte {
	tree := map[string][]byte{}
	for _, a := range arts {
		tree[a.Path] = []byte(a.Text)
	}
	return tree
}

// cmpFreshCounter returns a counter of its own, whose cache tells whether anything was counted.
func cmpFreshCounter(t *testing.T) *tokens.Counter {
	t.Helper()
	tok := tokens.New(tokens.O200k)
	return tok
}

// cmpWant is what a Change must hold, worked out by hand. lost is the old text the cache loses (from the first
// differing byte to the end of an old runbook): InvalidatedBytes must be its length and InvalidatedTokens its count.
type cmpWant struct {
	path, status, kind   string
	offset, line, col    int
	block, source, scope string
	side, after          string
	lost                 string
	oldBytes, newBytes   int
}

func TestCompare(t *testing.T) {
	chatTurn := "Work on ISS-1.\n"
	tests := []struct {
		name  string
		edits []cmpEdit
		// golden: the old side is read back from bytes (promptc check); otherwise it is compiled (promptc diff).
		golden bool
		// tamper changes the golden bytes before the comparison (only with golden).
		tamper func(tree map[string][]byte)
		want   []cmpWant
	}{
		{
			name:  "one byte in a global block",
			edits: []cmpEdit{{file: "blocks/main.toml", old: "push to main.", new: "push to Main."}},
			want: []cmpWant{
				// "## Rules\n\nNever push to " is 24 bytes: line 3 ("Never …"), col 15.
				{path: "chat/a.runbook.md", status: "changed", kind: "runbook", offset: 24, line: 3, col: 15,
					block: "rules", source: "blocks/main.toml:2:1", scope: "global", side: "new",
					lost: "main.\n\nYou are Ada.\n", oldBytes: 44, newBytes: 44},
				{path: "issue/a.runbook.md", status: "changed", kind: "runbook", offset: 24, line: 3, col: 15,
					block: "rules", source: "blocks/main.toml:2:1", scope: "global", side: "new",
					lost: "main.\n\nIssues only.\n\nYou are Ada.\n", oldBytes: 58, newBytes: 58},
			},
		},
		{
			name:   "one byte in a global block, against golden bytes",
			edits:  []cmpEdit{{file: "blocks/main.toml", old: "push to main.", new: "push to Main."}},
			golden: true,
			want: []cmpWant{
				{path: "chat/a.runbook.md", status: "changed", kind: "runbook", offset: 24, line: 3, col: 15,
					block: "rules", source: "blocks/main.toml:2:1", scope: "global", side: "new",
					lost: "main.\n\nYou are Ada.\n", oldBytes: 44, newBytes: 44},
				{path: "issue/a.runbook.md", status: "changed", kind: "runbook", offset: 24, line: 3, col: 15,
					block: "rules", source: "blocks/main.toml:2:1", scope: "global", side: "new",
					lost: "main.\n\nIssues only.\n\nYou are Ada.\n", oldBytes: 58, newBytes: 58},
			},
		},
		{
			name:  "a byte in a task block",
			edits: []cmpEdit{{file: "blocks/main.toml", old: `"Issues only."`, new: `"Issues only!"`}},
			want: []cmpWant{
				// 29 bytes of rules, "\n\n", "Issues only" (11): byte 42, line 5, col 12.
				{path: "issue/a.runbook.md", status: "changed", kind: "runbook", offset: 42, line: 5, col: 12,
					block: "issue-only", source: "blocks/main.toml:7:1", scope: "task", side: "new",
					lost: ".\n\nYou are Ada.\n", oldBytes: 58, newBytes: 58},
			},
		},
		{
			name:  "a byte in a session block",
			edits: []cmpEdit{{file: "blocks/main.toml", old: "{{.agent_name}}.", new: "{{.agent_name}}!"}},
			want: []cmpWant{
				{path: "chat/a.runbook.md", status: "changed", kind: "runbook", offset: 42, line: 5, col: 12,
					block: "who", source: "blocks/main.toml:12:1", scope: "session", side: "new",
					lost: ".\n", oldBytes: 44, newBytes: 44},
				{path: "issue/a.runbook.md", status: "changed", kind: "runbook", offset: 56, line: 7, col: 12,
					block: "who", source: "blocks/main.toml:12:1", scope: "session", side: "new",
					lost: ".\n", oldBytes: 58, newBytes: 58},
			},
		},
		{
			name:  "a byte in a turn block",
			edits: []cmpEdit{{file: "blocks/main.toml", old: "{{.issue_id}}.", new: "{{.issue_id}}!"}},
			want: []cmpWant{
				// A turn message is the volatile suffix: nothing cached to lose.
				{path: "chat/a.turn-1.md", status: "changed", kind: "turn", offset: 13, line: 1, col: 14,
					block: "assignment", source: "blocks/main.toml:16:1", scope: "turn", side: "new",
					oldBytes: 15, newBytes: 15},
				{path: "issue/a.turn-1.md", status: "changed", kind: "turn", offset: 13, line: 1, col: 14,
					block: "assignment", source: "blocks/main.toml:16:1", scope: "turn", side: "new",
					oldBytes: 15, newBytes: 15},
			},
		},
		{
			name: "a new fixture and a dropped task",
			edits: []cmpEdit{
				{file: "promptc.toml", old: `tasks = ["issue", "chat"]`, new: `tasks = ["issue"]`},
				{file: "fixtures/b.toml", new: "tasks = [\"issue\"]\n\n[session]\nagent_name = \"Ada\"\n"},
			},
			want: []cmpWant{
				// A removed runbook's whole cached prefix is gone; its first byte belongs to the old side's block.
				{path: "chat/a.runbook.md", status: "removed", kind: "runbook", offset: 0, line: 1, col: 1,
					block: "rules", source: "blocks/main.toml:2:1", scope: "global", side: "old",
					lost: cmpChat, oldBytes: 44},
				{path: "chat/a.turn-1.md", status: "removed", kind: "turn", offset: 0, line: 1, col: 1,
					block: "assignment", source: "blocks/main.toml:16:1", scope: "turn", side: "old",
					oldBytes: 15},
				// A new artifact had nothing cached, and no first change to blame on a block.
				{path: "issue/b.runbook.md", status: "added", kind: "runbook", offset: 0, line: 1, col: 1,
					newBytes: 58},
			},
		},
		{
			name: "missing and stale against golden bytes",
			edits: []cmpEdit{
				{file: "promptc.toml", old: `tasks = ["issue", "chat"]`, new: `tasks = ["issue"]`},
				{file: "fixtures/b.toml", new: "tasks = [\"issue\"]\n\n[session]\nagent_name = \"Ada\"\n"},
			},
			golden: true,
			want: []cmpWant{
				// Golden bytes have no source map: a stale file is owned by no block.
				{path: "chat/a.runbook.md", status: "removed", kind: "runbook", offset: 0, line: 1, col: 1,
					lost: cmpChat, oldBytes: 44},
				{path: "chat/a.turn-1.md", status: "removed", kind: "turn", offset: 0, line: 1, col: 1,
					oldBytes: 15},
				{path: "issue/b.runbook.md", status: "added", kind: "runbook", offset: 0, line: 1, col: 1,
					newBytes: 58},
			},
		},
		{
			name: "bytes only removed at the end, old side compiled",
			edits: []cmpEdit{
				{file: "promptc.toml", old: `"issue-only", "who"]`, new: `"issue-only"]`},
				{file: "blocks/main.toml", old: "[[block]]\nid   = \"who\"\nbody = \"You are {{.agent_name}}.\"\n\n", new: ""},
			},
			want: []cmpWant{
				// New chat runbook: "## Rules\n\nNever push to main.\n" (30 bytes), all of it a prefix of the old one.
				// Byte 30 exists only in the old runbook, where block who owns it.
				{path: "chat/a.runbook.md", status: "changed", kind: "runbook", offset: 30, line: 4, col: 1,
					block: "who", source: "blocks/main.toml:12:1", scope: "session", side: "old",
					lost: "\nYou are Ada.\n", oldBytes: 44, newBytes: 30},
				{path: "issue/a.runbook.md", status: "changed", kind: "runbook", offset: 44, line: 6, col: 1,
					block: "who", source: "blocks/main.toml:12:1", scope: "session", side: "old",
					lost: "\nYou are Ada.\n", oldBytes: 58, newBytes: 44},
			},
		},
		{
			name: "bytes only removed at the end, against golden bytes",
			edits: []cmpEdit{
				{file: "promptc.toml", old: `"issue-only", "who"]`, new: `"issue-only"]`},
				{file: "blocks/main.toml", old: "[[block]]\nid   = \"who\"\nbody = \"You are {{.agent_name}}.\"\n\n", new: ""},
			},
			golden: true,
			want: []cmpWant{
				// No block owns the removed bytes: the report names the last block before them, and its scope.
				{path: "chat/a.runbook.md", status: "changed", kind: "runbook", offset: 30, line: 4, col: 1,
					after: "rules", scope: "global",
					lost: "\nYou are Ada.\n", oldBytes: 44, newBytes: 30},
				{path: "issue/a.runbook.md", status: "changed", kind: "runbook", offset: 44, line: 6, col: 1,
					after: "issue-only", scope: "task",
					lost: "\nYou are Ada.\n", oldBytes: 58, newBytes: 44},
			},
		},
		{
			name:   "CRLF golden file against LF build",
			golden: true,
			tamper: func(tree map[string][]byte) {
				tree["chat/a.runbook.md"] = []byte(strings.ReplaceAll(cmpChat, "\n", "\r\n"))
			},
			want: []cmpWant{
				// "## Rules" then '\r' where '\n' was built: byte 8, line 1, col 9.
				{path: "chat/a.runbook.md", status: "changed", kind: "runbook", offset: 8, line: 1, col: 9,
					block: "rules", source: "blocks/main.toml:2:1", scope: "global", side: "new",
					lost: "\r\n\r\nNever push to main.\r\n\r\nYou are Ada.\r\n", oldBytes: 49, newBytes: 44},
			},
		},
		{
			name:   "golden file without its final newline",
			golden: true,
			tamper: func(tree map[string][]byte) {
				tree["chat/a.turn-1.md"] = []byte(strings.TrimSuffix(chatTurn, "\n"))
				tree["issue/a.runbook.md"] = []byte(strings.TrimSuffix(cmpIssue, "\n"))
			},
			want: []cmpWant{
				// Bytes appended to a runbook invalidate nothing cached: the old runbook is a prefix of the new one.
				{path: "chat/a.turn-1.md", status: "changed", kind: "turn", offset: 14, line: 1, col: 15,
					block: "assignment", source: "blocks/main.toml:16:1", scope: "turn", side: "new",
					oldBytes: 14, newBytes: 15},
				{path: "issue/a.runbook.md", status: "changed", kind: "runbook", offset: 57, line: 7, col: 13,
					block: "who", source: "blocks/main.toml:12:1", scope: "session", side: "new",
					oldBytes: 57, newBytes: 58},
			},
		},
		{
			name: "identical sides",
		},
		{
			name:   "identical to golden bytes",
			golden: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			oldArts := cmpBuild(t, cmpProject)
			newArts := cmpBuild(t, cmpEdited(t, cmpProject, tt.edits...))
			if got := cmpText(oldArts, "chat/a.runbook.md"); got != cmpChat {
				t.Fatalf("chat/a.runbook.md = %q, want %q: the hand-computed expectations no longer hold", got, cmpChat)
			}
			if got := cmpText(oldArts, "issue/a.runbook.md"); got != cmpIssue {
				t.Fatalf("issue/a.runbook.md = %q, want %q: the hand-computed expectations no longer hold", got, cmpIssue)
			}
			old := Side{Label: "HEAD", Dir: "a/", Arts: oldArts}
			if tt.golden {
				tree := cmpTree(oldArts)
				if tt.tamper != nil {
					tt.tamper(tree)
				}
				old = Side{Label: "golden", Dir: "golden/", Arts: FromBytes(tree)}
			}
			tok := cmpFreshCounter(t)
			r := Compare(old, Side{Label: "build", Dir: "build/", Arts: newArts}, tok)
			if r.Encoding != tokens.O200k.String() {
				t.Errorf("Encoding = %q, want %q", r.Encoding, tokens.O200k.String())
			}
			if len(r.Changes) != len(tt.want) {
				var paths []string
				for _, c := range r.Changes {
					paths = append(paths, c.Path)
				}
				t.Fatalf("%d changes %v, want %d", len(r.Changes), paths, len(tt.want))
			}
			for i, w := range tt.want {
				cmpCheck(t, r.Changes[i], w, old.Dir)
			}
			if len(tt.want) == 0 {
				// A clean comparison counts nothing, so it never loads a vocabulary.
				if n, loaded := tok.Counted(); n != 0 || loaded {
					t.Errorf("identical sides: the counter counted %d texts (vocabulary loaded: %v), want none", n, loaded)
				}
			}
		})
	}
}

func cmpText(arts []*assemble.Artifact, path string) string {
	for _, a := range arts {
		if a.Path == path {
			return a.Text
		}
	}
	return ""
}

// cmpCheck compares one change with what it must hold.
func cmpCheck(t *testing.T, c *Change, w cmpWant, oldDir string) {
	t.Helper()
	got := cmpWant{
		path: c.Path, status: c.Status.String(), kind: c.Kind.String(),
		offset: c.Offset, line: c.Line, col: c.Col,
		block: c.Block, side: c.Side, after: c.After,
		lost:     w.lost, // checked through the byte and token counts below
		oldBytes: c.OldBytes, newBytes: c.NewBytes,
	}
	if c.Source.Known() {
		got.source = c.Source.String()
	}
	if c.attributed() {
		got.scope = c.Scope.String()
	}
	if got != w {
		t.Errorf("change of %s:\n got %+v\nwant %+v", w.path, got, w)
	}
	if c.Task != strings.Split(w.path, "/")[0] {
		t.Errorf("%s: Task = %q", w.path, c.Task)
	}
	if c.InvalidatedBytes != len(w.lost) {
		t.Errorf("%s: InvalidatedBytes = %d, want %d (%q)", w.path, c.InvalidatedBytes, len(w.lost), w.lost)
	}
	if want := cmpExpectCounter(t).Count(w.lost); c.InvalidatedTokens != want {
		t.Errorf("%s: InvalidatedTokens = %d, want %d, the count of %q", w.path, c.InvalidatedTokens, want, w.lost)
	}
	// The diff names both sides, a missing one as /dev/null.
	oldName, newName := oldDir+w.path, "build/"+w.path
	switch c.Status {
	case golden.Added:
		oldName = "/dev/null"
	case golden.Removed:
		newName = "/dev/null"
	}
	if head := "--- " + oldName + "\n+++ " + newName + "\n@@ "; !strings.HasPrefix(c.Diff, head) {
		t.Errorf("%s: diff starts %q, want %q", w.path, c.Diff[:min(len(c.Diff), len(head)+20)], head)
	}
}

// cmpExpectTok counts the expected tokens; no comparison under test uses it.
var cmpExpectTok *tokens.Counter

func cmpExpectCounter(t *testing.T) *tokens.Counter {
	t.Helper()
	if cmpExpectTok == nil {
		cmpExpectTok = cmpFreshCounter(t)
	}
	return cmpExpectTok
}

// TestCompareDiff checks one whole diff of a changed artifact, so the reader sees what a report will show.
func TestCompareDiff(t *testing.T) {
	oldArts := cmpBuild(t, cmpProject)
	newArts := cmpBuild(t, cmpEdited(t, cmpProject, cmpEdit{file: "blocks/main.toml", old: "push to main.", new: "push to Main."}))
	r := Compare(Side{Label: "golden", Dir: "golden/", Arts: FromBytes(cmpTree(oldArts))},
		Side{Label: "build", Dir: "build/", Arts: newArts}, cmpFreshCounter(t))
	want := "--- golden/chat/a.runbook.md\n+++ build/chat/a.runbook.md\n@@ -1,5 +1,5 @@\n" +
		" ## Rules\n \n-Never push to main.\n+Never push to Main.\n \n You are Ada.\n"
	if len(r.Changes) == 0 || r.Changes[0].Diff != want {
		t.Fatalf("diff of chat/a.runbook.md =\n%s\nwant\n%s", r.Changes[0].Diff, want)
	}
}

// TestCompareRuneColumn: offsets count bytes, columns count characters. When two characters differ only in their
// last byte (è and ê are C3 A8 and C3 AA), the first differing byte lies inside a character; the column is still
// that character's.
func TestCompareRuneColumn(t *testing.T) {
	project := map[string]string{
		"promptc.toml":     "name = \"fr\"\ntasks = [\"t\"]\n\n[runbook]\norder = [\"b\"]\n",
		"blocks/main.toml": "[[block]]\nid   = \"b\"\nbody = \"Déjà vu: crème.\"\n",
	}
	tests := []struct {
		name              string
		old, new          string
		offset, line, col int
	}{
		// "Déjà vu: crèm" is 16 bytes and 13 characters.
		{"ASCII byte after accents", "crème.", "crèmE.", 16, 1, 14},
		// "Déjà vu: cr" is 13 bytes and 11 characters; è and ê share their first byte.
		{"last byte of a character", "crème.", "crême.", 14, 1, 12},
		// é is C3 A9, e is 65: the first byte differs.
		{"first byte of a character", "Déjà", "Deja", 1, 1, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			oldArts := cmpBuild(t, project)
			newArts := cmpBuild(t, cmpEdited(t, project, cmpEdit{file: "blocks/main.toml", old: tt.old, new: tt.new}))
			r := Compare(Side{Label: "golden", Dir: "golden/", Arts: FromBytes(cmpTree(oldArts))},
				Side{Label: "build", Dir: "build/", Arts: newArts}, cmpFreshCounter(t))
			if len(r.Changes) != 1 {
				t.Fatalf("%d changes, want 1", len(r.Changes))
			}
			c := r.Changes[0]
			if c.Offset != tt.offset || c.Line != tt.line || c.Col != tt.col {
				t.Errorf("first difference at byte %d (%d:%d), want byte %d (%d:%d)", c.Offset, c.Line, c.Col, tt.offset, tt.line, tt.col)
			}
		})
	}
}

// TestCompareOrder: changes come sorted by path whatever the order of the sides' artifacts.
func TestCompareOrder(t *testing.T) {
	tree := map[string][]byte{"b/x.runbook.md": []byte("1\n"), "a/x.runbook.md": []byte("1\n"), "c/x.runbook.md": []byte("1\n")}
	old := FromBytes(tree)
	newTree := map[string][]byte{"c/x.runbook.md": []byte("2\n"), "a/x.runbook.md": []byte("2\n"), "b/y.runbook.md": []byte("2\n")}
	arts := FromBytes(newTree)
	arts[0], arts[2] = arts[2], arts[0]
	r := Compare(Side{Dir: "golden/", Arts: old}, Side{Dir: "build/", Arts: arts}, cmpFreshCounter(t))
	var got []string
	for _, c := range r.Changes {
		got = append(got, c.Path+" "+c.Status.String())
	}
	want := "a/x.runbook.md changed, b/x.runbook.md removed, b/y.runbook.md added, c/x.runbook.md changed"
	if strings.Join(got, ", ") != want {
		t.Errorf("changes = %s\nwant      %s", strings.Join(got, ", "), want)
	}
}

func TestSummarize(t *testing.T) {
	runbook := func(task string, scope blocks.Scope, bytes, tokens int) *Change {
		return &Change{Path: task + "/a.runbook.md", Status: golden.Changed, Task: task, Kind: blocks.Runbook, Block: "b",
			Scope: scope, InvalidatedBytes: bytes, InvalidatedTokens: tokens}
	}
	turn := func(task string) *Change {
		return &Change{Path: task + "/a.turn-1.md", Status: golden.Changed, Task: task, Kind: blocks.Turn, Block: "t",
			Scope: blocks.ScopeTurn}
	}
	added := func(path string) *Change {
		a, _ := assemble.ParsePath(path)
		return &Change{Path: path, Status: golden.Added, Task: a.Task, Kind: a.Kind, Scope: blocks.ScopeGlobal}
	}
	removed := func(path string, bytes, tokens int) *Change {
		a, _ := assemble.ParsePath(path)
		return &Change{Path: path, Status: golden.Removed, Task: a.Task, Kind: a.Kind, InvalidatedBytes: bytes, InvalidatedTokens: tokens}
	}
	tests := []struct {
		name          string
		changes       []*Change
		lines         []string
		bytes, tokens int
	}{
		{name: "nothing"},
		{
			name:    "global",
			changes: []*Change{runbook("chat", blocks.ScopeGlobal, 20, 6), runbook("issue", blocks.ScopeGlobal, 34, 9)},
			lines:   []string{"global prefix changed: every task's cache is invalidated"},
			bytes:   54, tokens: 15,
		},
		{
			name:    "task",
			changes: []*Change{runbook("issue", blocks.ScopeTask, 16, 5)},
			lines:   []string{"task prefix of issue changed: issue's cache is invalidated"},
			bytes:   16, tokens: 5,
		},
		{
			name: "no block counts as task",
			changes: []*Change{{Path: "issue/a.runbook.md", Status: golden.Changed, Task: "issue", Kind: blocks.Runbook,
				InvalidatedBytes: 1, InvalidatedTokens: 1}},
			lines: []string{"task prefix of issue changed: issue's cache is invalidated"},
			bytes: 1, tokens: 1,
		},
		{
			name:    "session, one task",
			changes: []*Change{runbook("chat", blocks.ScopeSession, 2, 1)},
			lines:   []string{"session part of chat's runbook changed: its cached sessions are invalidated from there"},
			bytes:   2, tokens: 1,
		},
		{
			name:    "session, two tasks, listed once each and sorted",
			changes: []*Change{runbook("issue", blocks.ScopeSession, 2, 1), runbook("chat", blocks.ScopeSession, 2, 1), runbook("issue", blocks.ScopeSession, 2, 1)},
			lines:   []string{"session part of the runbooks of chat, issue changed: their cached sessions are invalidated from there"},
			bytes:   6, tokens: 3,
		},
		{
			name:    "turn",
			changes: []*Change{turn("issue"), turn("chat")},
			lines:   []string{"turn messages of chat, issue changed: no cached prefix is lost"},
		},
		{
			name: "text removed at the end, no block known",
			changes: []*Change{{Path: "issue/a.runbook.md", Status: golden.Changed, Task: "issue", Kind: blocks.Runbook,
				After: "issue-only", Scope: blocks.ScopeTask, InvalidatedBytes: 14, InvalidatedTokens: 5}},
			lines: []string{"text removed at the end of issue's runbook: the cached prefix before it is intact"},
			bytes: 14, tokens: 5,
		},
		{
			name:    "added",
			changes: []*Change{added("issue/b.runbook.md")},
			lines:   []string{"1 new artifact: issue/b.runbook.md"},
		},
		{
			name:    "removed",
			changes: []*Change{removed("chat/a.runbook.md", 44, 12), removed("chat/a.turn-1.md", 0, 0)},
			lines:   []string{"2 artifacts no longer produced: chat/a.runbook.md, chat/a.turn-1.md"},
			bytes:   44, tokens: 12,
		},
		{
			name: "more than three paths",
			changes: []*Change{added("a/x.runbook.md"), added("b/x.runbook.md"), added("c/x.runbook.md"),
				added("d/x.runbook.md"), added("e/x.runbook.md")},
			lines: []string{"5 new artifacts: a/x.runbook.md, b/x.runbook.md, c/x.runbook.md and 2 more"},
		},
		{
			name: "every kind, in a fixed order",
			changes: []*Change{added("issue/b.runbook.md"), removed("chat/a.turn-1.md", 0, 0), turn("issue"),
				runbook("issue", blocks.ScopeSession, 2, 1), runbook("chat", blocks.ScopeTask, 3, 1),
				runbook("review", blocks.ScopeGlobal, 5, 2)},
			lines: []string{
				"global prefix changed: every task's cache is invalidated",
				"task prefix of chat changed: chat's cache is invalidated",
				"session part of issue's runbook changed: its cached sessions are invalidated from there",
				"issue's turn message changed: no cached prefix is lost",
				"1 new artifact: issue/b.runbook.md",
				"1 artifact no longer produced: chat/a.turn-1.md",
			},
			bytes: 10, tokens: 4,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := (&Report{Changes: tt.changes}).Summarize()
			if strings.Join(s.Lines, "\n") != strings.Join(tt.lines, "\n") {
				t.Errorf("lines:\n%s\nwant\n%s", strings.Join(s.Lines, "\n"), strings.Join(tt.lines, "\n"))
			}
			if s.Artifacts != len(tt.changes) || s.InvalidatedBytes != tt.bytes || s.InvalidatedTokens != tt.tokens {
				t.Errorf("artifacts %d, %d bytes, %d tokens; want %d, %d, %d", s.Artifacts, s.InvalidatedBytes, s.InvalidatedTokens,
					len(tt.changes), tt.bytes, tt.tokens)
			}
		})
	}
}

// TestSummarizeRemovedAtEnd: deleting the last runbook block leaves every byte before it, the global prefix among
// them, as it was. Compared with golden bytes (no source map on the old side) the change is placed after the last
// block left; the summary must not read that block's scope as the scope of the change.
func TestSummarizeRemovedAtEnd(t *testing.T) {
	oldArts := cmpBuild(t, cmpProject)
	newArts := cmpBuild(t, cmpEdited(t, cmpProject,
		cmpEdit{file: "promptc.toml", old: `"issue-only", "who"]`, new: `"issue-only"]`},
		cmpEdit{file: "blocks/main.toml", old: "[[block]]\nid   = \"who\"\nbody = \"You are {{.agent_name}}.\"\n\n", new: ""}))
	for _, golden := range []bool{false, true} {
		old := Side{Label: "HEAD", Dir: "a/", Arts: oldArts}
		// Compiled, the old side's source map names the removed block, a session block.
		want := "session part of the runbooks of chat, issue changed: their cached sessions are invalidated from there"
		if golden {
			old = Side{Label: "golden", Dir: "golden/", Arts: FromBytes(cmpTree(oldArts))}
			want = "text removed at the end of the runbooks of chat, issue: the cached prefixes before it are intact"
		}
		s := Compare(old, Side{Label: "build", Dir: "build/", Arts: newArts}, cmpFreshCounter(t)).Summarize()
		for _, l := range s.Lines {
			if strings.HasPrefix(l, "global prefix changed") || strings.HasPrefix(l, "task prefix") {
				t.Errorf("golden=%v: summary says %q, but the global and task prefixes of both runbooks are unchanged", golden, l)
			}
		}
		if strings.Join(s.Lines, "\n") != want {
			t.Errorf("golden=%v: summary %q, want %q", golden, s.Lines, want)
		}
		if s.InvalidatedBytes != 28 {
			t.Errorf("golden=%v: %d bytes invalidated, want 28 (14 in each runbook)", golden, s.InvalidatedBytes)
		}
	}
}
