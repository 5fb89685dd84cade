package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/atomicfile"
	"github.com/promptc/promptc/internal/enum"
	"github.com/promptc/promptc/source"
)

// MaxFileBytes is the size of the largest context file Install, Check and Uninstall work on: 8 MiB, as for a
// project's source files. A larger one is refused and left untouched.
const MaxFileBytes = blocks.MaxSourceBytes

// Action says what Install or Uninstall did to a context file, or, from Check, what Install would do.
type Action uint8

const (
	// Current: the file already held the block; nothing was written (its modification time is unchanged).
	Current Action = iota
	// Created: there was no file; now it holds the block alone.
	Created
	// Replaced: the file's block was replaced in place.
	Replaced
	// Appended: the file had no block; "\n\n" and the block were appended to it.
	Appended
	// Absent: uninstall found no block (or no file): nothing was written.
	Absent
	// Removed: uninstall took the block out and kept the rest of the file.
	Removed
	// Deleted: uninstall took the block out and the file went with it, since install had created it and nothing
	// else was left.
	Deleted
)

var actionNames = []string{"current", "created", "replaced", "appended", "absent", "removed", "deleted"}

var actions = enum.New[Action]("Action", "action", actionNames...)

func (a Action) String() string { return actions.String(a) }

// Result is what Install, Check or Uninstall did with one target's context file.
type Result struct {
	Target *blocks.Target
	// Path is the context file: the directory joined with the target's file, as the caller named the directory.
	Path string
	// Link is set when Path is a symbolic link: the file the link leads to, which was read and written instead.
	Link   string
	Action Action
	// Line is, from Check, the first line of the file that installing would change (1 for a file that does not
	// exist); 0 when the file is current.
	Line int
	// Dirs are the directories Install created for the file, or Uninstall removed with it, nearest the top first.
	Dirs []string
}

// Changed reports whether the file was changed (by Install or Uninstall), or would be by Install (from Check).
func (r Result) Changed() bool { return r.Action != Current && r.Action != Absent }

// String is one line for a person: the file and what was done to it.
func (r Result) String() string {
	s := source.QuoteName(r.Path)
	name := strconv.Quote(r.Target.Name)
	switch r.Action {
	case Current:
		s += ": up to date"
	case Created:
		s += ": created, holding the block of target " + name
	case Replaced:
		s += ": replaced the block of target " + name
	case Appended:
		s += ": appended the block of target " + name
	case Absent:
		s += ": no block of target " + name + " to remove"
	case Removed:
		s += ": removed the block of target " + name
	case Deleted:
		s += ": removed (it held only the block of target " + name + ")"
	}
	if r.Link != "" {
		s += " (through the symbolic link, in " + source.QuoteName(r.Link) + ")"
	}
	return s
}

// Install installs runbook into the context file of each target under dir (docs/workspaces.md): a missing file is
// created holding the block alone (with the directories it needs), a block already there is replaced in place, and
// otherwise the block is appended after "\n\n". A file that already holds exactly the right bytes is not written
// at all. Each write is atomic (a temporary file beside it, synced, renamed over it, the directory synced), keeps
// the file's mode (and its owner, where allowed), and goes through a symbolic link to the file it names, resolved
// as the kernel resolves it. Writes to the files of one directory are serialised by a lock on the directory where
// the write happens, so concurrent installs never lose each other's blocks.
//
// dir must exist. Refused and left as they are: a file that is not UTF-8 or is over MaxFileBytes, one whose
// markers Find refuses (a half-written block, a second block: the diagnostic is at the begin marker's line), one
// with no write permission bits or with several names (hard links), and a runbook that holds one of the target's
// markers. Every target is tried; the error, a source.Diagnostics, lists every problem, naming the file (and the
// line and column where there is one).
func Install(dir, runbook string, targets ...*blocks.Target) (Results, error) {
	return each(dir, targets, func(w *file) (Result, error) { return w.install(runbook, true) })
}

// Check is Install without writing: each Result says what Install would do (Current when the file is up to date)
// and, when it would change the file, the first line it would change. It is how a repository that commits its
// generated AGENTS.md proves in CI that the file is current.
func Check(dir, runbook string, targets ...*blocks.Target) (Results, error) {
	return each(dir, targets, func(w *file) (Result, error) { return w.install(runbook, false) })
}

