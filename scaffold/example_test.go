package scaffold_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/promptc/promptc/guard"
	"github.com/promptc/promptc/scaffold"
)

// Init is promptc init as a library call: a new project, golden/ included, that guard.CheckDir passes at once.
func ExampleInit() {
	tmp, err := os.MkdirTemp("", "promptc-init-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)

	dir := filepath.Join(tmp, "prompts")
	written, err := scaffold.Init(dir)
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range written {
		fmt.Println(p)
	}
	res, err := guard.CheckDir(dir, guard.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("check passed:", res.Passed())

	// A second Init into the same directory refuses and writes nothing.
	_, err = scaffold.Init(dir)
	fmt.Println(err != nil)
	// Output:
	// .gitignore
	// blocks/main.toml
	// fixtures/example.toml
	// golden/.gitattributes
	// golden/chat/example.runbook.md
	// golden/chat/example.turn-1.md
	// golden/chat/example.turn-2.md
	// golden/review/example.runbook.md
	// golden/review/example.turn-1.md
	// golden/review/example.turn-2.md
	// promptc.toml
	// check passed: true
	// true
}

// Wrote is the report promptc init prints before NextSteps: the header, the files, and the invocation to repeat.
func ExampleWrote() {
	text, inv := scaffold.Wrote("init", "my prompts", "", []string{"promptc.toml", "blocks/main.toml"})
	fmt.Print(text)
	fmt.Println(inv)
	// Output:
	// promptc init: wrote a new project in my prompts:
	//   promptc.toml
	//   blocks/main.toml
	// promptc -C 'my prompts'
}
