package importer

import (
	"fmt"
	"io"
	"os"

	"github.com/promptc/promptc/blocks"
)

// MaxSourceBytes is the size of the largest file Import reads: 8 MiB, the limit of every file promptc reads
// (blocks.MaxSourceBytes).
const MaxSourceBytes = blocks.MaxSourceBytes

// tooLarge is the error about an input file over MaxSourceBytes.
func tooLarge(name string) error {
	return fmt.Errorf("%s holds more than the 8 MiB (%d bytes) promptc import reads: split it into several files and import those", name, MaxSourceBytes)
}

// ReadSource reads the file at path as the Source of task (empty: named after the file, see TaskName), named name
// in messages (the path as the user wrote it). It reads at most MaxSourceBytes and one byte more, whatever the
// file is: a regular file, a named pipe, a device such as /dev/zero or standard input given as /dev/stdin. A file
// larger than that is an error naming it, and nothing more of it is read.
func ReadSource(name, path, task string) (Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return Source{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSourceBytes+1))
	if err != nil {
		return Source{}, err
	}
	if len(data) > MaxSourceBytes {
		return Source{}, tooLarge(name)
	}
	return Source{Name: name, Task: task, Data: data}, nil
}
