package golden_test

import (
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/golden"
)

// CheckLinks refuses a golden tree that is, or holds, a symbolic link, before anything is read or written: here a
// golden/ committed as a link to build/, which would make every check pass. Read and Update refuse it the same way.
func ExampleCheckLinks() {
	tmp, err := os.MkdirTemp("", "promptc-golden-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	if err := os.Mkdir(filepath.Join(tmp, "build"), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.Symlink("build", filepath.Join(tmp, "golden")); err != nil {
		log.Fatal(err)
	}

	err = golden.CheckLinks(filepath.Join(tmp, "golden"))
	var link *assemble.LinkError
	if errors.As(err, &link) {
		link.Dir = "golden" // name it from the project root, as promptc check does
		fmt.Println(link)
	}
	_, err = golden.Update(filepath.Join(tmp, "golden"), map[string][]byte{"t/f.runbook.md": []byte("x\n")})
	fmt.Println(errors.As(err, &link))
	entries, _ := os.ReadDir(filepath.Join(tmp, "build"))
	fmt.Println(len(entries), "files written through the link")
	// Output:
	// golden is a symbolic link (to build): golden/ and every directory in it must be real directories inside the project: through a link, check --update would write and remove files elsewhere, and check could compare a build with itself; replace the link with a real directory (then run promptc check --update)
	// true
	// 0 files written through the link
}
