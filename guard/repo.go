package guard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/promptc/promptc/internal/gitfs"
)

// RepoPrefix is the project root (projectRoot) relative to the top of the git work tree holding it, with a trailing slash ("" at
// the top or outside a work tree): annotations name files from the repository root.
func RepoPrefix(projectRoot string) string {
	top, err := gitfs.TopLevel(projectRoot)
	if err != nil {
		return ""
	}
	root, err := filepath.EvalSymlinks(projectRoot) // as TopLevel's answer is
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(top, root)
	if err != nil || rel == "." || !filepath.IsLocal(rel) {
		return ""
	}
	return filepath.ToSlash(rel) + "/"
}

// ReportDir is the project root relative to the working directory wd, slash-separated ("." when they are the same):
// text reports name source files from there, so a terminal can open them.
func ReportDir(wd, projectRoot string) string {
	if wd == "" {
		return ""
	}
	wd, err1 := filepath.EvalSymlinks(wd)
	root, err2 := filepath.EvalSymlinks(projectRoot)
	if err1 != nil || err2 != nil {
		return ""
	}
	rel, err := filepath.Rel(wd, root)
	if err != nil {
		return ""
	}
	return filepath.ToSlash(rel)
}

// RepoLinks are the web links of the repository holding the project at its checked-out commit, for markdown reports;
// nil when git knows no web address for it.
func RepoLinks(projectRoot string) *Links {
	base, ok := gitfs.WebURL(projectRoot)
	if !ok {
		return nil
	}
	commit, err := gitfs.Head(projectRoot)
	if err != nil {
		return nil
	}
	return &Links{Base: base, Commit: commit}
}

// UpdateRefusal returns why promptc check --update refuses to rewrite golden/ here, or nil: the CI environment
// variable says this runs in continuous integration (set and not empty, "0" or "false", any case; GitHub Actions,
// GitLab CI, CircleCI, Travis, Buildkite and most others set CI=true), where accepting the artifacts would hide the
// drift check exists to catch. --force overrides it.
func UpdateRefusal() error {
	v := os.Getenv("CI")
	if v == "" || v == "0" || strings.EqualFold(v, "false") {
		return nil
	}
	return fmt.Errorf("refusing to rewrite golden/ in CI (CI=%q): accepting the artifacts "+
		"there would hide the drift check exists to catch; run it where you can review and commit the "+
		"change, or add --force to rewrite golden/ anyway", v)
}

// InGitHubActions reports whether this runs in a GitHub Actions workflow (GITHUB_ACTIONS=true), which reads
// ::error workflow commands (WriteAnnotations).
func InGitHubActions() bool { return os.Getenv("GITHUB_ACTIONS") == "true" }
