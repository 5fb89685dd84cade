package explain

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/promptc/promptc/assemble"
)

// Stale reports whether the file that a PATH:LINE argument named (file: PATH as given, relative to the project root
// root, either slash) is a copy under build/ or golden/ holding other bytes than the artifact at path (ParseTarget's
// path) renders now. Line traces what the sources render now, so a stale copy's line may say something else: promptc
// explain notes it. False for a path outside build/ and golden/, a file that cannot be read, or an artifact that
// does not render.
func Stale(prog *assemble.Program, root, file, path string) bool {
	file = strings.ReplaceAll(file, `\`, "/")
	if !strings.HasPrefix(file, "build/") && !strings.HasPrefix(file, "golden/") {
		return false
	}
	a, err := Artifact(prog, path)
	if err != nil {
		return false
	}
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
	return err == nil && string(data) != a.Text
}
