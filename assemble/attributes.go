package assemble

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/promptc/promptc/internal/atomicfile"
)

// GoldenOptions are how golden/ is written, by promptc check --update (golden.Update) and by promptc init
// (scaffold): every file under it is promptc's (PruneAll), every write is synced, and AttributesFile marks the files
// binary for git.
func GoldenOptions() TreeOptions {
	return TreeOptions{Prune: PruneAll, Sync: true, GitAttributes: true}
}

// AttributesFile is the file WriteTree creates at the top of a tree written with GitAttributes (golden/), unless
// one is there already.
const AttributesFile = ".gitattributes"

// attributes marks every golden file binary for git: with core.autocrlf or an eol rule in effect, a checkout
// would otherwise rewrite line endings and promptc check would fail on bytes nobody changed.
const attributes = `# Written by promptc. Golden files are compared byte for byte with what promptc build writes:
# a checkout must never rewrite their bytes (no end-of-line conversion), so none of them is text to git.
* -text
`

// writeAttributes creates dir's AttributesFile when it has none and lists it first among ch's written files
// (".gitattributes" sorts before every tree path, which has no dot-file element).
func writeAttributes(dir string, ch TreeChanges) (TreeChanges, error) {
	name := filepath.Join(dir, AttributesFile)
	if _, err := os.Lstat(name); !errors.Is(err, fs.ErrNotExist) {
		return ch, err // nil when the user's file is there: it is theirs to keep
	}
	if err := atomicfile.Write(name, []byte(attributes), 0o644); err != nil {
		return ch, err
	}
	ch.Written = append([]string{AttributesFile}, ch.Written...)
	return ch, nil
}
