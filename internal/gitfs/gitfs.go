// Package gitfs reads a project as committed at a git revision, for promptc diff, without touching the working tree
// or the index: it asks git for the commit's tree and for the blobs the compiler reads, and holds them in an
// in-memory file system. It also finds the top of a work tree, for every part of promptc that needs it.
package gitfs

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/promptc/promptc/internal/linkfs"
)

var (
	// ErrUnknownRevision is wrapped by the error Open returns when rev names no commit.
	ErrUnknownRevision = errors.New("unknown revision")
	// ErrNoProject is wrapped by the error Open returns when the commit has no promptc.toml in the project directory.
	ErrNoProject = errors.New("no promptc project")
)

// manifest is the file whose presence makes a directory a project.
const manifest = "promptc.toml"

// projectPaths are the paths of a project the compiler reads (blocks/*.toml, templates/, fixtures/*.toml and the
// manifest): Open reads no other blob of the project, however large, but the targets of the symbolic links these
// lead through.
var projectPaths = []string{manifest, "blocks", "templates", "fixtures"}

// Open returns the project in dir as committed at rev ("" means HEAD): its manifest and the files under blocks/,
// templates/ and fixtures/ in the commit's tree, with paths relative to dir and their committed bytes (no
// end-of-line conversion, no filters). Nothing else of the commit is read, so a large unrelated file costs nothing.
// dir is a project root inside a git work tree, possibly below the repository's top.
//
// Symbolic links are followed by the rule linkfs.View states for a directory on disk, with the commit's whole tree
// as the boundary: a link that leads to a file or directory in the commit by relative steps is followed, and a link
// that leaves the tree, is absolute, dangles or loops stays a symbolic link that cannot be opened (its
// *fs.PathError wraps a *linkfs.FollowError), so the compiler reports it as it would report it in the working tree.
// Submodules are left out.
//
// Open runs git (rev-parse, ls-tree and cat-file --batch) with the inherited environment, and only reads: the
// working tree, the index and the refs are left as they are. The error wraps ErrUnknownRevision when rev names no
// commit and ErrNoProject when the commit has no promptc.toml in dir.
func Open(dir, rev string) (fs.FS, error) {
	if rev == "" {
		rev = "HEAD"
	}
	top, err := TopLevel(dir)
	if err != nil {
		return nil, err
	}
	prefix, err := git(dir, "rev-parse", "--show-prefix")
	if err != nil {
		return nil, err
	}
	commit, err := resolve(dir, rev)
	if err != nil {
		return nil, err
	}
	ct := &commitTree{dir: dir, commit: commit, data: map[string][]byte{}}
	root := strings.TrimSuffix(prefix, "/")
	if root == "" {
		root = "."
	}
	var listed []string
	for _, p := range projectPaths {
		listed = append(listed, path.Join(root, p))
	}
	if err := ct.list(listed); err != nil {
		return nil, err
	}
	if _, ok := ct.entries[path.Join(root, manifest)]; !ok {
		where := "the top of the repository " + top
		if prefix != "" {
			where = prefix + " in the repository " + top
		}
		return nil, fmt.Errorf("%w at revision %q (commit %.12s): no %s at %s in that commit",
			ErrNoProject, rev, commit, manifest, where)
	}
	if ct.blobs, err = newBlobReader(dir); err != nil {
		return nil, err
	}
	defer ct.blobs.close() // every blob needed has been read by then: a late failure changes nothing
	return ct.project(linkfs.NewView(ct, root))
}

