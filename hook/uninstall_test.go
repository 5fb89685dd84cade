package hook

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func uninstall(t *testing.T, root string) Uninstalled {
	t.Helper()
	r, err := Uninstall(root)
	if err != nil {
		t.Fatalf("Uninstall(%s): %v", root, err)
	}
	return r
}

func gone(t *testing.T, name string) {
	t.Helper()
	if _, err := os.Lstat(name); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s still exists (%v)", name, err)
	}
}

// Install then Uninstall leaves the hooks directory as it was, whatever it held: nothing, or the repository's own hook
// (executable or not), back in its place with its mode; a second Uninstall changes nothing.
func TestUninstallRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name          string
		hook          string // "" for none
		hookMode      os.FileMode
		want, summary string // the pre-commit hook after Uninstall ("" for none), and what Summary says
		removal       Removal
	}{
		{name: "no hook before", removal: Removed,
			summary: "removed .git/hooks/pre-commit (it ran only promptc -C . check)"},
		{name: "a hook of the repository's", hook: "#!/bin/sh\necho mine >> ran.log\n", hookMode: 0o755, removal: Restored,
			want:    "#!/bin/sh\necho mine >> ran.log\n",
			summary: "removed .git/hooks/pre-commit (it ran only promptc -C . check); your own hook, pre-commit.local, is .git/hooks/pre-commit again"},
		{name: "a disabled hook stays disabled", hook: "#!/bin/sh\nexit 1\n", hookMode: 0o644, removal: Restored,
			want:    "#!/bin/sh\nexit 1\n",
			summary: "removed .git/hooks/pre-commit (it ran only promptc -C . check); your own hook, pre-commit.local, is .git/hooks/pre-commit again"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			top := newRepo(t)
			fakePromptc(t)
			newProject(t, top)
			hooks := filepath.Join(top, ".git", "hooks")
			hookPath, local := filepath.Join(hooks, "pre-commit"), filepath.Join(hooks, LocalName)
			if tc.hook != "" {
				writeFile(t, hookPath, tc.hook, tc.hookMode)
			}
			install(t, top, Options{})

			r := uninstall(t, top)
			want := Uninstalled{Removal: tc.removal, Top: top, Hook: hookPath, Project: "."}
			if !reflect.DeepEqual(r, want) {
				t.Errorf("Uninstall:\n got %+v\nwant %+v", r, want)
			}
			if got := r.Summary(); got != tc.summary {
				t.Errorf("Summary:\n got %s\nwant %s", got, tc.summary)
			}
			gone(t, local)
			if tc.want == "" {
				gone(t, hookPath)
			} else {
				if got := readFile(t, hookPath); got != tc.want {
					t.Errorf("hook %q, want %q", got, tc.want)
				}
				if fi, err := os.Stat(hookPath); err != nil || fi.Mode().Perm() != tc.hookMode {
					t.Errorf("hook mode %v (%v), want %v", fi.Mode(), err, tc.hookMode)
				}
			}

			again := uninstall(t, top)
			if again.Removal != NotInstalled {
				t.Errorf("second Uninstall: %+v, want NotInstalled", again)
			}
			if tc.want == "" {
				gone(t, hookPath)
			} else if got := readFile(t, hookPath); got != tc.want {
				t.Errorf("a second Uninstall changed the hook to %q", got)
			}
		})
	}
}

// With two projects in the hook, Uninstall takes out one check line and nothing else; the second takes the hook.
func TestUninstallOneOfTwo(t *testing.T) {
	top := newRepo(t)
	fakePromptc(t)
	a := newProject(t, filepath.Join(top, "a"))
	b := newProject(t, filepath.Join(top, "b b"))
	install(t, a, Options{})
	r0 := install(t, b, Options{})

	r := uninstall(t, a)
	if r.Removal != Narrowed || r.Edited || !reflect.DeepEqual(r.Projects, []string{"b b"}) {
		t.Errorf("Uninstall(a): %+v, want Narrowed to [b b]", r)
	}
	if got, want := r.Summary(), "updated .git/hooks/pre-commit: removed promptc -C a check (runs: promptc -C 'b b' check)"; got != want {
		t.Errorf("Summary:\n got %s\nwant %s", got, want)
	}
	if got, want := readFile(t, r0.Hook), string(Script([]string{"b b"})); got != want {
		t.Errorf("hook after Uninstall(a):\n%s\nwant:\n%s", got, want)
	}
	if fi, err := os.Stat(r0.Hook); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("hook mode %v (%v), want 0755", fi.Mode(), err)
	}
	if got := uninstall(t, a); got.Removal != NotInstalled || got.Summary() != ".git/hooks/pre-commit does not run promptc -C a check: nothing to remove (runs: promptc -C 'b b' check)" {
		t.Errorf("Uninstall(a) again: %+v: %s", got, got.Summary())
	}
	if got := uninstall(t, b); got.Removal != Removed {
		t.Errorf("Uninstall(b): %+v, want Removed", got)
	}
	gone(t, r0.Hook)
}

