package main

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/promptc/promptc/internal/gen"
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

// BenchmarkGenerated compares, on a generated 2,000-block × 20-task project, a build with a clean check (golden/
// up to date): a check must cost at most 1.2× a build.
func BenchmarkGenerated(b *testing.B) {
	dir := b.TempDir()
	if err := gen.WriteDir(dir, gen.Files(2000, 20)); err != nil {
		b.Fatal(err)
	}
	if code := run([]string{"promptc", "-C", dir, "check", "--update", "--force"}, io.Discard, io.Discard); code != 0 {
		b.Fatalf("check --update exited %d", code)
	}
	out := filepath.Join(b.TempDir(), "out")
	b.Run("build", func(b *testing.B) {
		for b.Loop() {
			if code := run([]string{"promptc", "-C", dir, "build", "--out", out}, io.Discard, io.Discard); code != 0 {
				b.Fatalf("build exited %d", code)
			}
		}
	})
	b.Run("check", func(b *testing.B) {
		for b.Loop() {
			if code := run([]string{"promptc", "-C", dir, "check"}, io.Discard, io.Discard); code != 0 {
				b.Fatalf("check exited %d", code)
			}
		}
	})
}
