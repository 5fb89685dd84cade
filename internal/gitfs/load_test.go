package gitfs_test

import (
	"bytes"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/guard"
	"github.com/promptc/promptc/internal/gitfs"
	"github.com/promptc/promptc/internal/testenv"
	"github.com/promptc/promptc/tokens"
)

// These tests load a project both ways promptc diff does, from a commit through Open and from the working tree
// through assemble.LoadDir, and expect the same project. They live outside package gitfs because assemble imports
// it. TestMain, in gitfs_test.go, keeps git to the temporary repositories.

// workTree is a temporary git repository.
type workTree struct {
	t   *testing.T
	dir string
}

func newWorkTree(t *testing.T) *workTree {
	t.Helper()
	testenv.LookPath(t, "git")
	w := &workTree{t: t, dir: t.TempDir()}
	w.git("-c", "init.defaultBranch=main", "init", "-q")
	w.git("config", "user.name", "Test")
	w.git("config", "user.email", "test@example.com")
	w.git("config", "core.autocrlf", "false")
	w.git("config", "core.symlinks", "true")
	w.git("config", "commit.gpgsign", "false")
	return w
}

func (w *workTree) git(args ...string) string {
	w.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", w.dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		w.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return string(out)
}

func (w *workTree) path(p string) string { return filepath.Join(w.dir, filepath.FromSlash(p)) }

// write creates files, and symbolic links for the names in links, by slash path from the repository's top.
func (w *workTree) write(files, links map[string]string) {
	w.t.Helper()
	for p, data := range files {
		if err := os.MkdirAll(filepath.Dir(w.path(p)), 0o755); err != nil {
			w.t.Fatal(err)
		}
		if err := os.WriteFile(w.path(p), []byte(data), 0o644); err != nil {
			w.t.Fatal(err)
		}
	}
	for p, target := range links {
		if err := os.MkdirAll(filepath.Dir(w.path(p)), 0o755); err != nil {
			w.t.Fatal(err)
		}
		if err := os.Symlink(filepath.FromSlash(target), w.path(p)); err != nil {
			w.t.Fatal(err)
		}
	}
}

// needLinks skips the test where symbolic links cannot be made.
func needLinks(t *testing.T) {
	t.Helper()
	if err := os.Symlink("target", filepath.Join(t.TempDir(), "link")); err != nil {
		testenv.Absent(t, "cannot make symbolic links here: %v", err)
	}
}

// bothSides loads the project in dir from HEAD and from the working tree, and fails the test unless the two agree
// on the diagnostics. It returns the diagnostics, and the artifacts of both sides when there are none.
func bothSides(t *testing.T, dir string) (string, []*assemble.Artifact, []*assemble.Artifact) {
	t.Helper()
	fsys, err := gitfs.Open(dir, "HEAD")
	if err != nil {
		t.Fatalf("Open(HEAD): %v", err)
	}
	fromGit, gitDiags := assemble.Load(fsys)
	fromDir, dirDiags := assemble.LoadDir(dir)
	if gitDiags.String() != dirDiags.String() {
		t.Fatalf("diagnostics differ:\nfrom HEAD\n%s\nfrom the working tree\n%s", gitDiags, dirDiags)
	}
	if len(dirDiags) > 0 {
		return dirDiags.String(), nil, nil
	}
	gitArts, gitDiags := fromGit.Build()
	dirArts, dirDiags := fromDir.Build()
	if gitDiags.String() != dirDiags.String() {
		t.Fatalf("build diagnostics differ:\nfrom HEAD\n%s\nfrom the working tree\n%s", gitDiags, dirDiags)
	}
	return dirDiags.String(), gitArts, dirArts
}

