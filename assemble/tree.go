package assemble

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/promptc/promptc/internal/atomicfile"
	"github.com/promptc/promptc/internal/enum"
	"github.com/promptc/promptc/source"
)

// Prune says which files already under a directory WriteTree may remove when the new tree no longer has them. It is
// the one way the trees promptc writes differ: golden/ belongs to promptc entirely, while the directory promptc
// build writes to may hold the user's own files.
type Prune uint8

const (
	// PruneListed removes only files that the previous WriteTree into the directory wrote there, as its manifest
	// (BuildManifest) lists them. Every other file is the user's, whatever its name, and is never touched.
	// promptc build writes this way.
	PruneListed Prune = iota
	// PruneAll counts every regular file under the directory as part of the tree, except dot files and whatever is
	// under a dot directory (ListTree): each one the new tree lacks is removed. golden/ is written this way.
	PruneAll
)

var staleNames = [...]string{PruneListed: "listed", PruneAll: "all"}

var stales = enum.New[Prune]("Stale", "stale mode", staleNames[:]...)

func (s Prune) String() string { return stales.String(s) }

// BuildManifest is the file, at the top of a directory written with PruneListed, that lists the files WriteTree
// wrote there: a comment, then one slash path a line, sorted; a path that holds anything but printable characters
// other than `"` and `\`, or that starts with `#`, is written Go-quoted.
const BuildManifest = ".promptc-build"

const manifestHeader = `# Written by promptc build: the files it wrote in this directory, one slash path a line. The next build removes
# a file listed here when the project no longer produces it, and never a file this list does not name.
`

// TreeOptions say how WriteTree treats the directory it writes to.
type TreeOptions struct {
	Prune Prune
	// Sync makes every write durable (the file and its directory synced) before WriteTree returns. golden/ is
	// synced: it is the reviewed record of the prompts. Build output can be regenerated, so promptc build does
	// without: a power loss may then leave a file empty, but a reader never sees one half-written.
	Sync bool
	// GitAttributes creates AttributesFile at the top of dir, marking every file of the tree binary for git, when
	// dir has none; an existing one is never changed. golden/ has one (promptc check --update, promptc init).
	GitAttributes bool
}

// TreeChanges is what WriteTree did, in slash paths relative to the directory.
type TreeChanges struct {
	// Written lists the files written: new ones and ones that held other bytes, sorted.
	Written []string
	// Removed lists the stale files removed, sorted.
	Removed []string
	// Unchanged counts the files that already held their bytes: left alone, modification times included.
	Unchanged int
	// Artifacts, set by BuildDir, counts the artifacts the tree holds now.
	Artifacts Coverage
}

// TreeOf returns the artifacts as the tree WriteTree writes: each one's bytes by its Path. The bytes share memory
// with the artifacts' texts (a build's runbooks run to megabytes, and copying them was a tenth of build's time),
// so they must not be modified; WriteTree only reads them.
func TreeOf(arts []*Artifact) map[string][]byte {
	tree := make(map[string][]byte, len(arts))
	for _, a := range arts {
		tree[a.Path] = unsafe.Slice(unsafe.StringData(a.Text), len(a.Text))
	}
	return tree
}

