package importer

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/promptc/promptc/guard"
	"github.com/promptc/promptc/internal/testenv"
)

// testdataFiles are the real context files of testdata/ (see testdata/README.md), with the normalisations each
// import must list: an empty list means the runbook is the file, byte for byte.
var testdataFiles = []struct {
	file  string
	task  string
	norms []string
}{
	{file: "mcp-python-sdk.AGENTS.md", task: "mcp_python_sdk_agents"},
	{file: "pydantic-ai.AGENTS.md", task: "pydantic_ai_agents"},
	{file: "uv.AGENTS.md", task: "uv_agents"},
	{file: "github-mcp-server.copilot-instructions.md", task: "github_mcp_server_copilot_instructions",
		norms: []string{"github-mcp-server.copilot-instructions.md:291: final newline added"}},
	{file: "awesome-cursorrules.go-servemux.mdc", task: "awesome_cursorrules_go_servemux"},
}

func TestTestdata(t *testing.T) {
	for _, tc := range testdataFiles {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Import([]Source{{Name: tc.file, Data: data}})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Tasks, []string{tc.task}) {
				t.Errorf("tasks = %q, want [%q]", res.Tasks, tc.task)
			}
			if got := normStrings(res); !slices.Equal(got, tc.norms) {
				t.Errorf("normalisations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.norms, "\n"))
			}
			want := string(data)
			if len(tc.norms) > 0 {
				want += "\n" // the one normalisation listed: a final newline
			}
			if got := res.Runbooks[tc.task]; got != want {
				t.Errorf("runbook differs from the file at byte %d", firstDiff(got, want))
			}
			again, err := Import([]Source{{Name: tc.file, Data: data}})
			if err != nil {
				t.Fatal(err)
			}
			for p, b := range res.Files {
				if string(again.Files[p]) != string(b) {
					t.Errorf("a second import wrote other bytes in %s", p)
				}
			}
		})
	}
}

func normStrings(res *Result) []string {
	var out []string
	for _, n := range res.Normalisations {
		out = append(out, n.String())
	}
	return out
}

func readMulti(t *testing.T) []Source {
	t.Helper()
	var srcs []Source
	for _, f := range []string{"review.md", "fix.md"} {
		data, err := os.ReadFile(filepath.Join("testdata", "multi", f))
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, Source{Name: f, Data: data})
	}
	return srcs
}

// TestMulti imports two task kinds sharing sections: the preamble and Safety are identical and in the same place
// (global blocks); Commands differ (one block per task); Style and ## Output are identical in both files but in
// opposite orders, so one order cannot hold both shared: Style is shared (the first of the longest common
// subsequences), and each file's Output is a block of its own.
func TestMulti(t *testing.T) {
	srcs := readMulti(t)
	res, err := Import(srcs)
	if err != nil {
		t.Fatal(err)
	}
	for i, task := range []string{"review", "fix"} {
		if got, want := res.Runbooks[task], string(srcs[i].Data); got != want {
			t.Errorf("%s: runbook differs from the file at byte %d", task, firstDiff(got, want))
		}
	}
	if len(res.Normalisations) != 0 {
		t.Errorf("normalisations: %v", res.Normalisations)
	}
	wantManifest := `# Imported by promptc import from review.md, fix.md.
# Each task's runbook reproduces its file; check that with: promptc check
name  = "imported"
tasks = ["review", "fix"]

[runbook]
order = [
  "preamble",
  "safety",
  "commands",
  "review",
  "output",
  "style",
  "commands-fix",
  "fix",
  "output-fix",
]
`
	if got := string(res.Files["promptc.toml"]); got != wantManifest {
		t.Errorf("promptc.toml:\n%s\nwant:\n%s", got, wantManifest)
	}
	shared := string(res.Files["blocks/shared.toml"])
	for _, want := range []string{"id    = \"preamble\"\nbody", "id    = \"safety\"\ntitle = \"Safety\"\nlevel = 1\nbody", "id    = \"style\"\n"} {
		if !strings.Contains(shared, want) {
			t.Errorf("blocks/shared.toml lacks %q:\n%s", want, shared)
		}
	}
	if res.Blocks != 9 || res.Shared != 3 {
		t.Errorf("blocks, shared = %d, %d; want 9, 3", res.Blocks, res.Shared)
	}
}

