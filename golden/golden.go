package golden

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/internal/atomicfile"
	"github.com/promptc/promptc/internal/enum"
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

var statuses = enum.New[Status]("Status", "status", "", "changed", "added", "removed").Quiet()

func (s Status) String() string { return statuses.String(s) }

// MarshalText writes "changed", "added" or "removed".
func (s Status) MarshalText() ([]byte, error) { return statuses.Marshal(s) }

// UnmarshalText reads "changed", "added" or "removed".
func (s *Status) UnmarshalText(b []byte) error { return statuses.Set(s, string(b)) }

// Entry is one file that differs between the golden tree and the built tree. Golden is nil when the file is Added,
// Built is nil when it is Removed.
type Entry struct {
	Path          string // slash path relative to the tree's root
	Status        Status
	Golden, Built []byte
}

// Read returns every file of the golden tree under dir, keyed by slash path relative to dir: the files
// assemble.ListTree lists, which are the files Update removes when they are not built. Dot files and dot directories
// are not part of the tree: they hold the .gitattributes file and, after a process died inside Update, its leftover
// .NAME.tmp-* files, which must never count as artifacts. A missing dir is an empty tree; a symbolic link or other
// irregular file in the tree is an error, since Update could not keep it in step; a symbolic link at dir or below
// is a *assemble.LinkError (CheckLinks), found before any file is read.
func Read(dir string) (map[string][]byte, error) {
	if err := CheckLinks(dir); err != nil {
		return nil, err
	}
	fi, err := os.Stat(dir)
	if err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("golden tree %s is not a directory", dir)
	}
	paths, err := assemble.ListTree(dir)
	if err != nil {
		return nil, fmt.Errorf("reading golden tree %s: %w", dir, err)
	}
	tree := make(map[string][]byte, len(paths))
	for _, p := range paths {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			return nil, fmt.Errorf("reading golden tree %s: %w", dir, err)
		}
		tree[p] = data
	}
	return tree, nil
}

// ReadAgainst is Read for a caller that holds the tree it is about to compare with: a file that holds exactly the
// bytes built has for its path is not read into memory but compared a chunk at a time, and the tree returned holds
// built's own slice for it. Only the files that differ, and those built lacks, are read whole. The result is the
// same as Read's, byte for byte.
func ReadAgainst(dir string, built map[string][]byte) (map[string][]byte, error) {
	if err := CheckLinks(dir); err != nil {
		return nil, err
	}
	fi, err := os.Stat(dir)
	if err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("golden tree %s is not a directory", dir)
	}
	paths, err := assemble.ListTree(dir)
	if err != nil {
		return nil, fmt.Errorf("reading golden tree %s: %w", dir, err)
	}
	data := make([][]byte, len(paths))
	errs := make([]error, len(paths))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(4, len(paths)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				name := filepath.Join(dir, filepath.FromSlash(paths[i]))
				if b, ok := built[paths[i]]; ok {
					if same, err := atomicfile.SameBytes(name, b); err == nil && same {
						data[i] = b
						continue
					}
				}
				data[i], errs[i] = os.ReadFile(name)
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	tree := make(map[string][]byte, len(paths))
	for i, p := range paths {
		if errs[i] != nil {
			return nil, fmt.Errorf("reading golden tree %s: %w", dir, errs[i])
		}
		tree[p] = data[i]
	}
	return tree, nil
}

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

// Update makes the golden tree under dir hold exactly built, and returns what it wrote, removed and left alone. It
// writes with assemble.WriteTree under assemble.GoldenOptions, as promptc init writes a new project's golden/:
// golden/ belongs to promptc entirely (assemble.StaleAll), so every file Read would return that built lacks is stale
// and removed, with the directories it leaves empty.
//
// Each changed or new file is replaced atomically and synced (a temporary file in the same directory, synced,
// renamed over the target, the directory synced), so a process killed at any moment leaves every file with its old
// bytes or its new bytes, never a mix; running Update again finishes the job and removes the temporary files the
// killed one left. Files already holding the built bytes are not touched, so their modification times stay. A
// .gitattributes file (assemble.AttributesFile) marking every golden file -text is created when dir has none (and
// then listed as written); an existing one is never changed.
//
// Paths in built must be slash paths relative to dir with no dot-file element (Read would not see such a file).
// Update must not run concurrently with another Update of the same dir: each removes the other's temporary files.
// A symbolic link at dir or below is a *assemble.LinkError (CheckLinks), and then nothing is written or removed.
func Update(dir string, built map[string][]byte) (assemble.TreeChanges, error) {
	if err := CheckLinks(dir); err != nil {
		return assemble.TreeChanges{}, err
	}
	return assemble.WriteTree(dir, built, assemble.GoldenOptions())
}

// LinkRule is what a golden tree must be, as a *assemble.LinkError about one says.
const LinkRule = "golden/ and every directory in it must be real directories inside the project: through a link, " +
	"check --update would write and remove files elsewhere, and check could compare a build with itself; " +
	"replace the link with a real directory (then run promptc check --update)"

// CheckLinks returns a *assemble.LinkError when dir, or anything beneath it, is a symbolic link (docs/guard.md,
// "Real directories only"): the golden tree must lie inside the project, so that a link committed in a cloned
// repository (golden -> ../home, or golden -> build) can neither make Update delete files elsewhere nor make a
// check compare the build with itself. Dot files count too. A missing dir is an empty tree, and fine. Read,
// ReadAgainst and Update call it before they read or write anything.
func CheckLinks(dir string) error {
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return assemble.NewLinkError(dir, "", LinkRule)
	case !fi.IsDir():
		return nil // Read and Update say it is not a directory
	}
	return fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return assemble.NewLinkError(dir, p, LinkRule)
		}
		return nil
	})
}
