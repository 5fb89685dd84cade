package blocks

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/promptc/promptc/internal/shell"
	"github.com/promptc/promptc/source"
)

// ErrNoRoot is wrapped by the error FindRoot returns when no directory on the way up holds a manifest.
var ErrNoRoot = errors.New("no promptc project")

// FindRoot returns the project root for dir: the nearest of dir and its ancestors that holds ManifestFile, as an
// absolute path. A relative dir is taken relative to the working directory. When none holds one, the error wraps
// ErrNoRoot and reads "no promptc.toml in DIR or any parent directory".
func FindRoot(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; {
		if _, err := os.Stat(filepath.Join(d, ManifestFile)); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", noRootError{abs}
		}
		d = parent
	}
}

// noRootError says where FindRoot started looking; it is ErrNoRoot to errors.Is.
type noRootError struct{ dir string }

func (e noRootError) Error() string {
	return fmt.Sprintf("no %s in %s or any parent directory", ManifestFile, e.dir)
}

func (e noRootError) Is(target error) bool { return target == ErrNoRoot }

// skipBelow are the directories FindBelow does not enter: git's own, and those that hold dependencies or build
// output, where a promptc.toml would be someone else's copy.
var skipBelow = map[string]bool{".git": true, "node_modules": true, "build": true, "vendor": true}

// maxBelowDirs bounds the directories FindBelow reads, so that a search from the top of a large tree stays fast.
const maxBelowDirs = 4096

// FindBelow returns the project roots below dir, for a message when FindRoot finds none above it: the directories
// at most depth levels down (1: dir's subdirectories) holding ManifestFile, as slash-separated paths relative to dir,
// nearest first and in name order within a directory. It does not look inside a project it found, nor in .git,
// node_modules, build or vendor directories, nor through symbolic links, and reads at most 4,096 directories. Errors
// reading a directory leave it out.
func FindBelow(dir string, depth int) []string {
	type level struct {
		rel   string // slash-separated, "" for dir
		depth int
	}
	var found []string
	if depth < 1 {
		return nil
	}
	queue := []level{{"", 0}}
	for read := 0; len(queue) > 0 && read < maxBelowDirs; read++ {
		at := queue[0]
		queue = queue[1:]
		entries, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(at.rel)))
		if err != nil {
			continue
		}
		for _, en := range entries { // sorted by name
			if !en.IsDir() || skipBelow[en.Name()] { // a symbolic link is not a directory here: not followed
				continue
			}
			rel := path.Join(at.rel, en.Name())
			if fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel), ManifestFile)); err == nil && fi.Mode().IsRegular() {
				found = append(found, rel)
				continue
			}
			if at.depth+1 < depth {
				queue = append(queue, level{rel, at.depth + 1})
			}
		}
	}
	return found
}

// ErrNotDir and ErrNoManifest are what CheckRoot finds wrong with a directory named as a project root.
var (
	ErrNotDir     = errors.New("not a directory")
	ErrNoManifest = errors.New("no " + ManifestFile + " there")
)

// CheckRoot returns nil when dir is a project root, a directory holding ManifestFile, as -C DIR and a PROJECT_DIR
// argument must name one; otherwise the error is ErrNotDir, ErrNoManifest, or the error reading dir
// (fs.ErrNotExist for none).
func CheckRoot(dir string) error {
	switch fi, err := os.Stat(dir); {
	case err != nil:
		return err
	case !fi.IsDir():
		return ErrNotDir
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); err != nil {
		return ErrNoManifest
	}
	return nil
}

// belowDepth is how many directory levels below a directory BelowHint looks for a project: prompts/ is one level
// down, examples/tracker/ two.
const belowDepth = 3

// BelowHint completes a message that found no project in dir or above it (FindRoot's error) with the projects below
// it (FindBelow, at most three levels down) and the command to run for the first: run is that command with %s where
// the project's directory goes, shell-quoted. It reads "; found prompts/promptc.toml below it: promptc -C prompts
// build", or with more "; found a/promptc.toml, b/promptc.toml and 2 more below it: …", and is "" when none is
// below.
func BelowHint(dir, run string) string {
	found := FindBelow(dir, belowDepth)
	if len(found) == 0 {
		return ""
	}
	const listed = 3
	var names []string
	for _, d := range found[:min(len(found), listed)] {
		names = append(names, source.QuoteName(path.Join(d, ManifestFile)))
	}
	list := strings.Join(names, ", ")
	if more := len(found) - listed; more > 0 {
		list += fmt.Sprintf(" and %d more", more)
	} else if n := len(names); n > 1 {
		list = strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	}
	return fmt.Sprintf("; found %s below it: %s", list, fmt.Sprintf(run, shell.Quote(found[0])))
}
