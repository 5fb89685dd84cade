package tokens

import (
	"os"
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
				if _, err := bp.count(string(data)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
