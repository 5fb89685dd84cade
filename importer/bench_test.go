package importer

import (
	"fmt"
	"strings"
	"testing"
)

// The benchmarks below import inputs that once took seconds or gigabytes (docs/import.md); each runs at two sizes
// ten times apart, and the time per op grows about tenfold when the cost is linear.

// sameHeadings is a file of n sections under one heading, "## S": every block id but the first needs a suffix.
func sameHeadings(n int) []Source {
	return []Source{{Name: "same.md", Data: []byte(strings.Repeat("## S\n\nx\n\n", n))}}
}

// twoFiles are two files of n sections each, none in common.
func twoFiles(n int) []Source {
	var a, b strings.Builder
	for i := range n {
		fmt.Fprintf(&a, "## A%d\n\ntext a %d\n\n", i, i)
		fmt.Fprintf(&b, "## B%d\n\ntext b %d\n\n", i, i)
	}
	return []Source{{Name: "a.md", Data: []byte(a.String())}, {Name: "b.md", Data: []byte(b.String())}}
}

func benchImport(b *testing.B, srcs []Source) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Import(srcs); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkImportSameHeading(b *testing.B) {
	for _, n := range []int{800, 8000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchImport(b, sameHeadings(n)) })
	}
}

func BenchmarkImportTwoFiles(b *testing.B) {
	for _, n := range []int{1600, 16000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchImport(b, twoFiles(n)) })
	}
}

// BenchmarkMerge times the merge alone on two files of n sections: identical, disjoint, and the second holding
// every other section of the first.
func BenchmarkMerge(b *testing.B) {
	for _, n := range []int{16000, 160000} {
		for _, shape := range []string{"same", "disjoint", "every-other"} {
			var x, y document
			for i := range n {
				x.sections = append(x.sections, section{text: fmt.Sprint("a", i)})
				switch shape {
				case "same":
					y.sections = append(y.sections, section{text: fmt.Sprint("a", i)})
				case "disjoint":
					y.sections = append(y.sections, section{text: fmt.Sprint("b", i)})
				case "every-other":
					if i%2 == 0 {
						y.sections = append(y.sections, section{text: fmt.Sprint("a", i)})
					}
				}
			}
			b.Run(fmt.Sprintf("%s/%d", shape, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					merge([]*document{&x, &y})
				}
			})
		}
	}
}

// BenchmarkAssignIDs gives ids to 8,000 and 80,000 entries under one heading, the shape that once took 11.8 s
// for 8,000 (each id tried every suffix from 2).
func BenchmarkAssignIDs(b *testing.B) {
	for _, n := range []int{8000, 80000} {
		entries := make([]*entry, n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for i := range entries {
					entries[i] = &entry{section: section{name: "S", title: "S"}, tasks: []int{0, 1}}
				}
				assignIDs(entries, []string{"a", "b"})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entry")
		})
	}
}
