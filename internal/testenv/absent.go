package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// CI reports whether the CI environment variable says this is a CI run: set, and not empty, "0" or "false" in any
// case, the rule `promptc check --update` follows (docs/guard.md). GitHub Actions, GitLab CI and most other services
// set CI=true.
func CI() bool {
	v := os.Getenv("CI")
	return v != "" && v != "0" && !strings.EqualFold(v, "false")
}

// Absent stops a test that cannot run here because something outside the repository is missing, which format and
// args say. Outside CI it skips the test; in CI it fails it. Never use it for a file of the repository: a missing
// one is a failure everywhere.
func Absent(tb testing.TB, format string, args ...any) {
	tb.Helper()
	msg := fmt.Sprintf(format, args...)
	if CI() {
		tb.Fatalf("%s (CI=%s: a CI machine must have what the tests need, so this test fails rather than skips)", msg, os.Getenv("CI"))
	}
	tb.Skip(msg)
}

// LookPath returns the path of the program name on PATH, or stops the test with Absent when there is none.
func LookPath(tb testing.TB, name string) string {
	tb.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Absent(tb, "%s is not on $PATH: %v", name, err)
	}
	return p
}