// project copies the project's files out of view into an in-memory tree, reading each blob once.
func (ct *commitTree) project(view *linkfs.View) (*tree, error) {
	t := newTree()
	for _, p := range projectPaths {
		err := fs.WalkDir(view, p, func(name string, d fs.DirEntry, err error) error {
			var le *linkfs.FollowError
			switch {
			case name == p && errors.Is(err, fs.ErrNotExist):
				return fs.SkipAll
			case errors.As(err, &le):
				t.addBroken(name, err)
				return nil
			case err != nil:
				return err
			case d.IsDir():
				return nil
			case d.Type()&fs.ModeSymlink != 0:
				// A link the view does not follow: keep why. Resolving it again fails as listing it did.
				_, _, err := view.Resolve(name)
				if !errors.As(err, &le) {
					return fmt.Errorf("%s: a symbolic link neither followed nor refused (%v)", name, err)
				}
				t.addBroken(name, err)
				return nil
			}
			real, fi, err := view.Resolve(name)
			if err != nil {
				return err
			}
			data, err := ct.read(real)
			if err != nil {
				return err
			}
			t.add(name, data, fi.Mode().Perm())
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	t.sortDirs()
	return t, nil
}

// commitTree is a commit's tree as a linkfs.Tree, bounded by the commit's top. It lists the project's paths
// first, and the whole tree only when a symbolic link needs it, and it reads a blob only when asked for it.
type commitTree struct {
	dir, commit string
	// listed are the paths whose entries, at any depth, are in entries; nil once the whole tree is.
	listed []string
	// entries are the blobs and links of the listing by path; children the names in each directory, sorted.
	entries  map[string]treeEntry
	children map[string][]string
	blobs    blobReader
	data     map[string][]byte // by object id
}

type treeEntry struct {
	mode fs.FileMode // 0o444, 0o555 or fs.ModeSymlink | 0o777
	oid  string
}

// list reads the commit's entries at the given paths and below, or the whole tree when paths is nil.
func (ct *commitTree) list(paths []string) error {
	args := []string{"ls-tree", "-r", "-z", "--full-tree", ct.commit}
	if paths != nil {
		// ls-tree matches paths element by element, never as globs, so a directory named "a[1]" means itself.
		args = append(append(args, "--"), paths...)
	}
	listing, err := git(ct.dir, args...)
	if err != nil {
		return err
	}
	ct.listed, ct.entries, ct.children = paths, map[string]treeEntry{}, map[string][]string{}
	for _, rec := range strings.Split(strings.TrimSuffix(listing, "\x00"), "\x00") {
		if rec == "" {
			continue
		}
		// <mode> SP <type> SP <object> TAB <path>
		meta, p, ok := strings.Cut(rec, "\t")
		fields := strings.Fields(meta)
		if !ok || len(fields) != 3 {
			return fmt.Errorf("git ls-tree: unexpected record %q", rec)
		}
		var mode fs.FileMode
		switch fields[0] {
		case "100644":
			mode = 0o444
		case "100755":
			mode = 0o555
		case "120000":
			mode = fs.ModeSymlink | 0o777
		default:
			continue // a submodule (mode 160000): its files are in another repository
		}
		if !fs.ValidPath(p) {
			continue
		}
		ct.entries[p] = treeEntry{mode: mode, oid: fields[2]}
		for child, dir := p, path.Dir(p); ; child, dir = dir, path.Dir(dir) {
			_, seen := ct.children[dir]
			ct.children[dir] = append(ct.children[dir], path.Base(child))
			if seen || dir == "." {
				break
			}
		}
	}
	for _, names := range ct.children {
		slices.Sort(names)
	}
	return nil
}

// covered reports whether the listing holds what is at p: p is at or below a listed path, or a directory above
// one that the listing shows to exist.
func (ct *commitTree) covered(p string) bool {
	if ct.listed == nil {
		return true
	}
	for _, l := range ct.listed {
		if p == l || strings.HasPrefix(p, l+"/") {
			return true
		}
	}
	return false
}

// entry looks p up, listing the whole tree first when the project's listing does not cover it.
func (ct *commitTree) lookup(p string, dirOK bool) (treeEntry, bool, error) {
	if !ct.covered(p) {
		// A directory above a listed path is known to exist when the listing has something under it; reading its
		// entries, or anything else outside the project, needs the whole tree.
		if _, ok := ct.children[p]; !(ok && dirOK) {
			if err := ct.list(nil); err != nil {
				return treeEntry{}, false, err
			}
		}
	}
	e, ok := ct.entries[p]
	if ok {
		return e, false, nil
	}
	_, isDir := ct.children[p]
	return treeEntry{}, isDir || p == ".", nil
}

func (ct *commitTree) Bound() (string, string) { return ".", linkfs.Repository }

func (ct *commitTree) Lstat(p string) (fs.FileInfo, string, error) {
	e, isDir, err := ct.lookup(p, true)
	switch {
	case err != nil:
		return nil, "", err
	case isDir:
		return &fileInfo{name: path.Base(p), mode: fs.ModeDir | 0o555}, "", nil
	case e.oid == "":
		return nil, "", &fs.PathError{Op: "lstat", Path: p, Err: fs.ErrNotExist}
	}
	fi := &fileInfo{name: path.Base(p), mode: e.mode}
	if e.mode&fs.ModeSymlink == 0 {
		return fi, "", nil
	}
	target, err := ct.blob(e.oid)
	if err != nil {
		return nil, "", err
	}
	fi.size = int64(len(target))
	return fi, string(target), nil
}

func (ct *commitTree) ReadDir(p string) ([]fs.DirEntry, error) {
	if _, _, err := ct.lookup(p, false); err != nil {
		return nil, err
	}
	names, ok := ct.children[p]
	if !ok && p != "." {
		return nil, &fs.PathError{Op: "readdir", Path: p, Err: fs.ErrNotExist}
	}
	out := make([]fs.DirEntry, 0, len(names))
	for _, name := range names {
		mode := fs.ModeDir | 0o555
		if e, ok := ct.entries[path.Join(p, name)]; ok {
			mode = e.mode
		}
		out = append(out, &fileInfo{name: name, mode: mode})
	}
	return out, nil
}

func (ct *commitTree) Open(p string) (fs.File, error) {
	data, err := ct.read(p)
	if err != nil {
		return nil, err
	}
	return &openFile{fi: &fileInfo{name: path.Base(p), size: int64(len(data)), mode: ct.entries[p].mode}, r: bytes.NewReader(data)}, nil
}

// read returns the bytes of the regular file at p.
func (ct *commitTree) read(p string) ([]byte, error) {
	e, isDir, err := ct.lookup(p, false)
	if err != nil {
		return nil, err
	}
	if isDir || e.oid == "" || e.mode&fs.ModeType != 0 {
		return nil, &fs.PathError{Op: "read", Path: p, Err: fs.ErrInvalid}
	}
	return ct.blob(e.oid)
}

// blob reads a blob once; a file committed at several paths, or reached through links, shares its bytes.
func (ct *commitTree) blob(oid string) ([]byte, error) {
	if data, ok := ct.data[oid]; ok {
		return data, nil
	}
	data, err := ct.blobs.blob(oid)
	if err != nil {
		return nil, err
	}
	ct.data[oid] = data
	return data, nil
}
