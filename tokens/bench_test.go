package tokens

import (
	"os"
	"strings"
	"testing"
)

// BenchmarkCount counts the reference project's largest runbook with each encoding, as a process that counts it
// once does (no paragraph cached).
func BenchmarkCount(b *testing.B) {
	data, err := os.ReadFile("../examples/tracker/golden/issue/basic.runbook.md")
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range Encodings() {
		bp := o200kBPE()
		if e == Cl100k {
			bp = cl100kBPE()
		}
		b.Run(e.String(), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				bp.count(string(data))
			}
		})
	}
}

// BenchmarkCountBlankContextLines counts runs of " \n" (a diff's blank context lines in a code value) of 16 KiB,
// 128 KiB and 1 MiB, as a new Counter does: the split was quadratic in such a run (0.43 s at 16 KiB, 24 s at
// 128 KiB) and is linear now. Then a megabyte of diff lines, mixing the run with changed lines.
func BenchmarkCountBlankContextLines(b *testing.B) {
	diff := strings.Repeat(" \n", 40) + "-\told line\n+\tnew line\n"
	for _, c := range []struct {
		name string
		text string
	}{
		{"16KiB", strings.Repeat(" \n", 8<<10)},
		{"128KiB", strings.Repeat(" \n", 64<<10)},
		{"1MiB", strings.Repeat(" \n", 512<<10)},
		{"1MiB_diff", strings.Repeat(diff, (1<<20)/len(diff))},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.text)))
			b.ReportAllocs()
			for b.Loop() {
				New(O200k).Count(c.text)
			}
		})
	}
}