// Uninstall takes the block of each target out of its context file under dir, with the "\n\n" install put before
// it, and keeps every other byte as it is now, edits made since the install included. A file that held only the
// block is removed, and so are the directories between dir and it that are left empty (those install created, and
// any that held nothing else: promptc keeps no record of what it created). A file with no block
// (or no file) is left alone (Action Absent). Writes are atomic, as Install's.
func Uninstall(dir string, targets ...*blocks.Target) (Results, error) {
	return each(dir, targets, func(w *file) (Result, error) { return w.uninstall() })
}

// each runs op on the context file of every target, in order, and gathers the results and problems.
func each(dir string, targets []*blocks.Target, op func(*file) (Result, error)) (Results, error) {
	var diags source.Diagnostics
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		diags.Errorf(source.Range{Filename: dir}, "no such directory: install works in an existing directory (a checkout, a workspace); create it first")
		return nil, diags
	case err != nil:
		diags.Errorf(source.Range{Filename: dir}, "the directory to install into cannot be used: %v", unwrapPath(err))
		return nil, diags
	case !fi.IsDir():
		diags.Errorf(source.Range{Filename: dir}, "the directory to install into is not a directory")
		return nil, diags
	}
	var results Results
	for _, t := range targets {
		w := &file{dir: filepath.Clean(dir), t: t, path: filepath.Join(dir, filepath.FromSlash(t.File))}
		res, err := op(w)
		if err != nil {
			var ds source.Diagnostics
			var me *MarkerError
			switch {
			case errors.As(err, &ds):
				diags = append(diags, ds...)
			case errors.As(err, &me):
				at := source.Pos{Line: me.Line, Column: 1, Byte: me.Byte}
				diags.Errorf(source.Range{Filename: w.path, Start: at, End: at}, "%s", me.Message())
			default:
				diags.Errorf(source.Range{Filename: w.path}, "%v", unwrapPath(err))
			}
			continue
		}
		results = append(results, res)
	}
	return results, diags.Err()
}

// file is one target's context file under a directory.
type file struct {
	dir  string
	t    *blocks.Target
	path string // dir joined with the target's file
	real string // path with symbolic links followed
}

func (w *file) result(a Action) Result {
	r := Result{Target: w.t, Path: w.path, Action: a}
	if w.real != w.path {
		r.Link = w.real
	}
	return r
}

func (w *file) install(runbook string, write bool) (Result, error) {
	if err := checkRunbook(w.t, runbook); err != nil {
		return Result{}, err
	}
	if err := w.resolve(); err != nil {
		return Result{}, err
	}
	if !write {
		// What Install would meet: a link into a missing directory, a file where a directory must be.
		if err := w.linkDir(); err != nil {
			return Result{}, err
		}
		if err := w.checkDirs(); err != nil {
			return Result{}, err
		}
		return w.apply(runbook, false)
	}
	created, err := w.makeDirs()
	if err != nil {
		removeEmpty(created) // nothing was installed: leave no empty directories behind
		return Result{}, err
	}
	res, err := w.lockedApply(runbook)
	if err != nil {
		removeEmpty(created)
		return Result{}, err
	}
	res.Dirs = created
	return res, nil
}

// lockedApply is apply, writing, with the directory of the file locked.
func (w *file) lockedApply(runbook string) (Result, error) {
	unlock, err := w.lock()
	if err != nil {
		return Result{}, err
	}
	defer unlock()
	return w.apply(runbook, true)
}

