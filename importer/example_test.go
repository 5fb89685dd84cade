package importer_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/promptc/promptc/guard"
	"github.com/promptc/promptc/importer"
)

// Import is promptc import as a library call: two prompts sharing a section become one project whose runbooks
// are the prompts, and Write puts it on disk with golden/, so that guard.CheckDir passes at once.
func ExampleImport() {
	review := "# Safety\n\nNever print secrets.\n\n# Review\n\nComment on correctness first.\n"
	fix := "# Safety\n\nNever print secrets.\n\n# Fix\n\nWrite a failing test first.  \n\n\n"
	res, err := importer.Import([]importer.Source{
		{Name: "review.md", Data: []byte(review)},
		{Name: "fix.md", Data: []byte(fix)},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Tasks, res.Blocks, "blocks,", res.Shared, "shared")
	fmt.Println(res.Runbooks["review"] == review)
	for _, n := range res.Normalisations {
		fmt.Println(n)
	}
	fmt.Print(string(res.Files["blocks/shared.toml"]))

	tmp, err := os.MkdirTemp("", "promptc-import-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "prompts")
	if _, err := res.Write(dir); err != nil {
		log.Fatal(err)
	}
	chk, err := guard.CheckDir(dir, guard.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("check passed:", chk.Passed())
	// Output:
	// [review fix] 3 blocks, 1 shared
	// true
	// fix.md:7: trailing white space at the end of a section removed
	// fix.md:8: 2 blank lines at the end of the file removed
	// # from review.md:1
	// [[block]]
	// id    = "safety"
	// title = "Safety"
	// level = 1
	// body  = '''
	// Never print secrets.
	// '''
	// check passed: true
}

// Counts, NextSteps and WriteNormalisations are the report promptc import prints around the files it wrote.
func ExampleResult_NextSteps() {
	res, err := importer.Import([]importer.Source{
		{Name: "review.md", Data: []byte("# Review\n\nComment on correctness first.\n")},
		{Name: "fix.md", Data: []byte("# Fix\n\nWrite a failing test first.  \n")},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Counts())
	fmt.Print(res.NextSteps("promptc -C prompts"))
	_ = res.WriteNormalisations(os.Stdout)
	// Output:
	// : 2 tasks, 2 blocks (0 shared)
	// The runbooks reproduce their files but for 1 normalisation, printed on stderr.
	//
	// Next, try:
	//   promptc -C prompts render --task review
	//   promptc -C prompts check
	// fix.md:3: trailing white space at the end of a section removed
}
