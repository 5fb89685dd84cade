package blocks_test

import (
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/promptc/promptc/blocks"
)

// A command run above its project says where the project is and what to run instead.
func ExampleBelowHint() {
	top, err := os.MkdirTemp("", "promptc-below")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(top)
	for _, dir := range []string{"prompts", "examples/tracker"} {
		if err := os.MkdirAll(filepath.Join(top, dir), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(top, dir, blocks.ManifestFile), nil, 0o644); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println(blocks.BelowHint(top, "run promptc -C %s build"))
	// Output:
	// ; found prompts/promptc.toml and examples/tracker/promptc.toml below it: run promptc -C prompts build
}

// A directory named as a project root (-C DIR) must hold promptc.toml.
func ExampleCheckRoot() {
	dir, err := os.MkdirTemp("", "promptc-root")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	fmt.Println(blocks.CheckRoot(dir))
	if err := os.WriteFile(filepath.Join(dir, blocks.ManifestFile), nil, 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Println(blocks.CheckRoot(dir))
	fmt.Println(errors.Is(blocks.CheckRoot(filepath.Join(dir, blocks.ManifestFile)), blocks.ErrNotDir))
	// Output:
	// no promptc.toml there
	// <nil>
	// true
}
