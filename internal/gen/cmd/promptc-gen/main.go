// Command promptc-gen writes a generated prompt project (see package gen) into a directory, for benchmarking the
// promptc binary as a whole process.
//
//	promptc-gen -blocks 2000 -tasks 20 [-scattered] -out DIR
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/promptc/promptc/internal/gen"
)

func main() {
	blocks := flag.Int("blocks", 200, "number of blocks (at least 10)")
	tasks := flag.Int("tasks", 20, "number of tasks (at least 3)")
	out := flag.String("out", "", "write the project under `DIR` (required; created if missing)")
	scattered := flag.Bool("scattered", false, "scatter session blocks through runbook.order (gen.Scattered)")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 || *blocks < gen.MinBlocks || *tasks < gen.MinTasks {
		fmt.Fprintf(os.Stderr, "usage: promptc-gen -blocks N (>= %d) -tasks N (>= %d) [-scattered] -out DIR\n", gen.MinBlocks, gen.MinTasks)
		os.Exit(2)
	}
	project := gen.Files
	if *scattered {
		project = gen.Scattered
	}
	if err := gen.WriteDir(*out, project(*blocks, *tasks)); err != nil {
		fmt.Fprintln(os.Stderr, "promptc-gen:", err)
		os.Exit(1)
	}
}