// TestNormalisations lists what promptc's rules cannot reproduce, each where it is.
func TestNormalisations(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		norms          []string
	}{
		{name: "exact", in: "# A\n\ntext\n\n## B\n\nmore\n", want: "# A\n\ntext\n\n## B\n\nmore\n"},
		{name: "no final newline", in: "# A\n\ntext", want: "# A\n\ntext\n",
			norms: []string{"f.md:3: final newline added"}},
		{name: "blank lines between", in: "# A\n\ntext\n\n\n\n## B\n\nmore\n", want: "# A\n\ntext\n\n## B\n\nmore\n",
			norms: []string{"f.md:4: 3 blank lines between sections become one"}},
		{name: "trailing space at section end", in: "text  \n\n## B\n\nmore\n", want: "text\n\n## B\n\nmore\n",
			norms: []string{"f.md:1: trailing white space at the end of a section removed"}},
		{name: "trailing space inside a body is kept", in: "line  \nnext\n", want: "line  \nnext\n"},
		{name: "blank line with spaces", in: "text\n  \n## B\n\nmore\n", want: "text\n\n## B\n\nmore\n",
			norms: []string{"f.md:2: white space on a blank line removed"}},
		{name: "blank lines at the ends", in: "\n\ntext\n\n\n", want: "text\n",
			norms: []string{"f.md:1: 2 blank lines at the start of the file removed", "f.md:4: 2 blank lines at the end of the file removed"}},
		{name: "crlf", in: "# A\r\n\r\ntext\r\n", want: "# A\n\ntext\n",
			norms: []string{"f.md:1: CRLF line endings become LF (3 lines)"}},
		{name: "bom", in: "\uFEFFtext\n", want: "text\n", norms: []string{"f.md:1: byte order mark removed"}},
		{name: "white space only", in: " \n\n", want: "", norms: []string{"f.md:1: the file holds only white space: its runbook is empty"}},
		{name: "empty", in: "", want: ""},
		{name: "heading under text stays in its section", in: "text\n## B\n\nmore\n", want: "text\n## B\n\nmore\n"},
		{name: "headings in a fence", in: "```sh\n\n# comment\n```\n\n# A\n\nx\n", want: "```sh\n\n# comment\n```\n\n# A\n\nx\n"},
		{name: "template syntax", in: "# {{.x}}\n\nUse {{ and }} freely.\n", want: "# {{.x}}\n\nUse {{ and }} freely.\n"},
		{name: "quotes and backslashes", in: "# A\n\n'''\n\"\"\" \\n \\\n", want: "# A\n\n'''\n\"\"\" \\n \\\n"},
		{name: "control character", in: "a\x01b\x7f\n", want: "a\x01b\x7f\n"},
		{name: "heading forms kept in the body", in: "#  A\n\nx\n\n## B ##\n\ny\n\n### C\n\n\nz\n\n#### D\n", want: "#  A\n\nx\n\n## B ##\n\ny\n\n### C\n\n\nz\n\n#### D\n"},
		{name: "invisible character", in: "# A\n\nzero\u200bwidth\n", want: "# A\n\nzero\u200bwidth\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Import([]Source{{Name: "f.md", Data: []byte(tc.in)}})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Runbooks["f"]; got != tc.want {
				t.Errorf("runbook = %q, want %q", got, tc.want)
			}
			if got := normStrings(res); !slices.Equal(got, tc.norms) {
				t.Errorf("normalisations = %q, want %q", got, tc.norms)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		srcs []Source
		want string
	}{
		{name: "none", want: "no files to import"},
		{name: "invalid utf-8", srcs: []Source{{Name: "a.md", Data: []byte("ok\n\xff")}},
			want: "a.md:2: not valid UTF-8 (byte 3): promptc sources are UTF-8"},
		{name: "same task", srcs: []Source{{Name: "a/review.md"}, {Name: "b/REVIEW.md"}},
			want: `a/review.md and b/REVIEW.md are both imported as task "review": name the tasks yourself (promptc import --task NAME=FILE)`},
		{name: "bad task", srcs: []Source{{Name: "a.md", Task: "Review"}},
			want: `task name "Review" for a.md is not valid: task names match [a-z][a-z0-9_]*`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Import(tc.srcs)
			if err == nil || err.Error() != tc.want {
				t.Errorf("error = %v, want %s", err, tc.want)
			}
		})
	}
}

