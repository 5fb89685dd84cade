package projection_test

import (
	"fmt"
	"io/fs"
	"log"
	"os"
	"strings"
	"testing/fstest"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/projection"
)

// A reviewer prices a change before it merges: the reference project with its session block identity moved ahead
// of the task blocks, at 1,000 chat requests a day on Claude Sonnet 4.5. Every request now misses the task
// prefix that sessions shared.
func ExamplePriceChange() {
	before := os.DirFS("../examples/tracker")
	manifest, err := fs.ReadFile(before, "promptc.toml")
	if err != nil {
		log.Fatal(err)
	}
	order := strings.Replace(string(manifest), "  # global\n  \"header\",", "  # global\n  \"identity\",\n  \"header\",", 1)
	order = strings.Replace(order, "  # session\n  \"identity\",", "  # session", 1)
	after := fstest.MapFS{"promptc.toml": {Data: []byte(order)}}
	_ = fs.WalkDir(before, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && p != "promptc.toml" {
			b, _ := fs.ReadFile(before, p)
			after[p] = &fstest.MapFile{Data: b}
		}
		return err
	})
	old, diags := assemble.Load(before)
	if len(diags) > 0 {
		log.Fatal(diags)
	}
	cur, diags := assemble.Load(after)
	if len(diags) > 0 {
		log.Fatal(diags)
	}
	cat, err := projection.NewCatalog(cur.Project.Models)
	if err != nil {
		log.Fatal(err)
	}
	prices, err := projection.PriceChange(old, cur, map[string]int{"chat": 3041},
		[]projection.Traffic{{Task: "chat", Model: "claude-sonnet-4-5", RequestsPerDay: 1000}}, cat, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range prices {
		fmt.Println(p.Line())
	}
	// Output:
	// task chat on anthropic claude-sonnet-4-5: per request $0.004007 → $0.005272; +$1.26 a day at 1,000 requests/day; one-time re-write $0.0105 (3,041 tokens)
}
