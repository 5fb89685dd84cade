package schema

import (
	"embed"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/suggest"
)

//go:embed *.schema.json
var files embed.FS

// FileKind names one of promptc's kinds of source file, and so one schema.
type FileKind string

// The kinds of source file, in the order FileKinds lists them.
const (
	Manifest FileKind = "manifest" // promptc.toml
	Blocks   FileKind = "blocks"   // blocks/**/*.toml
	Fixture  FileKind = "fixture"  // fixtures/*.toml
)

// FileKinds lists every kind of source file that has a schema.
var FileKinds = []FileKind{Manifest, Blocks, Fixture}

// File is the name of kind's schema file in this package's directory (schema/ of the repository): the name to put
// in a #:schema directive or an editor's settings.
func (k FileKind) File() string { return string(k) + ".schema.json" }

// Sources is the pattern, relative to a project root, of the source files that follow kind's schema.
func (k FileKind) Sources() string {
	switch k {
	case Manifest:
		return blocks.ManifestFile
	case Blocks:
		return "blocks/**/*.toml"
	case Fixture:
		return "fixtures/*.toml"
	}
	return ""
}

// Get returns the schema of kind as the JSON file kept in the repository, byte for byte. An unknown kind is an error
// that lists the known ones.
func Get(kind FileKind) ([]byte, error) {
	if !slices.Contains(FileKinds, kind) {
		names := make([]string, len(FileKinds))
		for i, k := range FileKinds {
			names[i] = string(k)
		}
		return nil, fmt.Errorf("no schema %q%s: the schemas are %s", string(kind), suggest.DidYouMean(string(kind), names), strings.Join(names, ", "))
	}
	return files.ReadFile(kind.File())
}

// WriteList writes what promptc schema prints with no argument: a line for each kind of source file, with the files
// that follow its schema and the schema's file in the repository.
func WriteList(w io.Writer) error {
	var b strings.Builder
	for _, k := range FileKinds {
		fmt.Fprintf(&b, "%-9s %-17s %s\n", k, k.Sources(), "schema/"+k.File())
	}
	_, err := io.WriteString(w, b.String())
	return err
}
