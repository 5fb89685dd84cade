package preview

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/promptc/promptc/guard"
)

// git runs git in dir, failing the test on an error.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// committed is project(t) as the first commit of a new git repository.
func committed(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed:", err)
	}
	dir := project(t)
	git(t, dir, "init", "-q")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "first")
	return dir
}

// edit replaces old by new in the file name of the project at dir.
func edit(t *testing.T, dir, name, old, new string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), old) {
		t.Fatalf("%s lacks %q", name, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(src), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkComparison: the lines tile both texts, kept lines are equal, the marks lie in the changed lines, and the
// change is promptc diff's.
func checkComparison(t *testing.T, v *View, want *guard.Change) {
	t.Helper()
	c := v.Base
	old := ""
	if c.Old != nil {
		old = c.Old.Text
	}
	var a, b strings.Builder
	for _, l := range c.Lines {
		a.WriteString(old[l.Old[0]:l.Old[1]])
		b.WriteString(v.Text[l.New[0]:l.New[1]])
		if l.Op == " " && old[l.Old[0]:l.Old[1]] != v.Text[l.New[0]:l.New[1]] {
			t.Errorf("%s: kept line %v differs", v.Path, l)
		}
	}
	if a.String() != old || b.String() != v.Text {
		t.Errorf("%s: the lines do not tile the two texts", v.Path)
	}
	inChanged := func(m [2]int, side func(DiffLine) [2]int) bool {
		for _, l := range c.Lines {
			r := side(l)
			if l.Op != " " && r[0] <= m[0] && m[1] <= r[1] {
				return true
			}
		}
		// A mark may span several changed lines: check its ends.
		start, end := false, false
		for _, l := range c.Lines {
			r := side(l)
			if l.Op != " " && r[0] <= m[0] && m[0] < r[1] {
				start = true
			}
			if l.Op != " " && r[0] < m[1] && m[1] <= r[1] {
				end = true
			}
		}
		return start && end
	}
	for _, m := range c.OldMarks {
		if !inChanged(m, func(l DiffLine) [2]int { return l.Old }) {
			t.Errorf("%s: old mark %v outside the removed lines", v.Path, m)
		}
	}
	for _, m := range c.NewMarks {
		if !inChanged(m, func(l DiffLine) [2]int { return l.New }) {
			t.Errorf("%s: new mark %v outside the added lines", v.Path, m)
		}
	}
	if want == nil {
		if c.Change != nil || c.Status != StatusSame || len(c.OldMarks)+len(c.NewMarks) > 0 {
			t.Errorf("%s: status %s, change %+v, marks %v %v; want the same", v.Path, c.Status, c.Change, c.OldMarks, c.NewMarks)
		}
		return
	}
	if c.Change == nil || c.Change.Offset != want.Offset || c.Change.Block != want.Block || c.Change.InvalidatedTokens != want.InvalidatedTokens || c.Change.Diff != want.Diff {
		t.Errorf("%s: change %+v, want promptc diff's %+v", v.Path, c.Change, want)
	}
}

// TestBaseGlobalConstant: a commit that changes a global constant changes every runbook; the preview shows what
// promptc diff reports (the same first byte, block and tokens lost), marks the changed bytes, and counts per task
// the cached prefix before and after.
func TestBaseGlobalConstant(t *testing.T) {
	dir := committed(t)
	edit(t, dir, "blocks/main.toml", "Never run", "Do not ever run")
	want, err := guard.Diff(dir, "HEAD", guard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	changes := map[string]*guard.Change{}
	for _, c := range want.Report.Changes {
		changes[c.Path] = c
	}
	snap, err := Load(dir, Options{Base: "HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	ix := snap.Index()
	if ix.Base != "HEAD" {
		t.Errorf("index base %q", ix.Base)
	}
	for _, e := range ix.Artifacts {
		wantStatus := StatusSame
		if changes[e.Path] != nil {
			wantStatus = StatusChanged
		}
		if e.Status != wantStatus {
			t.Errorf("%s: status %q, want %q", e.Path, e.Status, wantStatus)
		}
		v, err := snap.Artifact(e.Path, "anthropic")
		if err != nil {
			t.Fatal(err)
		}
		checkComparison(t, v, changes[e.Path])
	}
	v, err := snap.Artifact("chat/basic.runbook.md", "anthropic")
	if err != nil {
		t.Fatal(err)
	}
	c := v.Base
	if len(c.OldMarks) != 1 || len(c.NewMarks) != 1 {
		t.Fatalf("marks %v %v, want one each", c.OldMarks, c.NewMarks)
	}
	if got := c.Old.Text[c.OldMarks[0][0]:c.OldMarks[0][1]]; got != "Never" {
		t.Errorf("old mark %q, want %q", got, "Never")
	}
	if got := v.Text[c.NewMarks[0][0]:c.NewMarks[0][1]]; got != "Do not ever" {
		t.Errorf("new mark %q, want %q", got, "Do not ever")
	}
	if c.Old.Provider != "anthropic" || len(c.Old.Segments) == 0 {
		t.Errorf("the old side lacks its breakpoints or segments: %+v", c.Old)
	}

	b := snap.Base()
	if b == nil || b.Rev != "HEAD" || b.Title != want.Title() || b.Changed[StatusChanged] != len(want.Report.Changes) {
		t.Fatalf("Base() = %+v", b)
	}
	if len(b.Tasks) != 2 {
		t.Fatalf("%d task rows, want 2", len(b.Tasks))
	}
	for _, tp := range b.Tasks {
		ch := changes[tp.Artifact]
		if ch == nil || tp.Lost != ch.InvalidatedTokens || tp.Lost == 0 || tp.Scope != "global" || tp.Block != "rules" {
			t.Errorf("%s: lost %d (scope %s, block %s), want promptc diff's %+v", tp.Task, tp.Lost, tp.Scope, tp.Block, ch)
		}
		if tp.Before == nil || tp.Kept >= tp.Before.Tokens || tp.Kept+tp.Lost < tp.Before.Tokens-1 || tp.Kept+tp.Lost > tp.Before.Tokens+1 {
			t.Errorf("%s: kept %d + lost %d against %+v", tp.Task, tp.Kept, tp.Lost, tp.Before)
		}
	}
	// The JSON a page reads: the change in promptc diff --format json's form.
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"change":{"path":"chat/basic.runbook.md","status":"changed"`) {
		t.Errorf("the view's change is not promptc diff's JSON: %.300s", raw[strings.Index(string(raw), `"change"`):])
	}
}

// TestBaseTurnOnly: a commit that changes only turn text changes the turn messages, no runbook, and no cached token
// is lost.
func TestBaseTurnOnly(t *testing.T) {
	dir := committed(t)
	edit(t, dir, "blocks/main.toml", "Question:", "Asked:")
	snap, err := Load(dir, Options{Base: "HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range snap.Index().Artifacts {
		want := StatusSame
		if e.Kind == "turn" {
			want = StatusChanged
		}
		if e.Status != want {
			t.Errorf("%s: status %q, want %q", e.Path, e.Status, want)
		}
	}
	b := snap.Base()
	for _, tp := range b.Tasks {
		if tp.Lost != 0 || tp.TaskLost != 0 || tp.Status != StatusSame || tp.Kept != tp.Before.Tokens {
			t.Errorf("%s: %+v, want nothing lost", tp.Task, tp)
		}
	}
	if b.Summary.InvalidatedTokens != 0 || !strings.Contains(strings.Join(b.Summary.Lines, "\n"), "no cached prefix is lost") {
		t.Errorf("summary %+v", b.Summary)
	}
}

// TestBaseAddedRemoved: a fixture gone since the revision leaves its artifacts viewable as removed (the revision's
// bytes); one new is added, with nothing old.
func TestBaseAddedRemoved(t *testing.T) {
	dir := committed(t)
	if err := os.Rename(filepath.Join(dir, "fixtures", "basic.toml"), filepath.Join(dir, "fixtures", "other.toml")); err != nil {
		t.Fatal(err)
	}
	snap, err := Load(dir, Options{Base: "HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	statuses := map[string]string{}
	for _, e := range snap.Index().Artifacts {
		statuses[e.Path] = e.Status
	}
	if statuses["chat/basic.runbook.md"] != StatusRemoved || statuses["chat/other.runbook.md"] != StatusAdded {
		t.Fatalf("statuses %v", statuses)
	}
	v, err := snap.Artifact("chat/basic.runbook.md", "anthropic")
	if err != nil {
		t.Fatal(err)
	}
	if v.Text != "" || v.Base.Old == nil || v.Base.Old.Text == "" || v.Status != StatusRemoved {
		t.Fatalf("removed view: text %q, base %+v", v.Text, v.Base)
	}
	for _, l := range v.Base.Lines {
		if l.Op != "-" {
			t.Errorf("a removed artifact's line %v", l)
		}
	}
	checkComparison(t, v, v.Base.Change)
	v, err = snap.Artifact("chat/other.runbook.md", "")
	if err != nil {
		t.Fatal(err)
	}
	if v.Base.Old != nil || v.Base.Status != StatusAdded || len(v.Base.NewMarks) != 1 || v.Base.NewMarks[0] != [2]int{0, len(v.Text)} {
		t.Errorf("added view: %+v", v.Base)
	}
	if _, err := snap.Explain("chat/basic.runbook.md", 1); err == nil {
		t.Error("a removed artifact's line is explained from the working tree")
	}
}

// TestBaseErrors: a revision git does not know, or a directory outside any repository, is Load's error.
func TestBaseErrors(t *testing.T) {
	dir := committed(t)
	if _, err := Load(dir, Options{Base: "no-such-rev"}); err == nil || !strings.Contains(err.Error(), "no-such-rev") {
		t.Errorf("unknown revision: %v", err)
	}
	if _, err := New(dir, Options{Base: "no-such-rev"}); err == nil {
		t.Error("New with an unknown revision succeeded")
	}
	srv, err := New(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rec := get(t, srv, "GET", "/api/base", "127.0.0.1"); rec.Code != 404 || !strings.Contains(rec.Body.String(), "--base") {
		t.Errorf("/api/base without a base: %d %s", rec.Code, rec.Body)
	}
	srv, err = New(dir, Options{Base: "HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	if rec := get(t, srv, "GET", "/api/base", "127.0.0.1"); rec.Code != 200 || !strings.Contains(rec.Body.String(), `"rev":"HEAD"`) {
		t.Errorf("/api/base: %d %s", rec.Code, rec.Body)
	}
}

func TestLineDiffMarks(t *testing.T) {
	tests := []struct {
		name, a, b string
		oldM, newM [][2]int
	}{
		{"same", "x\n", "x\n", [][2]int{}, [][2]int{}},
		{"a word", "one two\n", "one three\n", [][2]int{{4, 7}}, [][2]int{{4, 9}}},
		{"a line added", "a\n", "a\nb\n", [][2]int{}, [][2]int{{2, 4}}},
		{"a line removed", "a\nb\n", "a\n", [][2]int{{2, 4}}, [][2]int{}},
		{"words, not characters", "Never run it\n", "Do not ever run it\n", [][2]int{{0, 5}}, [][2]int{{0, 11}}},
		{"a word of another script", "naïve café\n", "naïve cafe\n", [][2]int{{7, 12}}, [][2]int{{7, 11}}},
		{"punctuation alone", "a, b\n", "a; b\n", [][2]int{{1, 2}}, [][2]int{{1, 2}}},
		{"a byte that is not UTF-8 stays in its word", "a\xff b\n", "c\xff b\n", [][2]int{{0, 2}}, [][2]int{{0, 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, om, nm := lineDiff(tt.a, tt.b)
			if !equalMarks(om, tt.oldM) || !equalMarks(nm, tt.newM) {
				t.Errorf("marks %v %v, want %v %v", om, nm, tt.oldM, tt.newM)
			}
		})
	}
}

func equalMarks(a, b [][2]int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// FuzzLineDiff: whatever the texts, the marks lie inside them, in order, without overlap.
func FuzzLineDiff(f *testing.F) {
	f.Add("one two\n", "one three\n")
	f.Add("a\xff\n", "b\xff\n")
	f.Add("é1\n", "é2\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		lines, om, nm := lineDiff(a, b)
		if len(lines) == 0 && (a != "" || b != "") {
			t.Fatal("no lines")
		}
		for _, side := range []struct {
			marks [][2]int
			n     int
		}{{om, len(a)}, {nm, len(b)}} {
			last := -1
			for _, m := range side.marks {
				if m[0] <= last || m[1] <= m[0] || m[1] > side.n {
					t.Fatalf("marks %v in %d bytes", side.marks, side.n)
				}
				last = m[1]
			}
		}
	})
}
