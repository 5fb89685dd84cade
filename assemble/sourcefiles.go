package assemble

import (
	"os"
	"path/filepath"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
)

// SourceFiles returns a reader of the files diagnostics name, for source.SnippetWriter's Source: a relative name is
// looked for under each of dirs in turn ("" skipped), the project root first and then the directory a command's
// relative paths are read from (a --session file's). A file is read as the loader reads a source (source.Normalize):
// a regular file of at most blocks.MaxSourceBytes, in UTF-8. ok is false for a file not found or not so read.
func SourceFiles(dirs ...string) func(name string) (text string, ok bool) {
	return func(name string) (string, bool) {
		for _, dir := range dirs {
			if dir == "" {
				continue
			}
			p := name
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, filepath.FromSlash(name))
			}
			fi, err := os.Stat(p)
			if err != nil || !fi.Mode().IsRegular() || fi.Size() > blocks.MaxSourceBytes {
				continue
			}
			data, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			if text, _, ok := source.Normalize(data); ok {
				return text, true
			}
		}
		return "", false
	}
}