func TestTaskName(t *testing.T) {
	for in, want := range map[string]string{
		"review.md":                       "review",
		"CLAUDE.md":                       "claude",
		"prompts/AGENTS.md":               "agents",
		".github/copilot-instructions.md": "copilot_instructions",
		".cursorrules":                    "cursorrules",
		"go.mdc":                          "go",
		"2fa-help.txt":                    "task_2fa_help",
		"--.md":                           "task",
		"notes.v2.markdown":               "notes_v2",
	} {
		if got := TaskName(in); got != want {
			t.Errorf("TaskName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWrite(t *testing.T) {
	res, err := Import(readMulti(t))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	written, err := res.Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".gitignore", "blocks/fix.toml", "blocks/review.toml", "blocks/shared.toml", "golden/.gitattributes",
		"golden/fix/default.runbook.md", "golden/review/default.runbook.md", "promptc.toml"}
	if !slices.Equal(written, want) {
		t.Errorf("written = %q, want %q", written, want)
	}
	for _, task := range res.Tasks {
		got, err := os.ReadFile(filepath.Join(dir, "golden", task, "default.runbook.md"))
		if err != nil || string(got) != res.Runbooks[task] {
			t.Errorf("golden runbook of %s differs from the input (%v)", task, err)
		}
	}
	chk, err := guard.CheckDir(dir, guard.Options{})
	if err != nil || !chk.Passed() {
		t.Fatalf("check after import: %v, passed %v", err, chk != nil && chk.Passed())
	}

	_, err = res.Write(dir)
	if err == nil || !strings.Contains(err.Error(), "already holds blocks/fix.toml, blocks/review.toml, blocks/shared.toml, golden/, promptc.toml: import writes a new project and overwrites nothing") {
		t.Errorf("second write: %v", err)
	}

	// An existing .gitignore is left alone, and does not stop the import.
	dir2 := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir2, ".gitignore"), []byte("node_modules/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := res.Write(dir2); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir2, ".gitignore")); string(b) != "node_modules/\n" {
		t.Errorf(".gitignore = %q", b)
	}
}

// TestVerifyCatchesADifference: the check Import ends with fails when the project's runbook and the input differ by
// one byte, or when a task renders nothing, so an importer bug can never pass silently.
func TestVerifyCatchesADifference(t *testing.T) {
	r, err := Import([]Source{{Name: "review.md", Data: []byte("# Review\n\nRead the diff.\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.verify(); err != nil {
		t.Fatalf("a correct import fails its check: %v", err)
	}
	for task, want := range r.Runbooks {
		r.Runbooks[task] = want[:len(want)-2] + "!\n"
		if err := r.verify(); err == nil || !strings.Contains(err.Error(), "differs from its input") {
			t.Errorf("a runbook one byte off passes the check: %v", err)
		}
		r.Runbooks[task] = want
	}
}

// TestRepeatedHeadings: ids of a repeated heading take the task's name, then the first free number, whatever the
// other headings took; the search for a free number resumes where the last one ended (see assignIDs).
func TestRepeatedHeadings(t *testing.T) {
	md := "## S\n\na\n\n## S 2\n\nb\n\n## S\n\nc\n\n## S\n\nd\n\n## S 4\n\ne\n\n## S\n\nf\n\n## S\n\ng\n"
	res, err := Import([]Source{{Name: "t.md", Data: []byte(md)}})
	if err != nil {
		t.Fatal(err)
	}
	want := `order = [
  "s",
  "s-2",
  "s-t",
  "s-3",
  "s-4",
  "s-5",
  "s-6",
]
`
	if got := string(res.Files["promptc.toml"]); !strings.HasSuffix(got, want) {
		t.Errorf("promptc.toml:\n%s\nwant it to end with:\n%s", got, want)
	}
}

func TestTooLarge(t *testing.T) {
	want := "big.md holds more than the 8 MiB (8388608 bytes) promptc import reads: split it into several files and import those"
	_, err := Import([]Source{{Name: "big.md", Data: make([]byte, MaxSourceBytes+1)}})
	if err == nil || err.Error() != want {
		t.Errorf("Import: error = %v, want %s", err, want)
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		testenv.Absent(t, "no named pipes here: %v", err)
	}
	// A writer that never stops: ReadSource reads no more than the limit and one byte, then closes the pipe.
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		chunk := make([]byte, 1<<16)
		for {
			if _, err := f.Write(chunk); err != nil {
				return
			}
		}
	}()
	want = "fifo holds more than the 8 MiB (8388608 bytes) promptc import reads: split it into several files and import those"
	if _, err := ReadSource("fifo", fifo, ""); err == nil || err.Error() != want {
		t.Errorf("ReadSource: error = %v, want %s", err, want)
	}
}
