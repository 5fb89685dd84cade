package linkfs

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/promptc/promptc/internal/gen"
)

// BenchmarkDirRead walks a generated 2,000-block project on disk and reads every file, as a load does: through
// os.DirFS (fs=os, the floor: no link is checked) and through Dir (fs=link, what promptc reads a project with).
// The difference is what following links by the rule, and confining every access to the project, costs.
func BenchmarkDirRead(b *testing.B) {
	dir, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	if err := gen.WriteDir(dir, gen.Files(2000, 20)); err != nil {
		b.Fatal(err)
	}
	for _, bench := range []struct {
		name string
		fsys func() fs.FS
	}{
		{"fs=os", func() fs.FS { return os.DirFS(dir) }},
		{"fs=link", func() fs.FS { return Dir(dir, nil) }},
	} {
		b.Run(bench.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				fsys := bench.fsys()
				n := 0
				err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
					if err != nil || d.IsDir() {
						return err
					}
					data, err := fs.ReadFile(fsys, p)
					n += len(data)
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(n))
			}
		})
	}
}
