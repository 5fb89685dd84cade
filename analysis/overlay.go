package analysis

import (
	"io/fs"

	"github.com/promptc/promptc/internal/overlay"
)

// Overlay returns a file system that reads the files of over (slash paths relative to base's root, mapped to their
// text) instead of base's: an editor's open documents, which hold what the user sees rather than what was last
// saved. A directory lists base's entries and over's together, so a new file that was never saved is loaded too,
// and a file deleted on disk while its buffer is open is still read from the buffer. It is promptc.Overlay.
func Overlay(base fs.FS, over map[string]string) fs.FS { return overlay.FS(base, over) }
