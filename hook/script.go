package hook

import (
	"bytes"
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

// notFound is the hook's message when there is no promptc to run. It names the version to install as promptc's README
// does ("Which version to pin"): the commit hash, or once there is one the tag, the golden files were made with;
// @latest would install whatever is newest, whose bytes may differ.
const notFound = `echo "promptc pre-commit hook: $promptc not found: install the promptc version this repository pins ` +
	`(go install github.com/promptc/promptc/cmd/promptc@COMMIT, with the commit hash or tag its golden files were made with) ` +
	`or set PROMPTC to its path" >&2`

// formerNotFound are the messages earlier versions of Install wrote in notFound's place: their hooks are promptc's
// as written too, for Uninstall to tell a hook edited by hand from one it may remove.
var formerNotFound = []string{
	`echo "promptc pre-commit hook: $promptc not found: install it (go install github.com/promptc/promptc/cmd/promptc@latest) or set PROMPTC to its path" >&2`,
}

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
	` + notFound + `
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

// Projects returns the projects a hook written by Script checks, sorted: exactly the paths Script was given,
// whatever they hold. A check line's quoted path may span lines (a path may hold a newline), so the hook is read as
// the shell reads it, not line by line. Lines Script did not write are ignored.
func Projects(script []byte) []string {
	var projects []string
	for s := string(script); s != ""; {
		if rest, ok := strings.CutPrefix(s, checkPrefix); ok {
			if p, after, ok := quotedWord(rest); ok {
				projects = append(projects, p)
				s = after
			}
		}
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			break
		}
		s = s[i+1:]
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

// shellQuote quotes s for a POSIX shell: between single quotes nothing is special, and a single quote is closed,
// escaped and reopened:
//
//	it's → 'it'\''s'
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// quotedWord reads back a word shellQuote wrote at the start of s (single-quoted runs, which may hold newlines,
// and backslash-escaped single quotes) that ends its line. It returns the word and the rest of s from the end of
// the line on.
func quotedWord(s string) (word, rest string, ok bool) {
	var b strings.Builder
	for read := false; ; read = true {
		switch {
		case strings.HasPrefix(s, `\'`):
			b.WriteByte('\'')
			s = s[2:]
		case strings.HasPrefix(s, "'"):
			end := strings.IndexByte(s[1:], '\'')
			if end < 0 {
				return "", "", false
			}
			b.WriteString(s[1 : 1+end])
			s = s[2+end:]
		case read:
			// The word ends here, and so must the line: "\r\n" where a hook was given Windows line ends.
			if s == "" || strings.HasPrefix(s, "\n") || strings.HasPrefix(s, "\r\n") {
				return b.String(), s, true
			}
			return "", "", false
		default:
			return "", "", false
		}
	}
}