// Lines added to promptc's hook by hand are kept: only the project's check line goes, and the hook stays.
func TestUninstallKeepsEdits(t *testing.T) {
	top := newRepo(t)
	fakePromptc(t)
	newProject(t, top)
	r0 := install(t, top, Options{})
	script := readFile(t, r0.Hook)
	edited := strings.Replace(script, "exit $status\n", "echo also mine\nexit $status\n", 1)
	writeFile(t, r0.Hook, edited, 0o755)

	r := uninstall(t, top)
	if r.Removal != Narrowed || !r.Edited || len(r.Projects) != 0 {
		t.Errorf("Uninstall: %+v, want Narrowed, Edited", r)
	}
	if got, want := r.Summary(), "updated .git/hooks/pre-commit: removed promptc -C . check; kept the hook, which holds lines promptc did not write"; got != want {
		t.Errorf("Summary:\n got %s\nwant %s", got, want)
	}
	if got, want := readFile(t, r0.Hook), strings.Replace(edited, "check_project '.'\n", "", 1); got != want {
		t.Errorf("hook:\n%s\nwant:\n%s", got, want)
	}
}

// A hook that is not promptc's, or none at all, is left alone.
func TestUninstallNotOurs(t *testing.T) {
	top := newRepo(t)
	newProject(t, top)
	hookPath := filepath.Join(top, ".git", "hooks", "pre-commit")
	r := uninstall(t, top)
	if r.Removal != NotInstalled || !r.Absent || r.Summary() != "no pre-commit hook (.git/hooks/pre-commit): nothing to remove" {
		t.Errorf("Uninstall with no hook: %+v: %s", r, r.Summary())
	}
	foreign := "#!/bin/sh\n# check_project '.'\ncheck_project '.'\n"
	writeFile(t, hookPath, foreign, 0o755)
	r = uninstall(t, top)
	if r.Removal != NotInstalled || !r.Foreign || r.Summary() != ".git/hooks/pre-commit is not promptc's hook: left as it is, nothing to remove" {
		t.Errorf("Uninstall with a foreign hook: %+v: %s", r, r.Summary())
	}
	if got := readFile(t, hookPath); got != foreign {
		t.Errorf("foreign hook changed to %q", got)
	}
}

// A hook written by an earlier version (another message when promptc is missing) is promptc's as written.
func TestUninstallFormerScript(t *testing.T) {
	top := newRepo(t)
	newProject(t, top)
	hookPath := filepath.Join(top, ".git", "hooks", "pre-commit")
	old := strings.Replace(string(Script([]string{"."})), notFound, formerNotFound[0], 1)
	writeFile(t, hookPath, old, 0o755)
	if r := uninstall(t, top); r.Removal != Removed || r.Edited {
		t.Errorf("Uninstall of a former version's hook: %+v, want Removed", r)
	}
	gone(t, hookPath)
}

// withoutProject takes out exactly the project's check lines, CRLF ones and paths spanning lines included.
func TestWithoutProject(t *testing.T) {
	tests := []struct {
		name, in, project, want string
		removed                 bool
	}{
		{"one of three", "x\ncheck_project 'a'\ncheck_project 'b'\ncheck_project 'c'\nexit\n", "b",
			"x\ncheck_project 'a'\ncheck_project 'c'\nexit\n", true},
		{"a quote in the path", "check_project 'it'\\''s'\nexit\n", "it's", "exit\n", true},
		{"a newline in the path", "check_project 'a\nb'\nexit\n", "a\nb", "exit\n", true},
		{"another path spanning lines, holding a check", "check_project 'a\ncheck_project '\\''b'\\'''\ncheck_project 'b'\n", "b",
			"check_project 'a\ncheck_project '\\''b'\\'''\n", true},
		{"CRLF", "x\r\ncheck_project 'a'\r\nexit\r\n", "a", "x\r\nexit\r\n", true},
		{"no final newline", "x\ncheck_project 'a'", "a", "x\n", true},
		{"not a check line", "# check_project 'a'\necho check_project 'a'\n", "a", "# check_project 'a'\necho check_project 'a'\n", false},
		{"a prefix of the path", "check_project 'ab'\n", "a", "check_project 'ab'\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, removed := withoutProject([]byte(tt.in), tt.project)
			if string(got) != tt.want || removed != tt.removed {
				t.Errorf("withoutProject(%q, %q) = %q, %v; want %q, %v", tt.in, tt.project, got, removed, tt.want, tt.removed)
			}
		})
	}
}

// FuzzWithoutProject: taking a project out of the hook Script writes for a set of projects gives the hook of the
// set without it, byte for byte; on any text, a project that is not taken out leaves every byte as it was.
func FuzzWithoutProject(f *testing.F) {
	for _, tt := range []struct{ a, b string }{{"a", "b"}, {"it's", "."}, {"a\nb", "a"}, {"x\r", "prompts"}, {"", "'"}} {
		f.Add(tt.a, tt.b, "check_project '"+tt.a+"'\n")
	}
	f.Fuzz(func(t *testing.T, a, b, text string) {
		if a != b {
			got, removed := withoutProject(Script([]string{a, b}), a)
			if want := Script([]string{b}); !removed || string(got) != string(want) {
				t.Fatalf("withoutProject(Script(%q, %q), %q) = %q, %v; want %q", a, b, a, got, removed, want)
			}
		}
		if got, removed := withoutProject([]byte(text), a); !removed && string(got) != text {
			t.Fatalf("withoutProject(%q, %q) changed the text to %q without removing a line", text, a, got)
		}
	})
}
