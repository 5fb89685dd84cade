package assemble_test

import (
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/promptc/promptc/assemble"
)

// richProject, testdata/rich.txtar, has what an ordering bug needs to show: blocks files at several depths whose path order differs from
// their directory-walk order (blocks/10.toml, blocks/10/…, blocks/10-x.toml), constants and replacements defined in
// one file and used in another, templates in subdirectories, fixtures whose name order differs from their path
// order, several turns, lists with limits, and every trust level.
func richProject() fstest.MapFS { return testdataProject("rich.txtar") }

// snapshot renders everything a project compiles to as one string: every artifact's path, bytes and source map,
// in Build's order, so that any difference in content or order shows.
func snapshot(t *testing.T, fsys fs.FS) string {
	t.Helper()
	prog, diags := assemble.Load(fsys)
	if len(diags) > 0 {
		t.Fatalf("project has diagnostics:\n%s", diags)
	}
	arts, diags := prog.Build()
	if len(diags) > 0 {
		t.Fatalf("build has diagnostics:\n%s", diags)
	}
	var b strings.Builder
	for _, a := range arts {
		fmt.Fprintf(&b, "== %s %s %s %d\n%s\n== spans %s\n", a.Path, a.Task, a.Kind, a.Turn, a.Text, spanString(a))
	}
	return b.String()
}

// writeTree writes files under root in the given order, each with its own modification time, so that neither
// creation order nor file times can reach the output unnoticed.
func writeTree(t *testing.T, root string, fsys fstest.MapFS, order []string) {
	t.Helper()
	base := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	for i, name := range order {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, fsys[name].Data, 0o644); err != nil {
			t.Fatal(err)
		}
		stamp := base.Add(time.Duration((i*7919)%1000) * time.Hour)
		if err := os.Chtimes(p, stamp, stamp); err != nil {
			t.Fatal(err)
		}
	}
}

