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

// TestRootAloneDiffers holds the premises of disk's design (see its comment, and docs/decisions.md, "Symbolic links
// on disk: the rule above, os.Root below"): os.Root confines every access, so disk opens everything through one, but
// it does not keep promptc's rule, so the View's follow still decides which links are followed. Each case reads the
// same link through the boundary's os.Root and through Dir. Should a Go release make os.Root agree with the View on
// a case, the test fails, and that part of follow may be worth handing to os.Root.
func TestRootAloneDiffers(t *testing.T) {
	chain := map[string]string{}
	const chainLen = 9 // one more than os.Root's limit, well under maxLinks
	for i := 1; i <= chainLen; i++ {
		chain[fmt.Sprintf("p/c/l%d", i)] = fmt.Sprintf("l%d", i-1)
	}
	top := tempTree(t, map[string]string{
		"p/promptc.toml": "p\n",
		"p/t/a.md":       "a\n",
		"p/c/l0":         "end\n",
		".git/config":    "[core]\n",
	}, chain)
	abs := filepath.Join(top, "p", "t", "a.md")
	for p, target := range map[string]string{
		"p/t/git.md":  "../../.git/config", // into .git, inside the root
		"p/t/up":      "..",                // to a directory that holds the link
		"p/t/abs.md":  abs,                 // absolute, though to a file inside the root
		"p/t/out.md":  "../../../outside.md",
		"p/t/gone.md": "missing.md",
	} {
		if err := os.Symlink(filepath.FromSlash(target), filepath.Join(top, filepath.FromSlash(p))); err != nil {
			t.Fatal(err)
		}
	}
	root, err := os.OpenRoot(top)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	view := Dir(filepath.Join(top, "p"), func() string { return top })
	defer view.Close()
	const tail = ": promptc follows only relative links that stay inside it"
	for _, tt := range []struct {
		name    string // in the View; in the root, below p/
		rootErr string // "" when os.Root follows the link
		viewErr string // "" when the View follows it
		why     string
	}{
		{"t/git.md", "", `symbolic link to "../../.git/config" dangles: nothing is there in the repository`,
			"os.Root follows a link into .git, which no commit can hold"},
		{"t/up/t/up/t/a.md", "", `symbolic link to ".." loops back on itself`,
			"os.Root follows a link to a directory that holds it, which makes the tree endless"},
		{"t/abs.md", "path escapes from parent", fmt.Sprintf("symbolic link to %q leaves the repository", filepath.ToSlash(abs)) + tail,
			"os.Root refuses an absolute link as it refuses one that climbs out, in words that name neither the link nor the rule"},
		{"t/out.md", "path escapes from parent", `symbolic link to "../../../outside.md" leaves the repository` + tail,
			"the same words for a link that climbs out"},
		{"t/gone.md", "no such file or directory", `symbolic link to "missing.md" dangles: nothing is there in the repository`,
			"os.Root says a dangling link's target is missing, not that the link dangles"},
		{"c/l9", "too many levels of symbolic links", "",
			fmt.Sprintf("os.Root gives up after 8 links; the View follows %d, as the kernel does", maxLinks)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, rerr := fs.ReadFile(root.FS(), "p/"+tt.name)
			_, verr := fs.ReadFile(view, tt.name)
			var le *FollowError
			switch {
			case tt.rootErr == "" && rerr != nil, tt.rootErr != "" && (rerr == nil || !strings.Contains(rerr.Error(), tt.rootErr)):
				t.Errorf("os.Root: %v, want %q (%s)", rerr, tt.rootErr, tt.why)
			case tt.viewErr == "" && verr != nil:
				t.Errorf("View: %v, want the link followed", verr)
			case tt.viewErr != "" && (!errors.As(verr, &le) || le.Error() != tt.viewErr):
				t.Errorf("View: %v\nwant %s", verr, tt.viewErr)
			}
		})
	}
}

// TestDirRefusesNames: a name that is not a valid fs.FS path (climbing with "..", absolute, unclean) is refused
// before anything is looked up, whatever is on disk, with the *fs.PathError every fs.FS gives for it; os.Root would
// climb a name's ".." as far as it stays inside, and refuse the rest as escaping.
func TestDirRefusesNames(t *testing.T) {
	top := tempTree(t, map[string]string{"p/promptc.toml": "p\n", "p/t/a.md": "a\n", "secret.md": "s\n"}, nil)
	fsys := Dir(filepath.Join(top, "p"), func() string { return top })
	defer fsys.Close()
	for _, name := range []string{"../secret.md", "t/../../secret.md", "t/../t/a.md", "..", "/etc/passwd", "t//a.md", "./t/a.md", ""} {
		for _, c := range []struct {
			op string // the *fs.PathError's: ReadFile's is its Open's
			do func() error
		}{
			{"open", func() error { _, err := fsys.Open(name); return err }},
			{"stat", func() error { _, err := fsys.Stat(name); return err }},
			{"open", func() error { _, err := fsys.ReadFile(name); return err }},
			{"readdir", func() error { _, err := fsys.ReadDir(name); return err }},
		} {
			err := c.do()
			if want := c.op + " " + name + ": invalid argument"; err == nil || err.Error() != want || !errors.Is(err, fs.ErrInvalid) {
				t.Errorf("%q: %v, want %s", name, err, want)
			}
		}
	}
}
