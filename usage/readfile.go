package usage

import (
	"io"
	"os"

	"github.com/promptc/promptc/source"
)

// ReadFile counts the log a user names as name (Read): the file at path, or stdin when name is "-", as promptc
// usage reads its FILE arguments. Diagnostics name the file as name does. The error is opening or reading it.
func (t *Tally) ReadFile(name, path string, stdin io.Reader) (source.Diagnostics, error) {
	if name == "-" {
		return t.Read(stdin, "-")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return t.Read(f, name)
}
