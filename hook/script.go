package hook

import (
	"bytes"
	"errors"
	"sort"
	"strings"
)

// Marker is the comment line that identifies a pre-commit hook as promptc's: a hook holding it is rewritten by
// Install, any other hook is kept and chained.
const Marker = "# promptc-hook: written by `promptc hook install`, which rewrites it; keep your own commands in pre-commit.local"

// LocalName is the file, beside the pre-commit hook, that holds the hook the repository had before promptc's. The
// promptc hook runs it first and stops the commit when it fails.
const LocalName = "pre-commit.local"

// checkPrefix starts each line that checks a project, followed by the project's quoted path: Script writes these
// lines and Projects reads them back, so a second install can add a project without losing the first.
const checkPrefix = "check_project "

const scriptHead = `#!/bin/sh
` + Marker + `
#
# Stops a commit when the prompts of a promptc project no longer compile to the bytes in its golden/ directory.
# PROMPTC names the promptc binary to run (default: promptc on PATH). Skip the hook once: git commit --no-verify.

# The hook this repository had before promptc's runs first, and a failure there stops the commit.
hookdir=$(dirname "$0")
if [ -x "$hookdir/` + LocalName + `" ]; then
	"$hookdir/` + LocalName + `" "$@" || exit $?
fi

# Project paths below are relative to the top of the work tree.
top=$(git rev-parse --show-toplevel) || exit 1
cd "$top" || exit 1

promptc=${PROMPTC:-promptc}
if ! command -v "$promptc" >/dev/null 2>&1; then
	echo "promptc pre-commit hook: $promptc not found: install it (go install github.com/promptc/promptc/cmd/promptc@latest) or set PROMPTC to its path" >&2
	exit 1
fi

# Every project is checked, so that one commit reports every project that drifted. A project missing from this
# checkout (another branch, another worktree) is skipped, not failed.
status=0
check_project() {
	if [ -f "$1/promptc.toml" ]; then
		"$promptc" -C "$1" check || status=$?
	else
		echo "promptc pre-commit hook: skipping $1: no promptc.toml there" >&2
	fi
}

`

// Script returns the pre-commit hook that checks the given projects, named by their slash-separated paths relative
// to the top of the work tree. The bytes depend on the set of projects alone: they are sorted and deduplicated.
func Script(projects []string) []byte {
	var b bytes.Buffer
	b.WriteString(scriptHead)
	for _, p := range normalize(projects) {
		b.WriteString(checkPrefix + shellQuote(p) + "\n")
	}
	b.WriteString("exit $status\n")
	return b.Bytes()
}

// IsOurs reports whether a hook's text holds Marker on a line of its own.
func IsOurs(script []byte) bool {
	for _, line := range strings.Split(string(script), "\n") {
		if strings.TrimRight(line, "\r") == Marker {
			return true
		}
	}
	return false
}

// Projects returns the projects a hook written by Script checks, sorted. Lines it did not write are ignored.
func Projects(script []byte) []string {
	var projects []string
	for _, line := range strings.Split(string(script), "\n") {
		quoted, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), checkPrefix)
		if !ok {
			continue
		}
		if p, err := shellUnquote(quoted); err == nil {
			projects = append(projects, p)
		}
	}
	return normalize(projects)
}

// Commands returns the command each project's check line runs, as a user would type it.
func Commands(projects []string) []string {
	var cmds []string
	for _, p := range normalize(projects) {
		arg := p
		if strings.ContainsAny(p, " \t\n'\"\\$`*?[]{}()<>|&;#~!") {
			arg = shellQuote(p)
		}
		cmds = append(cmds, "promptc -C "+arg+" check")
	}
	return cmds
}

func normalize(projects []string) []string {
	seen := make(map[string]bool)
	var out []string
	for _, p := range projects {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// shellQuote quotes s for a POSIX shell: between single quotes nothing is special, and a single quote is written
// as '\” (close, escaped quote, reopen).
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellUnquote reads back what shellQuote wrote: single-quoted runs and backslash-escaped single quotes.
func shellUnquote(s string) (string, error) {
	var b strings.Builder
	for s != "" {
		switch {
		case strings.HasPrefix(s, `\'`):
			b.WriteByte('\'')
			s = s[2:]
		case s[0] == '\'':
			end := strings.IndexByte(s[1:], '\'')
			if end < 0 {
				return "", errors.New("unterminated quote")
			}
			b.WriteString(s[1 : 1+end])
			s = s[2+end:]
		default:
			return "", errors.New("not a quoted word")
		}
	}
	return b.String(), nil
}
