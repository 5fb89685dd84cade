package linkfs

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/promptc/promptc/internal/enum"
)

// Tree is a file tree read without following symbolic links: a directory on disk, or a git commit. Its paths are
// slash-separated, relative to the tree's top and in the form fs.ValidPath accepts ("." is the top); every path a
// View passes holds no symbolic link above its last element.
type Tree interface {
	// Bound returns the directory that links may not lead out of, and what to call it in messages ("repository").
	// A View asks only once it meets a link, so a tree may find it lazily; it must hold the View's root.
	Bound() (dir, name string)
	// Lstat describes p without following it, and returns the target of a symbolic link as written, with slashes.
	// The error for a missing p wraps fs.ErrNotExist.
	Lstat(p string) (fs.FileInfo, string, error)
	// ReadDir lists the directory p sorted by name, links not followed.
	ReadDir(p string) ([]fs.DirEntry, error)
	// Open opens the regular file p.
	Open(p string) (fs.File, error)
}

// Reason says why a View does not follow a symbolic link.
type Reason uint8

const (
	// Outside: the link, or one it leads through, goes above the boundary or holds an absolute path. An absolute
	// path counts as outside wherever it points: it names another place in every other clone of the repository,
	// and a commit cannot say where its own work tree is.
	Outside Reason = iota
	// Dangling: nothing is where the link leads, or a file stands where it needs a directory.
	Dangling
	// Loop: the link leads through more than maxLinks links, or to a directory that holds it, which would make
	// the tree endless.
	Loop
)

var reasonNames = []string{"outside", "dangling", "loop"}

var reasons = enum.New[Reason]("Reason", "reason", reasonNames...)

// String names the reason: "outside", "dangling" or "loop".
func (r Reason) String() string { return reasons.String(r) }

// FollowError is the error a View gives for a symbolic link it does not follow, inside an *fs.PathError naming the
// link's path in the View.
type FollowError struct {
	Reason Reason
	// Target is the link's target as written.
	Target string
	// Via is the link, by path relative to the boundary, where a chain of links broke, and ViaTarget its target;
	// both are empty when the first link broke the rule itself.
	Via, ViaTarget string
	// Bound names the boundary: "repository" or "project directory".
	Bound string
}

// Error says which link, what is wrong with it and what promptc follows, in one line.
func (e *FollowError) Error() string {
	s := fmt.Sprintf("symbolic link to %q", e.Target)
	if e.Via != "" {
		s += fmt.Sprintf(" leads through %q, a symbolic link to %q, which", e.Via, e.ViaTarget)
	}
	switch e.Reason {
	case Outside:
		return s + " leaves the " + e.Bound + ": promptc follows only relative links that stay inside it"
	case Dangling:
		return s + " dangles: nothing is there in the " + e.Bound
	default:
		return s + " loops back on itself"
	}
}

// maxLinks bounds the links one path may lead through, as operating systems bound it (ELOOP).
const maxLinks = 40

// gitDir is never looked up: a git tree cannot hold it, so a work tree's must not count either, or a link into
// .git would read on disk and dangle in every commit.
const gitDir = ".git"

var errNotDir = errors.New("not a directory")

// follow resolves the symbolic link at p, whose target is target, one element at a time, following the links it
// leads through. It returns the path it leads to and what is there. dirs are the directories the caller's path
// passed through, its root's first: a link to one of them, or to a directory above one, loops.
func follow(t Tree, p, target string, dirs []string) (string, fs.FileInfo, error) {
	bound, name := t.Bound()
	fail := func(r Reason, at, atTarget string) error {
		e := &FollowError{Reason: r, Target: target, Bound: name}
		if at != p {
			e.Via, e.ViaTarget = relTo(bound, at), atTarget
		}
		return e
	}
	if isAbs(target) {
		return "", nil, fail(Outside, p, target)
	}
	// The walk is at cur: a directory, or a file once the last element named one. info describes it, or is nil
	// when the walk got there by "." or "..", which is always a directory.
	cur, isDir := path.Dir(p), true
	var info fs.FileInfo
	at, atTarget := p, target // the link being followed, for messages
	pending := split(target)
	if len(pending) == 0 {
		return "", nil, fail(Dangling, p, target) // an empty target names nothing
	}
	for hops := 1; len(pending) > 0; {
		elem := pending[0]
		pending = pending[1:]
		if !isDir {
			return "", nil, fail(Dangling, at, atTarget)
		}
		switch elem {
		case ".":
			info = nil
			continue
		case "..":
			if cur == bound {
				return "", nil, fail(Outside, at, atTarget)
			}
			cur, info = path.Dir(cur), nil
			continue
		case gitDir:
			return "", nil, fail(Dangling, at, atTarget)
		}
		next := path.Join(cur, elem)
		fi, linkTarget, err := t.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return "", nil, fail(Dangling, at, atTarget)
		case err != nil:
			return "", nil, err
		case fi.Mode()&fs.ModeSymlink != 0:
			if hops++; hops > maxLinks {
				return "", nil, fail(Loop, p, target)
			}
			at, atTarget = next, linkTarget
			if isAbs(linkTarget) {
				return "", nil, fail(Outside, at, atTarget)
			}
			if linkTarget == "" {
				return "", nil, fail(Dangling, at, atTarget)
			}
			// The link's elements replace its name; the walk stays in the directory that holds it.
			pending = append(split(linkTarget), pending...)
		default:
			cur, isDir, info = next, fi.IsDir(), fi
		}
	}
	if info == nil {
		fi, _, err := t.Lstat(cur)
		if err != nil {
			return "", nil, err
		}
		info = fi
	}
	if info.IsDir() {
		for _, d := range dirs {
			if within(d, cur) {
				return "", nil, fail(Loop, p, target)
			}
		}
	}
	return cur, info, nil
}

// split returns the elements of a slash-separated link target; repeated and trailing slashes add none.
func split(target string) []string {
	var elems []string
	for _, e := range strings.Split(target, "/") {
		if e != "" {
			elems = append(elems, e)
		}
	}
	return elems
}

// isAbs reports whether a link target is absolute, by the rules of either kind of system: a commit made on one may
// be read on the other.
func isAbs(target string) bool {
	native := filepath.FromSlash(target)
	return strings.HasPrefix(target, "/") || strings.HasPrefix(target, `\`) || filepath.IsAbs(native) ||
		filepath.VolumeName(native) != ""
}

// within reports whether tree path p is dir or below it.
func within(p, dir string) bool {
	return dir == "." || p == dir || strings.HasPrefix(p, dir+"/")
}

// relTo returns tree path p relative to dir, which holds it.
func relTo(dir, p string) string {
	if dir == "." {
		return p
	}
	if p == dir {
		return "."
	}
	return strings.TrimPrefix(p, dir+"/")
}
