package guard

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/golden"
	"github.com/promptc/promptc/internal/testenv"
	"github.com/promptc/promptc/lint"
	"github.com/promptc/promptc/source"
)

// ckProgram compiles a project held in memory; it fails the test on diagnostics.
func ckProgram(t *testing.T, files map[string]string) *assemble.Program {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, text := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(text)}
	}
	prog, diags := assemble.Load(fsys)
	if len(diags) > 0 {
		t.Fatalf("project does not compile:\n%s", diags)
	}
	return prog
}

// ckGolden writes the artifacts of files as a golden tree in a new directory and returns it.
func ckGolden(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "golden")
	if _, err := golden.Update(dir, cmpTree(cmpBuild(t, files))); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCheckClean(t *testing.T) {
	dir := ckGolden(t, rpOld)
	tok := cmpFreshCounter(t)
	res, err := Check(ckProgram(t, rpOld), dir, Options{Counter: tok})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed() || res.Changed() || len(res.Findings) != 0 {
		t.Errorf("clean check: Passed %v, Changed %v, findings %v", res.Passed(), res.Changed(), res.Findings)
	}
	// A pre-commit hook runs check on every commit: when nothing differs, no vocabulary is loaded.
	if n, loaded := tok.Counted(); loaded || n != 0 {
		t.Errorf("a clean check counted tokens")
	}
	var b bytes.Buffer
	if err := res.WriteText(&b, TextOptions{}); err != nil || b.Len() != 0 {
		t.Errorf("clean check wrote %q, %v; want nothing", b.String(), err)
	}
	if want := "promptc check: 0 artifacts differ from golden/"; res.Title() != want {
		t.Errorf("title %q, want %q", res.Title(), want)
	}
}

