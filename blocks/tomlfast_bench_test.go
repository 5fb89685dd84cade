package blocks

import (
	"sort"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/promptc/promptc/internal/gen"
	"github.com/promptc/promptc/source"
)

// BenchmarkDecodeTOML times each stage parseTOML runs on the TOML files of a generated 2,000-block project, the
// stages apart, so that the fast path's worth can be read off (docs/decisions.md#the-toml-fast-path-cold-and-warm):
// the limits check, the fast path, BurntSushi/toml on the same files (what each would cost without the fast path)
// and the position scanner. files=all is a cold load, which decodes every file; files=one is the largest block
// file alone, what a load that reuses the files it decoded before still decodes after an edit.
func BenchmarkDecodeTOML(b *testing.B) {
	var all []*source.File
	for name, data := range gen.Files(2000, 20) {
		if strings.HasSuffix(name, ".toml") {
			all = append(all, source.NewFile(name, string(data)))
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	largest := all[0]
	for _, f := range all {
		if strings.HasPrefix(f.Name, "blocks/") && len(f.Text) > len(largest.Text) {
			largest = f
		}
	}
	stages := []struct {
		name string
		run  func(b *testing.B, f *source.File)
	}{
		{"limits", func(b *testing.B, f *source.File) {
			if d := checkTOMLLimits(f); d != nil {
				b.Fatal(d)
			}
		}},
		{"fast", func(b *testing.B, f *source.File) {
			if _, ok := decodeTOMLFast(f.Text); !ok {
				b.Fatalf("%s: not taken by the fast path", f.Name)
			}
		}},
		{"burntsushi", func(b *testing.B, f *source.File) {
			var m map[string]any
			if _, err := toml.Decode(f.Text, &m); err != nil {
				b.Fatal(err)
			}
		}},
		{"scan", func(b *testing.B, f *source.File) { scanTOML(f) }},
	}
	for _, set := range []struct {
		name  string
		files []*source.File
	}{{"all", all}, {"one", []*source.File{largest}}} {
		size := 0
		for _, f := range set.files {
			size += len(f.Text)
		}
		for _, stage := range stages {
			b.Run("files="+set.name+"/stage="+stage.name, func(b *testing.B) {
				b.SetBytes(int64(size))
				b.ReportAllocs()
				for b.Loop() {
					for _, f := range set.files {
						stage.run(b, f)
					}
				}
			})
		}
	}
}
