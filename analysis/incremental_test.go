package analysis

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/internal/gen"
)

// dump writes out everything a Snapshot answers, in a fixed order: its diagnostics, its lint diagnostics and
// findings, its artifacts, every block's scope, every occurrence of every symbol, each file's outline, and the hover
// at each occurrence. Two snapshots of the same files must dump the same bytes, however they were loaded.
func dump(t testing.TB, s *Snapshot) string {
	t.Helper()
	var w strings.Builder
	put := func(what string, v any) {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		fmt.Fprintf(&w, "%s %s\n", what, data)
	}
	put("diagnostics", s.Diagnostics())
	put("lint", s.Lint())
	for _, f := range s.Findings() {
		put("finding", f)
	}
	for _, a := range s.arts {
		put("artifact", []any{a.Path, a.Task, a.Fixture, a.Kind, a.Turn, a.Text, a.Budget})
		for _, sp := range a.Spans {
			fmt.Fprintf(&w, "span %d %d %d %s %v\n", sp.Start, sp.End, sp.TextStart, sp.Block.ID, sp.Scope)
		}
	}
	for _, b := range s.Project.Blocks {
		scope, ok := s.Program.Scope(b.ID)
		put("block", []any{b.ID, b.Section, b.Slot, scope, ok, s.Program.ScopeReasons(b.ID)})
	}
	ix := s.index()
	var names []string
	for name := range s.Files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		put("symbols "+name, s.Symbols(name))
		for _, o := range ix.byFile[name] {
			h, ok := s.Hover(name, o.Range.Start.Byte)
			put("occurrence", []any{o, len(s.Occurrences(o.Symbol)), h, ok})
		}
	}
	return w.String()
}

// mapFS reads the files under dir into a map file system.
func mapFS(t testing.TB, dir string) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		m[filepath.ToSlash(rel)] = &fstest.MapFile{Data: data, Mode: 0o644}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// edit changes text as a keystroke, a paste or an undo would: characters typed or deleted anywhere, a line
// duplicated (a block or constant defined twice), a block appended with the id of another file's block, a name or a
// body's word changed, a TOML string left open.
func edit(r *rand.Rand, text, original string, ids []string) string {
	at := func() int { return r.IntN(len(text) + 1) }
	snippets := []string{"x", " ", "\n", `"`, "{{", "}}", "{{.task}}", "{{.nope}}", `{{const "rule_000"}}`, "#", "=",
		"[[block]]\n", "é", "\r\n", `\u00e9`, "{{ref \"b0001\"}}", "{{if .x}}", "{{end}}"}
	switch k := r.IntN(11); {
	case k == 10 && len(ids) > 0:
		return text + fmt.Sprintf("\n[[block]]\nid = %q\nbody = \"again\"\n", ids[r.IntN(len(ids))])
	case k == 0:
		return original // undo back to the file as saved
	case k <= 3:
		i := at()
		return text[:i] + snippets[r.IntN(len(snippets))] + text[i:]
	case k <= 5 && len(text) > 0:
		i := r.IntN(len(text))
		j := min(len(text), i+1+r.IntN(8))
		return text[:i] + text[j:]
	case k == 6:
		lines := strings.SplitAfter(text, "\n")
		i := r.IntN(len(lines))
		return strings.Join(slices.Insert(lines, i, lines[i]), "")
	case k == 7:
		for _, word := range []string{"body = ", "id = ", "title = ", "when = ", "tasks = "} {
			if i := strings.Index(text, word); i >= 0 && r.IntN(2) == 0 {
				i += len(word) + 1
				return text[:i] + "y" + text[i:]
			}
		}
		return text + "\n# typed\n"
	default:
		return text + strings.Repeat("#", 1+r.IntN(3)) + "\n"
	}
}

// TestIncrementalEqualsCold loads a project through one Cache after each edit of a random sequence and compares
// what the snapshot answers with a cold load of the same files, byte for byte: the reference project and a
// generated one, several sequences each.
func TestIncrementalEqualsCold(t *testing.T) {
	projects := []struct {
		name string
		fsys fs.FS
	}{
		{"tracker", mapFS(t, filepath.Join("..", "examples", "tracker"))},
		{"generated", gen.FS(gen.Files(60, 4))},
	}
	steps := 40
	if testing.Short() {
		steps = 10
	}
	for _, p := range projects {
		var names []string
		_ = fs.WalkDir(p.fsys, ".", func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".toml") || strings.HasPrefix(path, "templates/")) {
				names = append(names, path)
			}
			return nil
		})
		slices.Sort(names)
		var ids []string
		for _, n := range names {
			data, _ := fs.ReadFile(p.fsys, n)
			for _, m := range regexp.MustCompile(`(?m)^id = "([^"]+)"`).FindAllStringSubmatch(string(data), -1) {
				ids = append(ids, m[1])
			}
		}
		for seed := range uint64(4) {
			t.Run(fmt.Sprintf("%s/seed%d", p.name, seed), func(t *testing.T) {
				r := rand.New(rand.NewPCG(seed, 0x5eed))
				c := NewCache()
				over := map[string]string{}
				// Most edits go to the blocks/ files, as an author's do; some to the manifest, templates, fixtures.
				var blockFiles []string
				for _, n := range names {
					if strings.HasPrefix(n, "blocks/") {
						blockFiles = append(blockFiles, n)
					}
				}
				for step := range steps {
					name := names[r.IntN(len(names))]
					if r.IntN(4) > 0 {
						name = blockFiles[r.IntN(len(blockFiles))]
					}
					original, _ := fs.ReadFile(p.fsys, name)
					text, ok := over[name]
					if !ok {
						text = string(original)
					}
					over[name] = edit(r, text, string(original), ids)
					fsys := Overlay(p.fsys, over)
					warm, cold := dump(t, c.Load(fsys)), dump(t, Load(fsys))
					if warm != cold {
						t.Fatalf("step %d, after editing %s: the incremental load differs from a cold load:\n%s",
							step, name, firstDifference(warm, cold))
					}
				}
			})
		}
	}
}

// firstDifference shows the first line where got and want differ.
func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\nincremental: %.600s\ncold:        %.600s", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("lengths differ: %d lines incremental, %d cold", len(g), len(w))
}

// TestCacheConcurrentLint lints each snapshot while the next loads through the same cache, as the language server
// does: the snapshots share parsed files and bodies, and must not disturb each other (run it with -race).
func TestCacheConcurrentLint(t *testing.T) {
	base := mapFS(t, filepath.Join("..", "examples", "tracker"))
	name := "blocks/00-core.toml"
	original, err := fs.ReadFile(base, name)
	if err != nil {
		t.Fatal(err)
	}
	c := NewCache()
	var prev *Snapshot
	done := make(chan string, 1)
	for i := range 6 {
		fsys := Overlay(base, map[string]string{name: string(original) + strings.Repeat("#", i) + "\n"})
		s := c.Load(fsys)
		if prev != nil {
			if got := <-done; got != dump(t, Load(Overlay(base, map[string]string{name: string(original) + strings.Repeat("#", i-1) + "\n"}))) {
				t.Fatalf("keystroke %d: the snapshot linted while the next loaded differs from a cold load", i)
			}
		}
		go func() { done <- dump(t, s) }()
		prev = s
	}
	<-done
}
