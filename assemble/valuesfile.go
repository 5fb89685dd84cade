package assemble

import (
	"io"
	"io/fs"
	"os"

	"github.com/promptc/promptc/blocks"
)

// ReadValuesFile reads the values file a user names as name, from path on disk, or from stdin when name is "-"
// (promptc render --session -). It reads at most one byte past blocks.MaxSourceBytes, enough for Render to report a
// file that is too large, and refuses a file that is not regular (ReadLimited). Decoding and checking the values is
// Render's.
func ReadValuesFile(name, path string, stdin io.Reader) (*ValuesFile, error) {
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(io.LimitReader(stdin, blocks.MaxSourceBytes+1))
	} else {
		data, err = ReadLimited(path, blocks.MaxSourceBytes+1)
	}
	if err != nil {
		return nil, err
	}
	return &ValuesFile{Name: name, Data: data}, nil
}

// ReadLimited reads at most limit bytes of the file at path, which must be a regular file (else the error is an
// *fs.PathError holding a blocks.NotRegularError): a named pipe would block the open until a writer comes.
func ReadLimited(path string, limit int64) ([]byte, error) {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: blocks.NotRegularError{Mode: fi.Mode()}}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}