func TestCheckChanged(t *testing.T) {
	dir := ckGolden(t, rpOld)
	res, err := Check(ckProgram(t, rpNew(t)), dir, Options{Counter: cmpExpectCounter(t)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Passed() || !res.Changed() {
		t.Fatalf("Passed %v, Changed %v; want a failing, changed result", res.Passed(), res.Changed())
	}
	// The same report as comparing golden bytes by hand, as promptc check always did.
	var got, want bytes.Buffer
	if err := res.WriteText(&got, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	r := Compare(
		Side{Label: "golden", Dir: "golden/", Arts: FromBytes(cmpTree(cmpBuild(t, rpOld)))},
		Side{Label: "build", Dir: "build/", Arts: cmpBuild(t, rpNew(t))},
		cmpExpectCounter(t))
	if err := (&Result{Report: r, check: true}).WriteText(&want, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("Check's report:\n%s\nwant\n%s", got.String(), want.String())
	}
}

// TestCheckMissingGolden: no golden tree at all is an empty one: every artifact is new.
func TestCheckMissingGolden(t *testing.T) {
	res, err := Check(ckProgram(t, rpOld), filepath.Join(t.TempDir(), "golden"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Report.Changes {
		if c.Status != golden.Added {
			t.Errorf("%s: %v, want added", c.Path, c.Status)
		}
	}
	if n := len(res.Report.Changes); n != len(cmpBuild(t, rpOld)) {
		t.Errorf("%d changes, want every artifact", n)
	}
	// The text report is a summary by task, not every byte; Verbose writes them all.
	if !res.NoGolden {
		t.Fatalf("NoGolden not set")
	}
	var b bytes.Buffer
	if err := res.WriteText(&b, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	want := "promptc check: no golden files yet: 7 artifacts to accept\n" +
		"  chat: 1 runbook, 2 turn messages (109 bytes)\n" +
		"  issue: 2 runbooks, 2 turn messages (270 bytes)\n"
	if b.String() != want {
		t.Errorf("summary =\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := res.WriteText(&b, TextOptions{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "+++ build/issue/a.runbook.md\n") {
		t.Errorf("verbose report lacks the diff of issue/a.runbook.md:\n%s", b.String())
	}
}

// TestCheckErrors: an artifact that cannot render is a source.Diagnostics; an unreadable golden tree an error that
// says so.
func TestCheckErrors(t *testing.T) {
	files := map[string]string{
		"promptc.toml": "name = \"acme\"\ntasks = [\"t\"]\n\n[runbook]\norder = [\"who\"]\n\n" +
			"[vars.agent_name]\nscope = \"session\"\ntype = \"string\"\nrequired = true\n",
		"blocks/main.toml": "[[block]]\nid = \"who\"\nbody = \"You are {{.agent_name}}.\"\n",
	}
	// No fixtures: the implicit one, which sets no values, cannot render the runbook.
	_, err := Check(ckProgram(t, files), t.TempDir(), Options{})
	var diags source.Diagnostics
	if !errors.As(err, &diags) || len(diags) == 0 {
		t.Errorf("Check of a fixture missing a required value: error %v, want diagnostics", err)
	}
	if _, err := Update(ckProgram(t, files), t.TempDir()); !errors.As(err, &diags) {
		t.Errorf("Update of a fixture missing a required value: error %v, want diagnostics", err)
	}

	notDir := filepath.Join(t.TempDir(), "golden")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Check(ckProgram(t, rpOld), notDir, Options{}); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("Check of a golden tree that is a file: error %v", err)
	}
}

// TestCheckLintErrors: an error-level finding fails the result without any change, and every writer shows it.
func TestCheckLintErrors(t *testing.T) {
	files := map[string]string{
		"promptc.toml": "name = \"acme\"\ntasks = [\"t\"]\n\n[runbook]\norder = [\"rules\", \"again\"]\n",
		"blocks/main.toml": `[const]
boundary = "Run only the commands listed in this runbook."

[[block]]
id   = "rules"
body = """{{const "boundary"}}"""

[[block]]
id   = "again"
body = "Run only the commands listed in this runbook."
`,
	}
	res, err := Check(ckProgram(t, files), ckGolden(t, files), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Passed() || res.Changed() || len(res.Findings) != 1 {
		t.Fatalf("Passed %v, Changed %v, findings %v; want one finding and no change", res.Passed(), res.Changed(), res.Findings)
	}
	var text, md, js, ann bytes.Buffer
	if err := res.WriteText(&text, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	var findings bytes.Buffer
	lint.WriteText(&findings, res.Findings)
	if text.String() != findings.String() {
		t.Errorf("text of a result with findings only:\n%s\nwant the findings as promptc lint prints them:\n%s", text.String(), findings.String())
	}
	if err := res.WriteMarkdown(&md, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "\n**Lint errors** (as `promptc lint` prints them):\n\n```text\n"+findings.String()+"```\n") {
		t.Errorf("markdown lacks the findings:\n%s", md.String())
	}
	if err := res.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var decoded struct {
		Findings []struct{ Lint string } `json:"findings"`
	}
	if err := json.Unmarshal(js.Bytes(), &decoded); err != nil || len(decoded.Findings) != 1 || decoded.Findings[0].Lint != string(lint.PastedConstant) {
		t.Errorf("JSON findings = %+v, %v; want the pasted-constant finding", decoded.Findings, err)
	}
	if err := res.WriteAnnotations(&ann, "p/"); err != nil {
		t.Fatal(err)
	}
	if want := "::error file=p/blocks/main.toml,line=10,col=9::block \"again\" pastes"; !strings.HasPrefix(ann.String(), want) ||
		!strings.HasSuffix(ann.String(), " (pasted-constant); fix: replace the text with {{const \"boundary\"}}\n") {
		t.Errorf("annotations = %q", ann.String())
	}
}

func TestResultTitle(t *testing.T) {
	for n, want := range map[int][2]string{
		0: {"promptc check: 0 artifacts differ from golden/", "promptc diff v1: 0 artifacts changed"},
		1: {"promptc check: 1 artifact differs from golden/", "promptc diff v1: 1 artifact changed"},
		2: {"promptc check: 2 artifacts differ from golden/", "promptc diff v1: 2 artifacts changed"},
	} {
		r := &Report{Old: Side{Label: "v1"}, Changes: make([]*Change, n)}
		if got := (&Result{Report: r, check: true}).Title(); got != want[0] {
			t.Errorf("check title for %d: %q, want %q", n, got, want[0])
		}
		if got := (&Result{Report: r}).Title(); got != want[1] {
			t.Errorf("diff title for %d: %q, want %q", n, got, want[1])
		}
	}
}

func TestResultWriteNote(t *testing.T) {
	r := &Report{Old: Side{Label: "HEAD~2"}}
	var diags source.Diagnostics
	diags.Errorf(source.Range{Filename: "blocks/a.toml", Start: source.Pos{Line: 3, Column: 1}}, "bad")
	for _, tt := range []struct {
		res  *Result
		want string
	}{
		{&Result{Report: r}, ""},
		{&Result{Report: r, OldMissing: errors.New("no promptc project at revision \"HEAD~2\"")},
			"promptc: no promptc project at revision \"HEAD~2\"; comparing against nothing\n"},
		{&Result{Report: r, OldProblems: diags},
			"promptc: the project at HEAD~2 does not compile (1 problem); comparing against nothing:\nblocks/a.toml:3:1: bad\n"},
	} {
		var b bytes.Buffer
		if err := tt.res.WriteNote(&b); err != nil || b.String() != tt.want {
			t.Errorf("WriteNote = %q, %v; want %q", b.String(), err, tt.want)
		}
	}
}

// TestWriteAnnotations: the one annotation writer, for any diagnostic.
func TestWriteAnnotations(t *testing.T) {
	diags := []source.Diagnostic{
		{Summary: "no place at all"},
		{Severity: source.SeverityWarning, Summary: "a warning", Detail: "more", Subject: source.FileRange("fixtures/a.toml").Ptr()},
		{Summary: "50% done\nreally", Suggestion: "fix it", Subject: &source.Range{Filename: "blocks/a,b:c.toml", Start: source.Pos{Line: 2, Column: 0}}},
	}
	var b bytes.Buffer
	if err := WriteAnnotations(&b, "sub/", diags); err != nil {
		t.Fatal(err)
	}
	want := "::error::no place at all\n" +
		"::warning file=sub/fixtures/a.toml::a warning; more\n" +
		"::error file=sub/blocks/a%2Cb%3Ac.toml,line=2,col=1::50%25 done%0Areally; fix: fix it\n"
	if b.String() != want {
		t.Errorf("annotations =\n%s\nwant\n%s", b.String(), want)
	}
}

func TestUpdatedWriteText(t *testing.T) {
	for _, tt := range []struct {
		u    Updated
		want string
	}{
		{Updated{assemble.TreeChanges{Unchanged: 4}}, ""},
		{Updated{assemble.TreeChanges{Written: []string{"b/x.runbook.md"}, Removed: []string{"a/x.runbook.md", "c/\x1b.md"}, Unchanged: 1}},
			"promptc: removed golden/a/x.runbook.md\npromptc: wrote golden/b/x.runbook.md\npromptc: removed \"golden/c/\\x1b.md\"\n" +
				"promptc: 1 file in golden/ left unchanged\n"},
	} {
		var b bytes.Buffer
		if err := tt.u.WriteText(&b); err != nil || b.String() != tt.want {
			t.Errorf("WriteText = %q, %v; want %q", b.String(), err, tt.want)
		}
	}
}

// TestCheckDir: Check of a project directory, as promptc check runs it; a project that does not compile is an error
// listing its diagnostics.
func TestCheckDir(t *testing.T) {
	res, err := CheckDir(filepath.Join("..", "examples", "tracker"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed() || res.Title() != "promptc check: 0 artifacts differ from golden/" {
		t.Errorf("examples/tracker: Passed %v, title %q", res.Passed(), res.Title())
	}

	dir := t.TempDir()
	dfWrite(t, dir, map[string]string{
		"promptc.toml":     "name = \"acme\"\ntasks = [\"t\"]\n\n[runbook]\norder = [\"rules\"]\n",
		"blocks/main.toml": "[[block]]\nid = \"rules\"\nbody = \"{{.nope}}\"\n",
	})
	var diags source.Diagnostics
	if _, err := CheckDir(dir, Options{}); !errors.As(err, &diags) || !strings.Contains(diags.Error(), `undeclared variable "nope"`) {
		t.Errorf("CheckDir of a project that does not compile: error %v", err)
	}
	if _, err := UpdateDir(dir); !errors.As(err, &diags) || !strings.Contains(diags.Error(), `undeclared variable "nope"`) {
		t.Errorf("UpdateDir of a project that does not compile: error %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "golden")); err == nil {
		t.Error("UpdateDir of a project that does not compile wrote golden/")
	}
}

// TestCheckGoldenLink: a project whose golden/ is a symbolic link (to build/, say, which would make build && check
// pass whatever changed) is refused by CheckDir, Check, Update and Diff, the link named from the project root
// ("golden") by CheckDir, UpdateDir and Diff; nothing is written.
func TestCheckGoldenLink(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"promptc.toml":   "name = \"a\"\ntasks = [\"t\"]\n[runbook]\norder = [\"r\"]\n",
		"blocks/a.toml":  "[[block]]\nid = \"r\"\nbody = \"Rules.\"\n",
		"build/t/x.md":   "stale\n",
		"build/t/y.md":   "kept\n",
		"elsewhere/k.md": "keep\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("build", filepath.Join(root, "golden")); err != nil {
		testenv.Absent(t, "no symbolic links here: %v", err)
	}
	isLink := func(op string, err error, dir string) {
		t.Helper()
		var le *assemble.LinkError
		if !errors.As(err, &le) || le.Dir != dir || le.Rel != "" || le.Target != "build" {
			t.Errorf("%s error = %v, want a *assemble.LinkError for %s", op, err, dir)
		}
	}
	_, err := CheckDir(root, Options{})
	isLink("CheckDir", err, "golden")
	_, err = Diff(root, "HEAD", Options{})
	isLink("Diff", err, "golden")
	prog, diags := assemble.LoadDir(root)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	dir := filepath.Join(root, "golden")
	_, err = Check(prog, dir, Options{})
	isLink("Check", err, dir)
	_, err = Update(prog, dir)
	isLink("Update", err, dir)
	_, err = UpdateDir(root)
	isLink("UpdateDir", err, "golden")
	for name, want := range map[string]string{"build/t/x.md": "stale\n", "build/t/y.md": "kept\n"} {
		if got, err := os.ReadFile(filepath.Join(root, name)); err != nil || string(got) != want {
			t.Errorf("%s = %q, %v after the refusals; want %q", name, got, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "build", "t", "default.runbook.md")); err == nil {
		t.Error("an artifact was written through the link")
	}
}
