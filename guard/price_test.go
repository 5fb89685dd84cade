package guard

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/projection"
)

// tracker copies the reference project into dir, golden/ included, and returns it loaded with edit applied to
// the file at path (when path is not "", and written back to dir).
func tracker(t *testing.T, dir, path string, edit func(string) string) *assemble.Program {
	t.Helper()
	src := os.DirFS("../examples/tracker")
	fsys := fstest.MapFS{}
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(src, p)
		if p == path {
			b = []byte(edit(string(b)))
		}
		if !strings.HasPrefix(p, "golden/") {
			fsys[p] = &fstest.MapFile{Data: b}
		}
		if dir != "" {
			out := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				return err
			}
			return os.WriteFile(out, b, 0o644)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	prog, diags := assemble.Load(fsys)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	return prog
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.email=dev@example.com", "-c", "user.name=Dev"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// CheckDir prices the change against the project committed at HEAD, whose artifacts golden/ holds, as Diff prices
// the program before against the one after: the same figures, and each scope's rule (docs/usage.md).
func TestCheckPricesAsDiff(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	traffic := []projection.Traffic{{Task: "chat", Model: "claude-sonnet-4-5", RequestsPerDay: 1000}, {Task: "issue", Model: "claude-sonnet-4-5", RequestsPerDay: 2000}}
	same := func(s string) string { return s }
	before := tracker(t, "", "", same)
	cases := []struct {
		name    string
		path    string
		edit    func(string) string
		steady  bool // the per-day figure is not 0
		oneTime bool // the one-time figure is not 0
	}{
		{"session block ahead of the task blocks", "promptc.toml", func(s string) string {
			s = strings.Replace(s, "  # global\n  \"header\",", "  # global\n  \"identity\",\n  \"header\",", 1)
			return strings.Replace(s, "  # session\n  \"identity\",", "  # session", 1)
		}, true, true},
		{"global prefix", "blocks/00-core.toml", func(s string) string {
			return strings.Replace(s, "plan, build and review", "plan, make and review", 1)
		}, false, true},
		{"turn message", "blocks/40-turn.toml", func(s string) string {
			return strings.Replace(s, "Read it first with", "Read it with", 1)
		}, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tracker(t, dir, "", same)
			git(t, dir, "init", "-q")
			git(t, dir, "add", ".")
			git(t, dir, "commit", "-q", "-m", "tracker")
			after := tracker(t, dir, tc.path, tc.edit)
			res, err := CheckDir(dir, Options{Traffic: traffic})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Changed() {
				t.Fatal("no change")
			}
			invalidated := map[string]int{}
			for _, c := range res.Report.Changes {
				if c.Kind == blocks.Runbook && c.InvalidatedTokens > invalidated[c.Task] {
					invalidated[c.Task] = c.InvalidatedTokens
				}
			}
			cat, err := projection.NewCatalog(after.Project.Models)
			if err != nil {
				t.Fatal(err)
			}
			want, err := projection.PriceChange(before, after, invalidated, traffic, cat, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Prices) != len(want) {
				t.Fatalf("prices %v, want %v", res.Prices, want)
			}
			for i := range want {
				if got := res.Prices[i].Line(); got != want[i].Line() {
					t.Errorf("check: %s\ndiff:  %s", got, want[i].Line())
				}
				p := res.Prices[i]
				if (p.PerDay != 0) != tc.steady || (p.OneTime != 0) != tc.oneTime {
					t.Errorf("%s: steady %v, one-time %v; want %v, %v", p.Line(), p.PerDay != 0, p.OneTime != 0, tc.steady, tc.oneTime)
				}
			}
			// golden/ out of step with HEAD: nothing to replay, nothing priced.
			if err := os.WriteFile(filepath.Join(dir, "golden", "chat", "basic.turn-1.md"), []byte("edited\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if res, err := CheckDir(dir, Options{Traffic: traffic}); err != nil || res.Prices != nil {
				t.Errorf("golden/ edited: prices %v, %v; want none", res.Prices, err)
			}
		})
	}
}