// apply reads the file, works out what installing runbook does to it, and does it when write is set (with the
// file's directory existing and locked).
func (w *file) apply(runbook string, write bool) (Result, error) {
	data, info, err := w.read()
	if err != nil {
		return Result{}, err
	}
	exists := info != nil
	block := Bytes(w.t, runbook)
	sp, err := Find(data, w.t)
	if err != nil {
		return Result{}, err
	}
	res := w.result(Current)
	switch {
	case !exists:
		res.Action = Created
	case sp.Found && bytes.Equal(data[sp.Start:sp.End], block):
		return res, nil // installing would give the same bytes: nothing to write, not even a copy to make
	case sp.Found:
		res.Action = Replaced
	default:
		res.Action = Appended
	}
	out := installedAt(data, exists, block, sp)
	if len(out) > MaxFileBytes {
		// Written, the file could no longer be read back, and uninstall could not undo the install.
		var diags source.Diagnostics
		diags.Errorf(source.Range{Filename: w.path}, "installing would make the context file %d bytes, over the 8 MiB (%d bytes) promptc reads back; it is left as it is: shorten the file or the runbook", len(out), MaxFileBytes)
		return Result{}, diags
	}
	if !write {
		res.Line = firstDiffLine(data, out)
		return res, nil
	}
	perm := os.FileMode(0o644)
	if exists {
		perm = info.Mode().Perm()
	}
	return res, atomicfile.WriteAll([]atomicfile.File{{Name: w.real, Data: out, Perm: perm, Like: info}})
}

// lock takes the lock on the directory holding the file, and removes the temporary files of writes to it that
// died before their rename: with the lock held, no live promptc is writing one.
func (w *file) lock() (unlock func(), err error) {
	if err := w.linkDir(); err != nil {
		return nil, err
	}
	unlock, err = lockDir(filepath.Dir(w.real))
	if err != nil {
		return nil, err
	}
	removeStaleTemps(filepath.Dir(w.real), filepath.Base(w.real))
	return unlock, nil
}

// linkDir checks that the directory of the file a symbolic link leads to exists: install creates the directories of
// a target's own path, never those of a link's destination.
func (w *file) linkDir() error {
	if w.real == w.path {
		return nil
	}
	if _, err := os.Stat(filepath.Dir(w.real)); err != nil {
		return fmt.Errorf("the symbolic link leads to %s, whose directory cannot be used: %v", source.QuoteName(w.real), unwrapPath(err))
	}
	return nil
}

