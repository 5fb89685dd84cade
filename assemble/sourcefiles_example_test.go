package assemble_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/promptc/promptc/assemble"
)

// A command prints each diagnostic with its source line: the files are read from the project root, then from
// where the command's relative paths are, as the loader read them (a CRLF file reads as LF).
func ExampleSourceFiles() {
	root, err := os.MkdirTemp("", "promptc-sources")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	if err := os.WriteFile(filepath.Join(root, "promptc.toml"), []byte("name = \"demo\"\r\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	source := assemble.SourceFiles(root, "")
	text, ok := source("promptc.toml")
	fmt.Printf("%q %v\n", text, ok)
	_, ok = source("blocks/missing.toml")
	fmt.Println(ok)
	// Output:
	// "name = \"demo\"\n" true
	// false
}
