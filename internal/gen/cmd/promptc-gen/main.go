// Command promptc-gen writes a generated prompt project (see package gen) into a directory, for benchmarking the
// promptc binary as a whole process.
//
//	promptc-gen -blocks 2000 -tasks 20 -out DIR
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
	flag.Parse()
	if *out == "" || flag.NArg() > 0 || *blocks < gen.MinBlocks || *tasks < gen.MinTasks {
		fmt.Fprintf(os.Stderr, "usage: promptc-gen -blocks N (>= %d) -tasks N (>= %d) -out DIR\n", gen.MinBlocks, gen.MinTasks)
		os.Exit(2)
	}
	if err := gen.WriteDir(*out, gen.Project(*blocks, *tasks)); err != nil {
		fmt.Fprintln(os.Stderr, "promptc-gen:", err)
		os.Exit(1)
	}
}