// WriteTree makes dir hold files (slash path → bytes) and removes the stale files that opts.Stale says are
// promptc's; it is the one writer of artifact trees, for promptc build and for golden/.
//
// Each file that differs is replaced atomically: written to a temporary file beside it and renamed into place, so
// that a reader, or a process killed at any moment, sees the old bytes or the new ones, never a mix. Files already
// holding their bytes are not touched, so their modification times stay. Stale files go first (one cannot stand
// where a new file needs a directory), and the directories they leave empty are removed, up to dir itself (kept).
// Leftover temporary files of an earlier, interrupted WriteTree are removed. With PruneListed the manifest is
// rewritten last, atomically, to list exactly files; when files holds paths the old manifest does not list, the
// union is recorded before anything is written, so that a process killed halfway leaves no file that a later
// WriteTree would not know to remove.
//
// Paths must be slash paths relative to dir with no dot-file element; an invalid one is an error before anything is
// written, and so is a directory on a path's way below dir that is a symbolic link (a *LinkError): dir itself may
// be one, what lies below it may not. On another error, the removals done so far are returned with it (which files of a batch that failed to
// write were renamed into place is not known). WriteTree must not run concurrently with another WriteTree of the
// same dir: each removes the other's temporary files.
func WriteTree(dir string, files map[string][]byte, opts TreeOptions) (TreeChanges, error) {
	var ch TreeChanges
	paths := slices.Sorted(maps.Keys(files))
	for _, p := range paths {
		if err := checkTreePath(p); err != nil {
			return ch, err
		}
	}
	// A directory on the way that is a symbolic link would take the write outside dir: refuse before writing.
	if err := RealDirs(dir, fileDirs(paths), treeRule); err != nil {
		return ch, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return ch, err
	}
	var owned []string
	var err error
	switch opts.Prune {
	case PruneAll:
		owned, err = ListTree(dir)
	case PruneListed:
		owned, err = readManifest(dir)
	default:
		err = fmt.Errorf("WriteTree: unknown stale rule %v", opts.Prune)
	}
	if err != nil {
		return ch, err
	}
	if err := removeTemps(dir, opts.Prune, owned, paths); err != nil {
		return ch, err
	}
	if opts.Prune == PruneListed && !isSubset(paths, owned) {
		if err := writeManifest(dir, sortedUnion(owned, paths), opts.Sync); err != nil {
			return ch, err
		}
	}

	for _, p := range owned {
		if _, ok := files[p]; ok {
			continue
		}
		removed, err := removeStale(dir, p, opts.Prune)
		if err != nil {
			return ch, err
		}
		if removed {
			ch.Removed = append(ch.Removed, p)
		}
	}

	all := make([]atomicfile.File, len(paths))
	for i, p := range paths {
		all[i] = atomicfile.File{Name: filepath.Join(dir, filepath.FromSlash(p)), Data: files[p], Perm: 0o644, NoSync: !opts.Sync}
	}
	todo := make([]atomicfile.File, 0, len(paths))
	var written []string
	for i, same := range atomicfile.UnchangedEach(all) {
		if same {
			ch.Unchanged++
			continue
		}
		todo = append(todo, all[i])
		written = append(written, paths[i])
	}
	if err := atomicfile.WriteAll(todo); err != nil {
		return ch, err
	}
	ch.Written = written
	if opts.Prune == PruneListed {
		if err := writeManifest(dir, paths, opts.Sync); err != nil {
			return ch, err
		}
	}
	if opts.GitAttributes {
		return writeAttributes(dir, ch)
	}
	return ch, nil
}

// ListTree returns the files of the tree under dir that PruneAll counts as promptc's, as sorted slash paths: every
// regular file except dot files and whatever is under a dot directory. A missing dir holds none. A symbolic link or
// other irregular file in the tree is an error, since WriteTree could not keep it in step; dir itself may be a
// symbolic link to a directory.
func ListTree(dir string) ([]string, error) {
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	var out []string
	// os.DirFS follows dir itself when it is a symbolic link to a directory, and nothing below it.
	err = fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case p == ".":
			return nil
		case hidden(d.Name()) && d.IsDir():
			return fs.SkipDir
		case hidden(d.Name()) || d.IsDir():
			return nil
		case !d.Type().IsRegular():
			return fmt.Errorf("%s: not a regular file", p)
		}
		out = append(out, p)
		return nil
	})
	return out, err // WalkDir visits in lexical order: out is sorted
}

func hidden(name string) bool { return strings.HasPrefix(name, ".") }