// noChange fails the test unless promptc diff HEAD would report nothing: the comparison it prints is empty.
func noChange(t *testing.T, gitArts, dirArts []*assemble.Artifact) {
	t.Helper()
	if len(gitArts) == 0 {
		t.Fatal("no artifacts built")
	}
	tok := tokens.New(tokens.O200k)
	report := guard.Compare(guard.Side{Label: "HEAD", Dir: "a/", Arts: gitArts},
		guard.Side{Label: "working tree", Dir: "b/", Arts: dirArts}, tok)
	for _, c := range report.Changes {
		t.Errorf("diff HEAD reports %s as %v", c.Path, c.Status)
	}
}

// project is a promptc project whose one block takes its body from templates/main.md.
var project = map[string]string{
	"prompts/promptc.toml":  "name  = \"p\"\ntasks = [\"t\"]\n\n[runbook]\norder = [\"a\"]\n",
	"prompts/blocks/a.toml": "[[block]]\nid       = \"a\"\ntemplate = \"main.md\"\n",
}

// TestLinksReadAlike: a project with symbolic links loads the same from a commit as from the working tree. A link
// that stays inside the repository is followed on both sides, so promptc diff HEAD right after a commit reports
// nothing; one that leaves it, dangles or loops is reported on both sides, in the same words.
func TestLinksReadAlike(t *testing.T) {
	const tail = ": promptc follows only relative links that stay inside it"
	tests := []struct {
		name         string
		files, links map[string]string
		diags        string // "" when the project builds
	}{{
		name:  "template linked beside it",
		files: map[string]string{"prompts/docs/main.md": "Hello from docs.\n"},
		links: map[string]string{"prompts/templates/main.md": "../docs/main.md"},
	}, {
		name:  "template linked from elsewhere in the repository",
		files: map[string]string{"shared/main.md": "Hello from shared.\n"},
		links: map[string]string{"prompts/templates/main.md": "../../shared/main.md"},
	}, {
		name:  "chain of links",
		files: map[string]string{"shared/real.md": "Hello at the end of a chain.\n"},
		links: map[string]string{"prompts/templates/main.md": "../../shared/alias.md", "shared/alias.md": "real.md"},
	}, {
		name:  "templates directory linked",
		files: map[string]string{"shared/templates/main.md": "Hello from a linked directory.\n"},
		links: map[string]string{"prompts/templates": "../shared/templates"},
	}, {
		name:  "block file linked",
		files: map[string]string{"prompts/templates/main.md": "Hello.\n", "shared/a.toml": project["prompts/blocks/a.toml"]},
		links: map[string]string{"prompts/blocks/a.toml": "../../shared/a.toml"},
	}, {
		name:  "absolute link out of the repository",
		links: map[string]string{"prompts/templates/main.md": "/etc/hostname"},
		diags: `templates/main.md:?:?: cannot read file: symbolic link to "/etc/hostname" leaves the repository` + tail + "\n",
	}, {
		name:  "relative link out of the repository",
		links: map[string]string{"prompts/templates/main.md": "../../../outside.md"},
		diags: `templates/main.md:?:?: cannot read file: symbolic link to "../../../outside.md" leaves the repository` + tail + "\n",
	}, {
		name:  "chain out of the repository",
		links: map[string]string{"prompts/templates/main.md": "../../shared/alias.md", "shared/alias.md": "/etc/hostname"},
		diags: `templates/main.md:?:?: cannot read file: symbolic link to "../../shared/alias.md" leads through ` +
			`"shared/alias.md", a symbolic link to "/etc/hostname", which leaves the repository` + tail + "\n",
	}, {
		name:  "dangling link",
		links: map[string]string{"prompts/templates/main.md": "../docs/missing.md"},
		diags: `templates/main.md:?:?: cannot read file: symbolic link to "../docs/missing.md" dangles: nothing is there in the repository` + "\n",
	}, {
		name:  "link into .git",
		links: map[string]string{"prompts/templates/main.md": "../../.git/HEAD"},
		diags: `templates/main.md:?:?: cannot read file: symbolic link to "../../.git/HEAD" dangles: nothing is there in the repository` + "\n",
	}, {
		name:  "directory link out of the repository",
		files: map[string]string{"prompts/templates/main.md": "Hello.\n"},
		links: map[string]string{"prompts/blocks": "/etc"},
		diags: `blocks:?:?: cannot read: symbolic link to "/etc" leaves the repository` + tail + "\n" +
			`promptc.toml:5:10: runbook.order names unknown block "a"` + "\n",
	}, {
		name:  "directory link to its own directory",
		files: map[string]string{"prompts/templates/main.md": "Hello.\n"},
		links: map[string]string{"prompts/templates/again": ".."},
		diags: `templates/again:?:?: cannot read file: symbolic link to ".." loops back on itself` + "\n",
	}, {
		name:  "link to itself",
		links: map[string]string{"prompts/templates/main.md": "main.md"},
		diags: `templates/main.md:?:?: cannot read file: symbolic link to "main.md" loops back on itself` + "\n",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			needLinks(t)
			w := newWorkTree(t)
			// A link takes the place of the project's file of its name, or of a directory's files.
			files := maps.Clone(project)
			maps.Copy(files, tt.files)
			for p := range files {
				for l := range tt.links {
					if p == l || strings.HasPrefix(p, l+"/") {
						delete(files, p)
					}
				}
			}
			w.write(files, tt.links)
			w.git("add", "-A")
			w.git("commit", "-q", "-m", "project")
			diags, gitArts, dirArts := bothSides(t, w.path("prompts"))
			if diags != tt.diags {
				t.Fatalf("diagnostics:\n%s\nwant\n%s", diags, tt.diags)
			}
			if tt.diags == "" {
				noChange(t, gitArts, dirArts)
			}
		})
	}
}