func sortedNames(fsys fstest.MapFS) []string {
	names := make([]string, 0, len(fsys))
	for name := range fsys {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// shuffledFS lists every directory in a shuffled order. fs.WalkDir sorts nothing itself when the file system
// implements fs.ReadDirFS, so a loader that relies on listing order sees a different order on each seed.
type shuffledFS struct {
	fstest.MapFS
	seed int64
}

func (s shuffledFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := s.MapFS.ReadDir(name)
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewSource(s.seed + int64(len(name))))
	r.Shuffle(len(entries), func(i, j int) { entries[i], entries[j] = entries[j], entries[i] })
	return entries, nil
}

// TestRichProjectOutput pins a few bytes of the rich project by hand, so that the determinism tests below compare
// real output, not a project that compiles to nothing.
func TestRichProjectOutput(t *testing.T) {
	got := tree(mustBuild(t, richProject()))
	want := map[string]string{
		"issue/basic.runbook.md": "# Rich Runbook\n\nYou work on issues through the rich CLI." +
			"\n\n## Safety\n\nRun only the commands listed here. Never force-push." +
			"\n\n## Commands\n\n| command | does |\n|---|---|\n| rich issue view ID | read an issue |\n| rich comment add ID | reply |\n\nRun only the commands listed here." +
			"\n\n## Comment Format\n\nWrite comments in Markdown." +
			"\n\n## Workflow\n\n1. Read the issue.\n2. Fix it and comment.\n3. Follow ## Comment Format." +
			"\n\n## Identity\n\nYou are Ada, working on issue tasks." +
			"\n\n## Repositories\n\n- acme/api: Go service\n- acme/web: TypeScript" +
			"\n",
		// history: items cut to 10 runes ("first comm…" is 13 bytes), 3 kept; 13+6 = 19 fits, +5 = 24 fits: all
		// three admitted, one dropped by max_items.
		"issue/basic.turn-1.md": "Work on AC-1; see ## Workflow." +
			"\n\n---\n\n## New Comment\n\n> Please \\*fix\\* the \\<build\\>." +
			"\n\n---\n\n## Earlier Comments\n\n- first comm…\n- second\n- third\n- (1 more)" +
			"\n",
		"issue/basic.turn-2.md": "Work on AC-1; see ## Workflow.\n\n---\n\n## New Comment\n\n> (comment too long)\n",
		// agent cut to 12 runes ("Bartholomew " ends with the space); ctx is exactly 40 runes, at its limit, and
		// quoted line by line with < > escaped. A ref names the block id that renders: "commands" is replaced in
		// quick, so the leader block refers to "safety".
		"quick/basic-leader.runbook.md": "# Rich Runbook\n\nYou work on issues through the rich CLI." +
			"\n\n## Safety\n\nRun only the commands listed here. Never force-push." +
			"\n\n## Commands\n\n- rich issue create" +
			"\n\n## Workflow\n\nCreate the issue, then stop. Run only the commands listed here." +
			"\n\n## Identity\n\nYou are Bartholomew …, working on quick tasks." +
			"\n\n## Squad Leader\n\nYou lead the squad; follow ## Safety." +
			"\n\n## Project Context\n\n> Line one of context.\n> Line two is \\<html\\>." +
			"\n",
		// ü, ï, ö, é are two bytes each: "ünïcödé ün" is 10 runes, 15 bytes, +3 for "…" = 18; 18+1 = 19 and
		// 19+1 = 20 fit in 25. In quick the workflow slot holds "workflow-quick", and the ref names it.
		"quick/basic-leader.turn-1.md": "Create from AC-2; see ## Workflow.\n\n---\n\n## Earlier Comments\n\n- ünïcödé ün…\n- b\n- c\n",
		"chat/zz-edge.runbook.md": "# Rich Runbook\n\nYou work on issues through the rich CLI." +
			"\n\n## Safety\n\nRun only the commands listed here. Never force-push." +
			"\n\n## Commands\n\n| command | does |\n|---|---|\n| rich issue view ID | read an issue |\n| rich comment add ID | reply |\n\nRun only the commands listed here." +
			"\n\n## Comment Format\n\nWrite comments in Markdown." +
			"\n\n## Workflow\n\n1. Read the issue.\n2. Answer in chat.\n3. Follow ## Comment Format." +
			"\n\n## Identity\n\nYou are Zoë, working on chat tasks." +
			"\n",
		"chat/zz-edge.turn-1.md": "Chat about AC-3.\n",
	}
	for path, text := range want {
		if got[path] != text {
			t.Errorf("%s:\n got %q\nwant %q", path, got[path], text)
		}
	}
	wantPaths := []string{
		"issue/basic.runbook.md", "issue/basic.turn-1.md", "issue/basic.turn-2.md",
		"issue/basic-leader.runbook.md", "issue/basic-leader.turn-1.md",
		"chat/basic.runbook.md", "chat/basic.turn-1.md", "chat/basic.turn-2.md",
		"chat/zz-edge.runbook.md", "chat/zz-edge.turn-1.md",
		"quick/basic.runbook.md", "quick/basic.turn-1.md", "quick/basic.turn-2.md",
		"quick/basic-leader.runbook.md", "quick/basic-leader.turn-1.md",
	}
	if gotPaths := paths(mustBuild(t, richProject())); strings.Join(gotPaths, " ") != strings.Join(wantPaths, " ") {
		t.Errorf("artifacts:\n got %q\nwant %q", gotPaths, wantPaths)
	}
}

// TestDeterminism compiles the same project from different sources and environments (docs/reference.md#artifacts) and expects the same
// bytes, the same source maps and the same order every time.
func TestDeterminism(t *testing.T) {
	fsys := richProject()
	want := snapshot(t, fsys)

	t.Run("build twice", func(t *testing.T) {
		prog := mustLoad(t, fsys)
		first, _ := prog.Build()
		second, _ := prog.Build()
		for i := range first {
			if first[i].Path != second[i].Path || first[i].Text != second[i].Text || spanString(first[i]) != spanString(second[i]) {
				t.Errorf("second build differs at %s", first[i].Path)
			}
		}
		if got := snapshot(t, fsys); got != want {
			t.Errorf("second load differs:\n%s", firstDiff(got, want))
		}
	})

	t.Run("directory at another root", func(t *testing.T) {
		root := filepath.Join(t.TempDir(), "some", "deeper", "root with spaces")
		writeTree(t, root, fsys, sortedNames(fsys))
		prog, diags := assemble.LoadDir(root)
		if len(diags) > 0 {
			t.Fatalf("diagnostics:\n%s", diags)
		}
		_ = prog
		if got := snapshot(t, os.DirFS(root)); got != want {
			t.Errorf("differs from the in-memory project:\n%s", firstDiff(got, want))
		}
	})

	t.Run("files created in shuffled order", func(t *testing.T) {
		for seed := int64(1); seed <= 5; seed++ {
			order := sortedNames(fsys)
			rand.New(rand.NewSource(seed)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			root := filepath.Join(t.TempDir(), fmt.Sprintf("p%d", seed))
			writeTree(t, root, fsys, order)
			if got := snapshot(t, os.DirFS(root)); got != want {
				t.Errorf("seed %d: differs:\n%s", seed, firstDiff(got, want))
			}
		}
	})

	t.Run("directories listed in shuffled order", func(t *testing.T) {
		for seed := int64(1); seed <= 20; seed++ {
			if got := snapshot(t, shuffledFS{fsys, seed}); got != want {
				t.Fatalf("seed %d: differs:\n%s", seed, firstDiff(got, want))
			}
		}
	})

	t.Run("GOMAXPROCS", func(t *testing.T) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
		for _, n := range []int{1, 4, 2, 16} {
			runtime.GOMAXPROCS(n)
			for i := 0; i < 3; i++ {
				if got := snapshot(t, fsys); got != want {
					t.Fatalf("GOMAXPROCS=%d: differs:\n%s", n, firstDiff(got, want))
				}
			}
		}
	})

	t.Run("time zone and locale", func(t *testing.T) {
		for _, env := range []map[string]string{
			{"TZ": "Asia/Kathmandu", "LANG": "tr_TR.UTF-8", "LC_ALL": "tr_TR.UTF-8"},
			{"TZ": "UTC", "LANG": "C", "LC_ALL": "C"},
			{"TZ": "America/St_Johns", "LANG": "ja_JP.eucJP", "LC_ALL": ""},
		} {
			for k, v := range env {
				t.Setenv(k, v)
			}
			if got := snapshot(t, fsys); got != want {
				t.Errorf("env %v: differs:\n%s", env, firstDiff(got, want))
			}
		}
	})

	t.Run("runtime API matches Build", func(t *testing.T) {
		prog := mustLoad(t, fsys)
		arts, _ := prog.Build()
		byPath := tree(arts)
		for _, task := range prog.Project.Tasks {
			for _, f := range prog.Project.Fixtures {
				if !f.AdmitsTask(task) {
					continue
				}
				s, err := prog.NewSession(task, f.Session)
				if err != nil {
					t.Fatal(err)
				}
				if got := s.Runbook().Text; got != byPath[task+"/"+f.Name+".runbook.md"] {
					t.Errorf("%s/%s runbook differs from Build: %q", task, f.Name, got)
				}
				for k, turn := range f.Turns {
					a, err := s.Turn(turn)
					if err != nil {
						t.Fatal(err)
					}
					if path := fmt.Sprintf("%s/%s.turn-%d.md", task, f.Name, k+1); a.Text != byPath[path] {
						t.Errorf("%s differs from Build: %q", path, a.Text)
					}
				}
			}
		}
	})
}

// TestDeterminismExample runs the same checks over the reference project in examples/, which must compile.
func TestDeterminismExample(t *testing.T) {
	dir := filepath.Join("..", "examples", "tracker")
	if _, diags := assemble.LoadDir(dir); len(diags) > 0 {
		t.Fatalf("the reference project does not compile:\n%s", diags)
	}
	want := snapshot(t, os.DirFS(dir))
	mem, err := readProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	for seed := int64(1); seed <= 5; seed++ {
		if got := snapshot(t, shuffledFS{mem, seed}); got != want {
			t.Fatalf("seed %d: differs:\n%s", seed, firstDiff(got, want))
		}
	}
}

// firstDiff shows where two snapshots first differ.
func firstDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(0, i-80)
	return fmt.Sprintf("at byte %d:\n got …%q…\nwant …%q…", i, got[lo:min(len(got), i+80)], want[lo:min(len(want), i+80)])
}
