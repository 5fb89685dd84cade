package assemble

import (
	"io/fs"
	"os"

	"github.com/promptc/promptc/blocks"
)

// Load loads and compiles the project in fsys. The Program is usable only when there are no diagnostics; they hold
// every problem the loader and the compiler found, so a defective project is reported in one pass.
func Load(fsys fs.FS) (*Program, blocks.Diagnostics) {
	p, diags := blocks.Load(fsys)
	prog, cdiags := Compile(p)
	if diags = append(diags, cdiags...); len(diags) > 0 {
		return prog, diags.Sort()
	}
	return prog, nil
}

// LoadDir loads and compiles the project rooted at dir.
func LoadDir(dir string) (*Program, blocks.Diagnostics) {
	return Load(os.DirFS(dir))
}
