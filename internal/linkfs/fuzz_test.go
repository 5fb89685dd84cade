package linkfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzFiles is the tree FuzzDirAgrees lays out, on disk and in memory, below the boundary; fuzzLinks are where its
// links go, their targets the fuzzer's. On disk, outside/ beside the boundary holds a secret no read may return.
var (
	fuzzFiles = map[string]string{
		"p/promptc.toml":  "p\n",
		"p/t/a.md":        "a\n",
		"p/t/sub/b.md":    "b\n",
		"shared/s.md":     "s\n",
		"shared/dir/d.md": "d\n",
		".git/config":     "[core]\n",
	}
	fuzzLinks = []string{"p/t/l1", "p/t/sub/l2", "shared/l3"}
	// fuzzNames are the names each View is asked for, beside a walk of the whole of it.
	fuzzNames = []string{".", "t/l1", "t/l1/a.md", "t/l1/b.md", "t/l1/s.md", "t/l1/d.md", "t/l1/l3", "t/l1/dir/d.md",
		"t/l1/sub/l2", "t/sub/l2", "t/sub/l2/s.md", "t/sub/l2/l3/d.md", "t/sub/l2/secret.md", "t/l1/secret.md"}
)

const fuzzSecret = "SECRET\n"

// FuzzDirAgrees: whatever three links a project holds, Dir on disk and a View of the same tree in memory (as a git
// commit is read) see the same project: the same files with the same bytes, the same links refused for the same
// reason in the same words; and no read returns a byte of a file outside the boundary.
func FuzzDirAgrees(f *testing.F) {
	for _, targets := range [][3]string{
		{"a.md", "../../../shared/s.md", "dir"},
		{"../../shared", "../l1", "../p/t/sub"},
		{"/etc/passwd", "../../../../outside/secret.md", "../../outside"},
		{".", "..", "../.."},
		{"sub/l2", "../l1", "l3"},
		{"../../.git/config", "../../../.git", "missing.md"},
		{"sub/l2/l3", "../../../shared/l3", "../p/t"},
		{"a.md/x", "//", "dir/../dir/./d.md"},
		{`\x`, `..\..\shared`, "C:/x"},
	} {
		f.Add(targets[0], targets[1], targets[2])
	}
	base, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	top := filepath.Join(base, "top")
	write := func(name, data string) {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	for p, data := range fuzzFiles {
		write(filepath.Join(top, filepath.FromSlash(p)), data)
	}
	write(filepath.Join(base, "outside", "secret.md"), fuzzSecret)
	f.Fuzz(func(t *testing.T, t1, t2, t3 string) {
		links := map[string]string{}
		for i, target := range []string{t1, t2, t3} {
			if target == "" || strings.ContainsRune(target, 0) || len(target) > 256 {
				t.Skip("no such link can be made") // Linux refuses an empty target; TestViewTreeLinks has one
			}
			name := filepath.Join(top, filepath.FromSlash(fuzzLinks[i]))
			if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.Fatal(err)
			}
			if err := os.Symlink(target, name); err != nil {
				t.Skipf("cannot make a link to %q here: %v", target, err)
			}
			links[fuzzLinks[i]] = filepath.ToSlash(target)
		}
		disk := Dir(filepath.Join(top, "p"), func() string { return top })
		defer disk.Close()
		mem := NewView(&memTree{bound: ".", files: fuzzFiles, links: links}, "p")
		for _, name := range fuzzNames {
			d, m := readOutcome(disk, name), readOutcome(mem, name)
			if d != m {
				t.Errorf("links %q: %s\non disk:   %s\nin memory: %s", links, name, d, m)
			}
			if strings.Contains(d, fuzzSecret) {
				t.Errorf("links %q: %s read the file outside the boundary", links, name)
			}
		}
		d, m := walkOutcome(disk), walkOutcome(mem)
		if d != m {
			t.Errorf("links %q: walks differ\non disk:\n%s\nin memory:\n%s", links, d, m)
		}
		if strings.Contains(d, fuzzSecret) {
			t.Errorf("links %q: the walk read the file outside the boundary", links)
		}
	})
}

// readOutcome says what reading name gives, in terms both kinds of tree share: the bytes of a file, the names of
// a directory's entries, or the error (a refused link in its own words).
func readOutcome(fsys fs.FS, name string) string {
	fi, err := fs.Stat(fsys, name)
	if err != nil {
		return outcomeErr(err)
	}
	if fi.IsDir() {
		entries, err := fs.ReadDir(fsys, name)
		if err != nil {
			return outcomeErr(err)
		}
		var b strings.Builder
		for _, e := range entries {
			fmt.Fprintf(&b, "%s %v; ", e.Name(), e.Type())
		}
		return "dir: " + b.String()
	}
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return outcomeErr(err)
	}
	return "file: " + string(data)
}

func walkOutcome(fsys fs.FS) string {
	var b strings.Builder
	fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			fmt.Fprintf(&b, "%s: %s\n", p, outcomeErr(err))
			return nil
		}
		fmt.Fprintf(&b, "%s %v", p, d.Type())
		if d.Type().IsRegular() {
			data, err := fs.ReadFile(fsys, p)
			if err != nil {
				fmt.Fprintf(&b, " %s", outcomeErr(err))
			}
			fmt.Fprintf(&b, " %q", data)
		}
		b.WriteByte('\n')
		return nil
	})
	return b.String()
}

// outcomeErr names an error as both trees give it: a *FollowError by its message, a missing file as such, and
// anything else by the error inside the View's *fs.PathError.
func outcomeErr(err error) string {
	var le *FollowError
	switch {
	case errors.As(err, &le):
		return "refused: " + le.Error()
	case errors.Is(err, fs.ErrNotExist):
		return "not there"
	}
	return "error: " + unwrap(err).Error()
}