// checkTreePath rejects the paths WriteTree could write but ListTree would not list back the same.
func checkTreePath(p string) error {
	if !fs.ValidPath(p) || p == "." || strings.Contains(p, `\`) {
		return fmt.Errorf("invalid artifact tree path %q: want a slash path relative to the tree", p)
	}
	for _, elem := range strings.Split(p, "/") {
		if hidden(elem) {
			return fmt.Errorf("invalid artifact tree path %q: dot files are not part of an artifact tree", p)
		}
	}
	return nil
}

// removeStale removes the stale file p and the directories it leaves empty. Under PruneListed, a listed file that is
// gone already, or is no longer a regular file, is not promptc's to remove: removed is false.
func removeStale(dir, p string, rule Prune) (removed bool, err error) {
	name := filepath.Join(dir, filepath.FromSlash(p))
	if rule == PruneListed {
		// A directory on the way that is now a symbolic link (or a file) leads somewhere promptc did not write.
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			if fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(d))); err != nil || !fi.IsDir() {
				return false, nil
			}
		}
		fi, err := os.Lstat(name)
		if errors.Is(err, fs.ErrNotExist) || err == nil && !fi.Mode().IsRegular() {
			return false, nil
		}
		if err != nil {
			return false, err
		}
	}
	if err := os.Remove(name); err != nil {
		return false, err
	}
	// Remove the directories above p that are left empty, up to dir itself (kept). os.Remove refuses a directory
	// that still holds something, which ends the climb.
	for d := path.Dir(p); d != "."; d = path.Dir(d) {
		if os.Remove(filepath.Join(dir, filepath.FromSlash(d))) != nil {
			break
		}
	}
	return true, nil
}

// removeTemps removes the temporary files atomicfile leaves behind when a process dies between creating one and
// renaming it: .NAME.tmp-RANDOM, beside the file NAME it was to replace. Under PruneAll every such file in the tree
// is promptc's; under PruneListed only those beside a file the manifest lists or files holds, or beside the manifest.
func removeTemps(dir string, rule Prune, owned, paths []string) error {
	isTemp := func(name string) bool {
		ok, _ := path.Match(".*.tmp-*", name)
		return ok
	}
	if rule == PruneAll {
		fsys := os.DirFS(dir)
		return fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case p == ".":
				return nil
			case d.IsDir() && hidden(d.Name()):
				return fs.SkipDir
			case !d.IsDir() && d.Type().IsRegular() && isTemp(d.Name()):
				return os.Remove(filepath.Join(dir, filepath.FromSlash(p)))
			}
			return nil
		})
	}
	// The names whose temporary files are ours, by directory.
	ours := map[string]map[string]bool{".": {BuildManifest: true}}
	for _, list := range [][]string{owned, paths} {
		for _, p := range list {
			d := path.Dir(p)
			if ours[d] == nil {
				ours[d] = map[string]bool{}
			}
			ours[d][path.Base(p)] = true
		}
	}
	for _, d := range slices.Sorted(maps.Keys(ours)) {
		entries, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(d)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		for _, e := range entries {
			name := e.Name()
			if !e.Type().IsRegular() || !isTemp(name) {
				continue
			}
			target := name[1:strings.LastIndex(name, ".tmp-")]
			if ours[d][target] {
				if err := os.Remove(filepath.Join(dir, filepath.FromSlash(d), name)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// readManifest returns the paths dir's manifest lists. A missing manifest lists nothing. Lines that are not valid
// tree paths are skipped: WriteTree removes nothing it cannot vouch for.
func readManifest(dir string) ([]string, error) {
	data, err := os.ReadFile(filepath.Join(dir, BuildManifest))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, `"`) {
			if line, err = strconv.Unquote(line); err != nil {
				continue
			}
		}
		if checkTreePath(line) == nil {
			out = append(out, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", filepath.Join(dir, BuildManifest), err)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// writeManifest records paths (sorted) as dir's manifest, atomically; a manifest already saying so is left alone.
func writeManifest(dir string, paths []string, sync bool) error {
	var b strings.Builder
	b.WriteString(manifestHeader)
	for _, p := range paths {
		if strings.HasPrefix(p, "#") || source.QuoteName(p) != p {
			p = strconv.Quote(p)
		}
		b.WriteString(p)
		b.WriteByte('\n')
	}
	return atomicfile.WriteAll([]atomicfile.File{{Name: filepath.Join(dir, BuildManifest), Data: []byte(b.String()), Perm: 0o644, NoSync: !sync}})
}

// isSubset reports whether every path of a (sorted) is in b (sorted).
func isSubset(a, b []string) bool {
	for _, p := range a {
		if _, ok := slices.BinarySearch(b, p); !ok {
			return false
		}
	}
	return true
}

func sortedUnion(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

// LinkError is the refusal to read or write an artifact tree through a symbolic link: a link committed in a cloned
// repository (golden -> ../home, out/issue -> /etc) would otherwise let promptc write or remove files outside the
// tree, or compare a build with itself (docs/guard.md, "Real directories only").
type LinkError struct {
	// Dir is the tree's directory as messages name it: the path as given, which a caller that knows the project
	// root may replace by what the user wrote ("golden", "--out out").
	Dir string
	// Rel is the link's slash path below Dir; "" when Dir itself is the link.
	Rel string
	// Target is what the link points to, as written in it ("" when it could not be read).
	Target string
	// Rule says what the tree must be instead, and what to do.
	Rule string
}

func (e *LinkError) Error() string {
	p := filepath.ToSlash(e.Dir)
	if e.Rel != "" {
		p = path.Join(p, e.Rel)
	}
	to := ""
	if e.Target != "" {
		to = " (to " + source.QuoteName(e.Target) + ")"
	}
	return source.QuoteName(p) + " is a symbolic link" + to + ": " + e.Rule
}

// NewLinkError returns the *LinkError for the link at slash path rel below dir ("" for dir itself), reading its
// target.
func NewLinkError(dir, rel, rule string) *LinkError {
	target, _ := os.Readlink(filepath.Join(dir, filepath.FromSlash(rel)))
	return &LinkError{Dir: dir, Rel: rel, Target: target, Rule: rule}
}

// treeRule is why WriteTree refuses a link under the directory it writes.
const treeRule = "artifacts are written only into real directories under the output directory, so that nothing " +
	"outside it is written or removed; replace the link with a directory, or choose another output directory"

// RealDirs returns a *LinkError (with rule) when one of dirs, slash paths relative to dir, is a symbolic link; the
// first in path order, so that a link is reported before anything beneath it is looked up through it. A missing
// directory is fine (it will be created); dir itself is not checked.
func RealDirs(dir string, dirs []string, rule string) error {
	dirs = slices.Sorted(slices.Values(dirs))
	for _, d := range slices.Compact(dirs) {
		fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(d)))
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return NewLinkError(dir, d, rule)
		}
	}
	return nil
}

// fileDirs returns every directory above the slash paths, excluding ".".
func fileDirs(paths []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		for d := path.Dir(p); d != "." && !seen[d]; d = path.Dir(d) {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}
