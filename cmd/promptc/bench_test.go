package main

import (
	"io"
	"testing"
)

// BenchmarkCheckReference is the work of a clean pre-commit check of the reference project, in process: load,
// compile, build every artifact, read golden/, compare, and the error-level lints. The whole process adds Go's
// start-up (about 3 ms); scripts/bench-process.sh times it end to end.
func BenchmarkCheckReference(b *testing.B) {
	for b.Loop() {
		if code := run([]string{"promptc", "-C", "../../examples/tracker", "check"}, io.Discard, io.Discard); code != 0 {
			b.Fatalf("check exited %d", code)
		}
	}
}
