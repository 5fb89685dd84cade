package schema_test

import (
	"encoding/json"
	"fmt"
	"log"
	"os"

	"github.com/promptc/promptc/schema"
)

func ExampleGet() {
	for _, k := range schema.FileKinds {
		b, err := schema.Get(k)
		if err != nil {
			log.Fatal(err)
		}
		var s struct {
			Title string `json:"title"`
		}
		if err := json.Unmarshal(b, &s); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-8s %-16s %-20s %s\n", k, k.Sources(), k.File(), s.Title)
	}
	// Output:
	// manifest promptc.toml     manifest.schema.json promptc.toml
	// blocks   blocks/**/*.toml blocks.schema.json   promptc blocks file
	// fixture  fixtures/*.toml  fixture.schema.json  promptc fixture
}

func ExampleWriteList() {
	if err := schema.WriteList(os.Stdout); err != nil {
		log.Fatal(err)
	}
	// Output:
	// manifest  promptc.toml      schema/manifest.schema.json
	// blocks    blocks/**/*.toml  schema/blocks.schema.json
	// fixture   fixtures/*.toml   schema/fixture.schema.json
}
