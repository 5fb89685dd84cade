//go:build !unix

package atomicfile

import "os"

// copyOwner does nothing where files have no Unix owner.
func copyOwner(*os.File, os.FileInfo) {}
