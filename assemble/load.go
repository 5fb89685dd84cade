package assemble

import (
	"io/fs"

	"github.com/promptc/promptc/internal/gitfs"
	"github.com/promptc/promptc/internal/linkfs"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/values"
)

// Load loads and compiles the project in fsys. The Program is usable only when there are no diagnostics; they hold
// every problem the loader and the compiler found, so a defective project is reported in one pass.
func Load(fsys fs.FS) (*Program, source.Diagnostics) {
	p, diags := values.Load(fsys)
	prog, cdiags := Compile(p)
	if diags = append(diags, cdiags...); len(diags) > 0 {
		return prog, diags.Sort()
	}
	return prog, nil
}

// LoadDir loads and compiles the project rooted at dir.
//
// Symbolic links in the project are followed by the rule promptc diff applies to a commit, so that the working
// tree and a revision read alike: a link (to a file or a directory) is followed when it leads, through any chain
// of links, by relative steps to something inside the git work tree holding dir (inside dir when there is none)
// that does not hold the link. A link that is absolute, leaves that boundary, dangles or loops is not followed, and
// the file it stands for is reported as a diagnostic that says so. git is asked for the work tree only when the
// project holds a link.
func LoadDir(dir string) (*Program, source.Diagnostics) {
	fsys := dirFS(dir)
	defer fsys.Close() // the directories it held open; a Program keeps no file system
	return Load(fsys)
}

// DirFS is the file system LoadDir reads the project at dir through: symbolic links are followed while they stay
// inside the git work tree holding dir (inside dir when there is none), and no read leaves that boundary. It holds
// the directories it reads open until it is garbage, or closed through io.Closer.
func DirFS(dir string) fs.FS { return dirFS(dir) }

func dirFS(dir string) *linkfs.View {
	return linkfs.Dir(dir, func() string {
		top, err := gitfs.TopLevel(dir)
		if err != nil {
			return "" // no work tree, or no git: the project directory is the boundary
		}
		return top
	})
}