// removeStaleTemps removes the temporary files, .BASE.tmp-DIGITS, that atomic writes of base left behind.
func removeStaleTemps(dir, base string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := strings.TrimSuffix(atomicfile.TempPattern(base), "*")
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if ok && rest != "" && strings.Trim(rest, "0123456789") == "" && e.Type().IsRegular() {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

func (w *file) uninstall() (Result, error) {
	if err := w.resolve(); err != nil {
		return Result{}, err
	}
	if fi, err := os.Stat(filepath.Dir(w.real)); errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || err == nil && !fi.IsDir() {
		return w.result(Absent), nil // no directory for the file, so no file and no block
	}
	unlock, err := w.lock()
	if err != nil {
		return Result{}, err
	}
	defer unlock()
	data, info, err := w.read()
	if err != nil || info == nil {
		return w.result(Absent), err
	}
	sp, err := Find(data, w.t)
	if err != nil {
		return Result{}, err
	}
	out, remove, found := uninstalledAt(data, sp)
	res := w.result(Absent)
	if !found {
		return res, nil
	}
	if !remove {
		res.Action = Removed
		err := atomicfile.WriteAll([]atomicfile.File{{Name: w.real, Data: out, Perm: info.Mode().Perm(), Like: info}})
		return res, err
	}
	res.Action = Deleted
	if err := os.Remove(w.real); err != nil {
		return Result{}, err
	}
	syncDir(filepath.Dir(w.real))
	if w.real == w.path {
		res.Dirs = removeEmpty(w.parents())
	}
	return res, nil
}

// resolve follows symbolic links from the file's path to the file they lead to, which may not exist yet (a link
// to a file install is to create). A link is written through, never replaced by a regular file.
func (w *file) resolve() error {
	p := w.path
	for hops := 0; ; hops++ {
		fi, err := os.Lstat(p)
		// A file on the path where a directory should be (ENOTDIR) means no file either: install, check and
		// uninstall each say what that means for them, naming the file in the way.
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || (err == nil && fi.Mode()&fs.ModeSymlink == 0) {
			if err == nil && !fi.Mode().IsRegular() {
				if p == w.path {
					return fmt.Errorf("it is not a regular file (%s): promptc installs only into regular files", fileKind(fi.Mode()))
				}
				return fmt.Errorf("the symbolic link leads to %s, which is not a regular file (%s): promptc installs only into regular files", source.QuoteName(realPath(p)), fileKind(fi.Mode()))
			}
			w.real = w.path
			if p != w.path {
				w.real = realPath(p)
			}
			return nil
		}
		if err != nil {
			return err
		}
		if hops == 40 {
			return fmt.Errorf("too many symbolic links from %s: is there a cycle?", source.QuoteName(w.path))
		}
		to, err := os.Readlink(p)
		if err != nil {
			return err
		}
		if !filepath.IsAbs(to) {
			// A relative link is relative to the directory holding it, as the kernel resolves it: that directory's
			// own path with every link on the way to it followed, component by component. Joined as text,
			// "wslink/CLAUDE.md -> ../notes.md" would lead to ./notes.md, when wslink -> vol/ws puts the file in
			// vol/notes.md. The link's text is appended as it is, not cleaned, so that the kernel also resolves a
			// ".." after a link inside it.
			d, err := filepath.EvalSymlinks(rawDir(p))
			if err != nil {
				return err
			}
			to = d + string(filepath.Separator) + to
		}
		p = to
	}
}

// rawDir is filepath.Dir without its cleaning: "a/link/../b" is in "a/link/..", which is not "a" when link is a
// symbolic link.
func rawDir(p string) string {
	i := strings.LastIndexByte(p, filepath.Separator)
	switch {
	case i < 0:
		return "."
	case i == 0:
		return p[:1]
	}
	return p[:i]
}

// realPath returns p, which a link led to, with the links of its directory followed and "." and ".." resolved
// as the kernel does: where the bytes really go, for the messages and for the lock. A p whose directory does not
// exist is returned clean, and refused later (install makes no directories for a link).
func realPath(p string) string {
	d, err := filepath.EvalSymlinks(rawDir(p))
	if err != nil {
		return filepath.Clean(p)
	}
	return filepath.Join(d, filepath.Base(p))
}

// read returns the file's bytes and information, or nil information when there is no file. It refuses a file that
// is too large or not UTF-8.
func (w *file) read() ([]byte, os.FileInfo, error) {
	f, err := os.Open(w.real)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if errors.Is(err, syscall.ENOTDIR) {
		return nil, nil, w.fileOnPath()
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	var diags source.Diagnostics
	if msg := refusedFile(info); msg != "" {
		diags.Errorf(source.Range{Filename: w.path}, "%s", msg)
		return nil, nil, diags
	}
	if info.Size() > MaxFileBytes {
		diags.Errorf(source.Range{Filename: w.path}, "context file too large (%d bytes): promptc installs into files of at most 8 MiB (%d bytes) and has left this one as it is", info.Size(), MaxFileBytes)
		return nil, nil, diags
	}
	// One buffer of the size the file has, plus a byte to see it grow meanwhile: a 1 MiB file read through
	// io.ReadAll's doubling buffer cost more in page faults than everything else install does.
	data := make([]byte, 0, info.Size()+1)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		if len(data) == cap(data) {
			if len(data) > MaxFileBytes {
				break
			}
			data = append(data, 0)[:len(data)] // the file grew while being read: make room and go on
		}
	}
	if len(data) > MaxFileBytes {
		diags.Errorf(source.Range{Filename: w.path}, "context file too large (over %d bytes): promptc installs into files of at most 8 MiB and has left this one as it is", MaxFileBytes)
		return nil, nil, diags
	}
	if bad, invalid := source.InvalidUTF8(data); invalid {
		diags.Errorf(source.Range{Filename: w.path, Start: bad, End: bad}, "invalid UTF-8 (byte 0x%02x): promptc installs only into UTF-8 text files and has left this one as it is", data[bad.Byte])
		return nil, nil, diags
	}
	return data, info, nil
}

// refusedFile says why promptc will not rewrite a context file it can read, or "" when it will (docs/workspaces.md,
// "What is refused"). A file with no write permission bits is one its owner has said not to change: root could
// rewrite it anyway, and promptc does not. A file with several names (hard links) would be split in two by the
// atomic write, which renames a new file over one name while the others keep the old bytes (docs/decisions.md,
// "Hard-linked context files are refused").
func refusedFile(info os.FileInfo) string {
	if info.Mode().Perm()&0o222 == 0 {
		return fmt.Sprintf("the context file is read-only (mode %04o): promptc does not rewrite a file nobody may "+
			"write, even where it could; it is left as it is: make it writable (chmod u+w) for promptc to change it",
			info.Mode().Perm())
	}
	if n := linkCount(info); n > 1 {
		return fmt.Sprintf("the context file has %d names (hard links): an install writes a new file and renames it "+
			"over this name, so the other names would keep the old bytes without a word; it is left as it is: give "+
			"it a file of its own (cp it to a new name, then mv that over it), or make the other names symbolic "+
			"links, which promptc writes through", n)
	}
	return ""
}

// parents lists the directories between dir and the file, nearest the top first: for the target file "a/b/c.md",
// dir/a and dir/a/b. They come from the target's file, which the loader keeps inside dir (no "..", not absolute),
// not from comparing path lengths, which goes wrong for a dir of "." (joined, it disappears from the path).
func (w *file) parents() []string {
	var ds []string
	for d := path.Dir(w.t.File); d != "." && d != "/"; d = path.Dir(d) {
		ds = append([]string{filepath.Join(w.dir, filepath.FromSlash(d))}, ds...)
	}
	return ds
}

// makeDirs creates the directories between dir and the file that do not exist yet, and returns them, nearest the
// top first. A symbolic link's file is not given directories: its directory must exist.
func (w *file) makeDirs() ([]string, error) {
	if w.real != w.path {
		return nil, nil
	}
	var created []string
	for _, d := range w.parents() {
		err := os.Mkdir(d, 0o755)
		switch {
		case err == nil:
			created = append(created, d)
		case errors.Is(err, fs.ErrExist):
			if fi, serr := os.Stat(d); serr == nil && !fi.IsDir() {
				return created, w.notDir(d)
			}
		default:
			return created, err
		}
	}
	if len(created) > 0 {
		syncDir(filepath.Dir(created[0]))
	}
	return created, nil
}

// checkDirs is makeDirs without making anything, for Check: it refuses what makeDirs would, a file where the
// target's file needs a directory.
func (w *file) checkDirs() error {
	if w.real != w.path {
		return nil
	}
	for _, d := range w.parents() {
		fi, err := os.Stat(d)
		switch {
		case err == nil && !fi.IsDir():
			return w.notDir(d)
		case err != nil:
			return nil // missing: Install would make it (or, for another error, meet it and say so)
		}
	}
	return nil
}

// fileOnPath is the error for a file whose path goes through a file, as if it were a directory: it names that
// file, which "not a directory" alone does not.
func (w *file) fileOnPath() error {
	for d := filepath.Dir(w.real); ; d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err == nil {
			if fi.IsDir() {
				break
			}
			return w.notDir(d)
		}
		if up := filepath.Dir(d); up == d {
			break
		}
	}
	return fmt.Errorf("a file on its path is not a directory")
}

// notDir is the error for d, a file on the path of the target's file where a directory must be.
func (w *file) notDir(d string) error {
	return fmt.Errorf("%s is a file, not a directory, and the target's file %s needs it to be a directory: move the "+
		"file away, or change the target's file in promptc.toml", source.QuoteName(d), strconv.Quote(w.t.File))
}

// removeEmpty removes the directories of ds (nearest the top first) that are empty, deepest first, stopping at the
// first that is not, and returns those it removed, nearest the top first.
//
// Only real directories go: a symbolic link on the path is the user's (to a directory holding anything), and
// os.Remove would delete the link itself.
func removeEmpty(ds []string) []string {
	i := len(ds)
	for i > 0 && isDir(ds[i-1]) && os.Remove(ds[i-1]) == nil {
		i--
	}
	if i < len(ds) {
		syncDir(filepath.Dir(ds[i]))
	}
	return ds[i:]
}

// firstDiffLine is the line (from 1) of old holding the first byte where new differs from it.
func firstDiffLine(old, new []byte) int {
	i := 0
	for i < len(old) && i < len(new) && old[i] == new[i] {
		i++
	}
	return bytes.Count(old[:i], []byte("\n")) + 1
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // best effort: some file systems cannot sync directories
		d.Close()
	}
}

func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// unwrapPath drops the operation and path an *fs.PathError adds: the diagnostic names the file already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// isDir reports whether p is a directory itself, not a symbolic link to one.
func isDir(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}
