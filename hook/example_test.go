package hook_test

import (
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/promptc/promptc/hook"
)

// Install is promptc hook install: a git repository holding a project in prompts/ gets a pre-commit hook that runs
// promptc check for it. Installing again changes nothing.
func ExampleInstall() {
	top, err := os.MkdirTemp("", "promptc-hook-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(top)
	if out, err := exec.Command("git", "init", "-q", top).CombinedOutput(); err != nil {
		log.Fatalf("git init: %v\n%s", err, out)
	}
	project := filepath.Join(top, "prompts")
	if err := os.MkdirAll(project, 0o755); err != nil {
		log.Fatal(err)
	}

	for range 2 {
		r, err := hook.Install(project, hook.Options{})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(r.Summary())
	}
	script, err := os.ReadFile(filepath.Join(top, ".git", "hooks", "pre-commit"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("ours:", hook.IsOurs(script), "projects:", hook.Projects(script))
	// Output:
	// installed .git/hooks/pre-commit (runs: promptc -C prompts check)
	// .git/hooks/pre-commit is up to date (runs: promptc -C prompts check)
	// ours: true projects: [prompts]
}

// Uninstall is promptc hook uninstall: it takes the project's check back out of the hook, and a hook of the
// repository's that Install kept as pre-commit.local is the pre-commit hook again, as before Install.
func ExampleUninstall() {
	top, err := os.MkdirTemp("", "promptc-hook-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(top)
	if out, err := exec.Command("git", "init", "-q", top).CombinedOutput(); err != nil {
		log.Fatalf("git init: %v\n%s", err, out)
	}
	hookPath := filepath.Join(top, ".git", "hooks", "pre-commit")
	if err := os.WriteFile(hookPath, []byte("#!/bin/sh\nmake lint\n"), 0o755); err != nil {
		log.Fatal(err)
	}

	if _, err := hook.Install(top, hook.Options{}); err != nil {
		log.Fatal(err)
	}
	for range 2 {
		r, err := hook.Uninstall(top)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(r.Summary())
	}
	script, err := os.ReadFile(hookPath)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", script)
	// Output:
	// removed .git/hooks/pre-commit (it ran only promptc -C . check); your own hook, pre-commit.local, is .git/hooks/pre-commit again
	// .git/hooks/pre-commit is not promptc's hook: left as it is, nothing to remove
	// "#!/bin/sh\nmake lint\n"
}

// hook install-check takes --dir and --session from the top of the repository; the install it suggests runs with
// -C PROJECT_DIR, where they are paths from the project.
func ExampleInstallCheckPaths() {
	dir, session := hook.InstallCheckPaths("prompts", ".", "prompts/session.toml")
	fmt.Println(dir, session)
	dir, session = hook.InstallCheckPaths("prompts", "/work/app", "-")
	fmt.Println(dir, session)
	// Output:
	// .. session.toml
	// /work/app -
}
