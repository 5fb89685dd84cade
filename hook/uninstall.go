package hook

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/promptc/promptc/internal/atomicfile"
)

// Removal says what Uninstall did to the pre-commit hook.
type Removal int

const (
	// NotInstalled: the hook does not check the project (there is none, it is not promptc's, or it checks other
	// projects only); nothing was changed.
	NotInstalled Removal = iota
	// Narrowed: the hook no longer checks the project. It still checks the others, or (Edited) it holds lines
	// Install did not write, and is kept for them.
	Narrowed
	// Removed: the hook checked the project alone and is gone; no hook of the repository's was waiting in
	// pre-commit.local.
	Removed
	// Restored: the hook checked the project alone, and the hook in pre-commit.local (the repository's own, which
	// Install kept there, with whatever was added to it since) is the pre-commit hook again.
	Restored
)

// Uninstalled describes the hook Uninstall left behind.
type Uninstalled struct {
	Removal Removal
	// Top is the top of the work tree; Hook the pre-commit hook (absolute paths).
	Top, Hook string
	// Project is the uninstalling project, Projects every project the hook still checks: slash-separated paths
	// relative to Top, sorted.
	Project  string
	Projects []string
	// Absent is set when there is no pre-commit hook, Foreign when it is not promptc's (NotInstalled both): it is
	// left as it is.
	Absent, Foreign bool
	// Edited is set when the hook holds lines Install did not write: only the project's check line was taken out,
	// and the hook, with the lines, is kept even when it checks no project any more.
	Edited bool
}

// Summary is one line for a person: what was done and what the hook still runs.
func (r Uninstalled) Summary() string {
	hook := r.Hook
	if rel, err := filepath.Rel(r.Top, r.Hook); err == nil && filepath.IsLocal(rel) {
		hook = filepath.ToSlash(rel)
	}
	check := strings.Join(Commands([]string{r.Project}), "")
	runs := ""
	if len(r.Projects) > 0 {
		runs = " (runs: " + strings.Join(Commands(r.Projects), ", ") + ")"
	}
	switch {
	case r.Removal == Narrowed && len(r.Projects) == 0:
		return "updated " + hook + ": removed " + check + "; kept the hook, which holds lines promptc did not write"
	case r.Removal == Narrowed:
		return "updated " + hook + ": removed " + check + runs
	case r.Removal == Removed:
		return "removed " + hook + " (it ran only " + check + ")"
	case r.Removal == Restored:
		return "removed " + hook + " (it ran only " + check + "); your own hook, " + LocalName + ", is " + hook + " again"
	case r.Absent:
		return "no pre-commit hook (" + hook + "): nothing to remove"
	case r.Foreign:
		return hook + " is not promptc's hook: left as it is, nothing to remove"
	}
	return hook + " does not run " + check + ": nothing to remove" + runs
}

// Uninstall takes the check of the project at projectRoot back out of the pre-commit hook Install wrote for the git
// repository holding it, and nothing else: the other projects' checks stay; a hook that checked only this project
// is removed, and a hook that Install kept as pre-commit.local becomes the pre-commit hook again, as it was before
// Install. A pre-commit hook that is not promptc's is left alone. Lines added by hand to promptc's hook are kept
// (the hook is then kept too, with Edited set). Each change is atomic: the hook is rewritten by a rename, replaced
// by pre-commit.local by a rename, or removed. Uninstalling twice changes nothing the second time.
func Uninstall(projectRoot string) (Uninstalled, error) {
	root, err := realAbs(projectRoot)
	if err != nil {
		return Uninstalled{}, err
	}
	top, hooksDir, err := gitDirs(root)
	if err != nil {
		return Uninstalled{}, err
	}
	rel, err := filepath.Rel(top, root)
	if err != nil || !filepath.IsLocal(rel) {
		return Uninstalled{}, fmt.Errorf("project %s is outside the work tree %s", root, top)
	}
	r := Uninstalled{Top: top, Hook: filepath.Join(hooksDir, "pre-commit"), Project: filepath.ToSlash(rel)}
	local := filepath.Join(hooksDir, LocalName)

	fi, err := os.Lstat(r.Hook)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		r.Absent = true
		return r, nil
	case err != nil:
		return Uninstalled{}, fmt.Errorf("reading the hook: %w", err)
	case !fi.Mode().IsRegular():
		// Install writes a file; a link or anything else is the repository's own.
		r.Foreign = true
		return r, nil
	}
	old, err := os.ReadFile(r.Hook)
	if err != nil {
		return Uninstalled{}, fmt.Errorf("reading the hook: %w", err)
	}
	if !IsOurs(old) {
		r.Foreign = true
		return r, nil
	}
	script, removed := withoutProject(old, r.Project)
	r.Projects = Projects(script)
	if !removed {
		return r, nil
	}
	r.Edited = !installWrote(script, r.Projects)
	switch {
	case len(r.Projects) > 0 || r.Edited:
		r.Removal = Narrowed
	case exists(local):
		// The rename replaces promptc's hook in one step: there is always a hook, the old one or the user's.
		if err := os.Rename(local, r.Hook); err != nil {
			return Uninstalled{}, fmt.Errorf("restoring %s: %w", LocalName, err)
		}
		r.Removal = Restored
		return r, nil
	default:
		if err := os.Remove(r.Hook); err != nil {
			return Uninstalled{}, fmt.Errorf("removing the hook: %w", err)
		}
		r.Removal = Removed
		return r, nil
	}
	if err := atomicfile.Write(r.Hook, script, fi.Mode().Perm()); err != nil {
		return Uninstalled{}, fmt.Errorf("writing the hook: %w", err)
	}
	return r, nil
}

// withoutProject returns script without the check lines of project (Script's, read as Projects reads them, their
// line ends included), and whether there was one. Every other byte is kept.
func withoutProject(script []byte, project string) ([]byte, bool) {
	var out []byte
	removed := false
	for s := string(script); s != ""; {
		if rest, ok := strings.CutPrefix(s, checkPrefix); ok {
			if p, after, ok := quotedWord(rest); ok {
				if p == project {
					removed = true
					after, _ = cutLineEnd(after)
				} else {
					// Another project's check, kept whole: its path may span lines, none of which is a check.
					out = append(out, s[:len(s)-len(after)]...)
				}
				s = after
				continue
			}
		}
		line, rest := s, ""
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, rest = s[:i+1], s[i+1:]
		}
		out = append(out, line...)
		s = rest
	}
	return out, removed
}

// installWrote reports whether script is what Install writes for projects, by this version or an earlier one.
func installWrote(script []byte, projects []string) bool {
	for _, p := range projects {
		script, _ = withoutProject(script, p)
	}
	bare := string(Script(nil))
	if string(script) == bare {
		return true
	}
	for _, former := range formerNotFound {
		if string(script) == strings.Replace(bare, notFound, former, 1) {
			return true
		}
	}
	return false
}

// cutLineEnd removes the line end ("\n" or "\r\n") s starts with.
func cutLineEnd(s string) (string, bool) {
	if rest, ok := strings.CutPrefix(s, "\r\n"); ok {
		return rest, true
	}
	return strings.CutPrefix(s, "\n")
}

func exists(name string) bool {
	_, err := os.Lstat(name)
	return err == nil
}
