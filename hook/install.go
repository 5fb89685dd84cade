package hook

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/promptc/promptc/internal/atomicfile"
	"github.com/promptc/promptc/internal/gitfs"
)

// Options changes what Install does with a pre-commit hook that is not promptc's.
type Options struct {
	// Force overwrites such a hook instead of moving it to pre-commit.local. A pre-commit.local already there is
	// left alone, and still runs first.
	Force bool
}

// Action says what Install did to the pre-commit hook.
type Action int

const (
	// Added: there was no promptc hook; now there is (Summary says "installed").
	Added Action = iota
	// Updated: promptc's hook was there and now also checks this project.
	Updated
	// Unchanged: promptc's hook was there and already checked this project.
	Unchanged
)

// Result describes the hook Install left behind.
type Result struct {
	Action Action
	// Top is the top of the work tree; Hook the pre-commit hook (absolute paths).
	Top, Hook string
	// Project is the installing project, Projects every project the hook checks: slash-separated paths relative to
	// Top, sorted.
	Project  string
	Projects []string
	// Kept is set when Install moved the repository's own hook to pre-commit.local; Replaced when Options.Force
	// overwrote it; Chained when a pre-commit.local runs before the checks.
	Kept, Replaced, Chained bool
}

// Summary is one line for a person: what was done, what the hook runs, and what became of an existing hook.
func (r Result) Summary() string {
	hook := r.Hook
	if rel, err := filepath.Rel(r.Top, r.Hook); err == nil && filepath.IsLocal(rel) {
		hook = filepath.ToSlash(rel)
	}
	var s string
	switch r.Action {
	case Added:
		s = "installed " + hook
	case Updated:
		s = "updated " + hook
	default:
		s = hook + " is up to date"
	}
	s += " (runs: " + strings.Join(Commands(r.Projects), ", ") + ")"
	switch {
	case r.Kept && r.Chained:
		s += "; kept your existing hook as " + LocalName + ", which runs first"
	case r.Kept:
		// Not executable: git did not run it before either, and the promptc hook does not.
		s += "; kept your existing hook as " + LocalName + " (not executable, so it does not run)"
	case r.Replaced:
		s += "; replaced your existing hook (--force)"
	}
	if r.Chained && !r.Kept {
		s += "; " + LocalName + " runs first"
	}
	return s
}

// ConflictError is returned when the repository has a pre-commit hook that is not promptc's and a pre-commit.local
// as well, so the hook cannot be kept without overwriting something.
type ConflictError struct {
	Hook, Local string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s is not promptc's hook and %s exists, so it cannot be kept there: "+
		"merge the two by hand into %s and remove %s, or pass --force to overwrite %s",
		e.Hook, e.Local, LocalName, filepath.Base(e.Hook), filepath.Base(e.Hook))
}

// Install writes a pre-commit hook into the hooks directory of the git repository holding projectRoot (as git
// rev-parse --git-path hooks names it, so core.hooksPath and worktrees are respected) that runs promptc check for
// the project. A promptc hook already there gains the project and keeps the ones it had; any other hook is moved
// to pre-commit.local and runs first (a *ConflictError if that file exists too, unless opts.Force). Installing
// twice leaves the same bytes. The hook is written atomically.
func Install(projectRoot string, opts Options) (Result, error) {
	root, err := realAbs(projectRoot)
	if err != nil {
		return Result{}, err
	}
	top, hooksDir, err := gitDirs(root)
	if err != nil {
		return Result{}, err
	}
	rel, err := filepath.Rel(top, root)
	if err != nil || !filepath.IsLocal(rel) {
		return Result{}, fmt.Errorf("project %s is outside the work tree %s", root, top)
	}
	r := Result{
		Top:     top,
		Hook:    filepath.Join(hooksDir, "pre-commit"),
		Project: filepath.ToSlash(rel),
	}
	local := filepath.Join(hooksDir, LocalName)

	// Lstat, so that a dangling symbolic link counts as a hook of the user's and is kept like one.
	_, err = os.Lstat(r.Hook)
	exists := err == nil
	old, err := os.ReadFile(r.Hook)
	if exists && err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Result{}, fmt.Errorf("reading the existing hook: %w", err)
	}
	projects := []string{r.Project}
	foreign := exists && !IsOurs(old)
	if exists && !foreign {
		projects = append(projects, Projects(old)...)
	}
	r.Projects = normalize(projects)
	script := Script(r.Projects)

	switch {
	case !exists:
		r.Action = Added
	case foreign && opts.Force:
		r.Action, r.Replaced = Added, true
	case foreign:
		if _, err := os.Lstat(local); err == nil {
			return Result{}, &ConflictError{Hook: r.Hook, Local: local}
		}
		// Move first, so a failure leaves the user's hook where it was or where the message says it is.
		if err := os.Rename(r.Hook, local); err != nil {
			return Result{}, fmt.Errorf("keeping the existing hook: %w", err)
		}
		r.Action, r.Kept = Added, true
	case bytes.Equal(old, script) && executable(r.Hook):
		r.Action = Unchanged
	default:
		r.Action = Updated
	}
	if r.Action != Unchanged {
		if err := atomicfile.Write(r.Hook, script, 0o755); err != nil {
			if r.Kept {
				os.Rename(local, r.Hook) // put the user's hook back rather than leave no hook at all
			}
			return Result{}, fmt.Errorf("writing the hook: %w", err)
		}
	}
	r.Chained = executable(local)
	return r, nil
}

// gitDirs returns the top of the work tree holding the project and the hooks directory git runs hooks from.
func gitDirs(root string) (top, hooks string, err error) {
	top, err = gitfs.TopLevel(root)
	if errors.Is(err, exec.ErrNotFound) {
		return "", "", errors.New("git not found on PATH: a pre-commit hook needs git")
	}
	if err != nil {
		return "", "", err
	}
	cmd := exec.Command("git", "rev-parse", "--git-path", "hooks")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", "", fmt.Errorf("git rev-parse --git-path hooks: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	hooks = strings.TrimSuffix(string(out), "\n")
	if hooks == "" {
		return "", "", errors.New("git rev-parse --git-path hooks printed nothing")
	}
	// A relative answer is relative to where git ran; core.hooksPath may name a directory that does not exist yet.
	if !filepath.IsAbs(hooks) {
		hooks = filepath.Join(root, hooks)
	}
	return top, filepath.Clean(hooks), nil
}

// realAbs makes a path absolute with symbolic links resolved, so paths from git and from the user compare equal.
func realAbs(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

func executable(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