// TestLinksOutsideRepository: without a repository around it the project directory is the boundary, and a link
// out of it is reported as leaving the project directory.
func TestLinksOutsideRepository(t *testing.T) {
	needLinks(t)
	parent := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", parent) // whatever repository holds the temporary directory
	dir := filepath.Join(parent, "prompts")
	w := &workTree{t: t, dir: parent}
	w.write(project, nil)
	w.write(map[string]string{"shared.md": "outside the project\n"}, map[string]string{"prompts/templates/main.md": "../../shared.md"})
	_, diags := assemble.LoadDir(dir)
	want := `templates/main.md:?:?: cannot read file: symbolic link to "../../shared.md" leaves the project directory` +
		": promptc follows only relative links that stay inside it\n"
	if diags.String() != want {
		t.Errorf("diagnostics:\n%s\nwant\n%s", diags, want)
	}
}

// TestOpenExample commits the reference project and checks that the compiler sees the same project, and builds
// the same artifacts, from the commit as from the working tree.
func TestOpenExample(t *testing.T) {
	w := newWorkTree(t)
	src := filepath.Join("..", "..", "examples", "tracker")
	if err := os.CopyFS(w.path("examples/tracker"), os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	w.git("add", "-A")
	w.git("commit", "-q", "-m", "example")
	dir := w.path("examples/tracker")
	fsys, err := gitfs.Open(dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	// Open holds what the compiler reads: not golden/, not the README.
	for _, name := range []string{"golden", "README.md"} {
		if _, err := fs.Stat(fsys, name); err == nil {
			t.Errorf("Open holds %s, which the compiler does not read", name)
		}
	}
	if _, err := fs.Stat(fsys, blocks.ManifestFile); err != nil {
		t.Errorf("Open: %v", err)
	}

	diags, gitArts, dirArts := bothSides(t, dir)
	if diags != "" {
		t.Fatalf("the example does not compile:\n%s", diags)
	}
	if len(gitArts) != len(dirArts) {
		t.Fatalf("%d artifacts from git, %d from the directory", len(gitArts), len(dirArts))
	}
	for i := range gitArts {
		if gitArts[i].Path != dirArts[i].Path || gitArts[i].Text != dirArts[i].Text {
			t.Errorf("artifact %d: %s from git differs from %s from the directory", i, gitArts[i].Path, dirArts[i].Path)
		}
	}
}
