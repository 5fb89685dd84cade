package golden

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/promptc/promptc/internal/atomicfile"
)

// Status says how an artifact differs between an old tree (golden/, or a git revision) and a new one (the build):
// the one set of statuses that golden trees, guard reports and their JSON share.
type Status uint8

const (
	// Changed: the artifact is in both trees, with different bytes.
	Changed Status = iota + 1
	// Added: the artifact is new: built, but not in the old tree (missing from golden/).
	Added
	// Removed: the artifact is gone: in the old tree, but no longer built (stale in golden/).
	Removed
)

var statusNames = [...]string{Changed: "changed", Added: "added", Removed: "removed"}

func (s Status) String() string {
	if s >= Changed && int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// MarshalText writes "changed", "added" or "removed".
func (s Status) MarshalText() ([]byte, error) {
	if s >= Changed && int(s) < len(statusNames) {
		return []byte(statusNames[s]), nil
	}
	return nil, fmt.Errorf("invalid status %d", int(s))
}

// UnmarshalText reads "changed", "added" or "removed".
func (s *Status) UnmarshalText(b []byte) error {
	for i, n := range statusNames {
		if i > 0 && n == string(b) {
			*s = Status(i)
			return nil
		}
	}
	return fmt.Errorf("unknown status %q", b)
}

// Entry is one file that differs between the golden tree and the built tree. Golden is nil when the file is Added,
// Built is nil when it is Removed.
type Entry struct {
	Path          string // slash path relative to the tree's root
	Status        Status
	Golden, Built []byte
}

// AttributesFile is the file Update creates at the top of the golden tree, unless one is there already.
const AttributesFile = ".gitattributes"

// attributes marks every golden file binary for git: with core.autocrlf or an eol rule in effect, a checkout
// would otherwise rewrite line endings and promptc check would fail on bytes nobody changed.
const attributes = `# Written by promptc. Golden files are compared byte for byte with what promptc build writes:
# a checkout must never rewrite their bytes (no end-of-line conversion), so none of them is text to git.
* -text
`

// Read returns every file of the golden tree under dir, keyed by slash path relative to dir. Dot files and dot
// directories are not part of the tree: they hold the .gitattributes file and, after a process died inside
// Update, its leftover .NAME.tmp-* files, which must never count as artifacts. A missing dir is an empty tree; a
// symbolic link or other irregular file in the tree is an error, since Update could not keep it in step.
func Read(dir string) (map[string][]byte, error) {
	tree := map[string][]byte{}
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return tree, nil
	}
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("golden tree %s is not a directory", dir)
	}
	// os.DirFS follows dir itself when it is a symbolic link to a directory, and nothing below it.
	fsys := os.DirFS(dir)
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == "." {
			return nil
		}
		if hidden(d.Name()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: not a regular file", p)
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		tree[p] = data
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading golden tree %s: %w", dir, err)
	}
	return tree, nil
}

func hidden(name string) bool { return strings.HasPrefix(name, ".") }

// Compare returns the files that differ between the golden and the built tree, sorted by path. Bytes are compared
// exactly: a CRLF where LF was built, or a missing final newline, is a difference.
func Compare(golden, built map[string][]byte) []Entry {
	var out []Entry
	for p, g := range golden {
		b, ok := built[p]
		switch {
		case !ok:
			out = append(out, Entry{Path: p, Status: Removed, Golden: g})
		case !bytes.Equal(g, b):
			out = append(out, Entry{Path: p, Status: Changed, Golden: g, Built: b})
		}
	}
	for p, b := range built {
		if _, ok := golden[p]; !ok {
			out = append(out, Entry{Path: p, Status: Added, Built: b})
		}
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// Update makes the golden tree under dir hold exactly built, and returns what it changed, as Compare reports it
// (on error: the entries applied so far).
//
// Each Changed or Added file is replaced atomically (a temporary file in the same directory, synced, renamed over
// the target, the directory synced), so a process killed at any moment leaves every file with its old bytes or its
// new bytes, never a mix; running Update again finishes the job. Files already holding the built bytes are not
// touched, so their modification times stay. Stale files are removed, and so are directories they leave empty.
// Leftover .NAME.tmp-* files of an earlier, interrupted Update are removed first. A .gitattributes file marking
// every golden file -text is created when dir has none; an existing one is never changed.
//
// Paths in built must be slash paths relative to dir with no dot-file element (Read would not see such a file).
// Update must not run concurrently with another Update of the same dir: each removes the other's temporary files.
func Update(dir string, built map[string][]byte) (changed []Entry, err error) {
	for _, p := range slices.Sorted(maps.Keys(built)) {
		if err := checkPath(p); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := removeTemps(dir); err != nil {
		return nil, err
	}
	if err := writeAttributes(dir); err != nil {
		return nil, err
	}
	old, err := Read(dir)
	if err != nil {
		return nil, err
	}
	diff := Compare(old, built)
	// Removed (stale) files go first, so that a stale file cannot stand where a built file needs a directory.
	for _, e := range diff {
		if e.Status != Removed {
			continue
		}
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(e.Path))); err != nil {
			return changed, err
		}
		pruneDirs(dir, e.Path)
		changed = append(changed, e)
	}
	var files []atomicfile.File
	for _, e := range diff {
		if e.Status != Removed {
			files = append(files, atomicfile.File{Name: filepath.Join(dir, filepath.FromSlash(e.Path)), Data: e.Built, Perm: 0o644})
		}
	}
	if err := atomicfile.WriteAll(files); err != nil {
		return changed, err
	}
	for _, e := range diff {
		if e.Status != Removed {
			changed = append(changed, e)
		}
	}
	slices.SortFunc(changed, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	return changed, nil
}

// checkPath rejects the paths Update could write but Read would not read back the same.
func checkPath(p string) error {
	if !fs.ValidPath(p) || p == "." || strings.Contains(p, `\`) {
		return fmt.Errorf("invalid golden file path %q: want a slash path relative to the golden tree", p)
	}
	for _, elem := range strings.Split(p, "/") {
		if hidden(elem) {
			return fmt.Errorf("invalid golden file path %q: dot files are not part of the golden tree", p)
		}
	}
	return nil
}

// pruneDirs removes the directories above the removed file p that are left empty, up to dir itself (kept). It stops
// at the first that still holds something: os.Remove refuses to remove a directory that is not empty.
func pruneDirs(dir, p string) {
	for d := path.Dir(p); d != "."; d = path.Dir(d) {
		if os.Remove(filepath.Join(dir, filepath.FromSlash(d))) != nil {
			return
		}
	}
}

// removeTemps removes the temporary files atomicfile.Write leaves behind when the process dies between creating
// one and renaming it. They are named .NAME.tmp-RANDOM, next to the file they were to replace, so they only appear
// in directories of the tree (never under a dot directory).
func removeTemps(dir string) error {
	fsys := os.DirFS(dir)
	return fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == "." {
			return nil
		}
		if d.IsDir() {
			if hidden(d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		if ok, _ := path.Match(".*.tmp-*", d.Name()); ok && d.Type().IsRegular() {
			return os.Remove(filepath.Join(dir, filepath.FromSlash(p)))
		}
		return nil
	})
}

// writeAttributes creates dir's .gitattributes when it has none.
func writeAttributes(dir string) error {
	name := filepath.Join(dir, AttributesFile)
	if _, err := os.Lstat(name); !errors.Is(err, fs.ErrNotExist) {
		return err // nil when the user's file is there: it is theirs to keep
	}
	return atomicfile.Write(name, []byte(attributes), 0o644)
}
