package testenv

import (
	"strings"
	"testing/fstest"
)

// Archive turns a txtar-like text into an in-memory project: a line "-- path --" starts a file, and every line up
// to the next such line belongs to it, each with its newline. Lines before the first file are a comment.
func Archive(text string) fstest.MapFS {
	fsys := fstest.MapFS{}
	name := ""
	var body strings.Builder
	flush := func() {
		if name != "" {
			fsys[name] = &fstest.MapFile{Data: []byte(body.String())}
		}
		body.Reset()
	}
	for _, line := range strings.SplitAfter(text, "\n") {
		trimmed := strings.TrimSuffix(line, "\n")
		if strings.HasPrefix(trimmed, "-- ") && strings.HasSuffix(trimmed, " --") && len(trimmed) > 6 {
			flush()
			name = strings.TrimSpace(trimmed[3 : len(trimmed)-3])
			continue
		}
		if name != "" {
			body.WriteString(line)
		}
	}
	flush()
	return fsys
}

// With returns the project of the archive base with the files of each override archive added or replaced.
func With(base string, overrides ...string) fstest.MapFS {
	fsys := Archive(base)
	for _, o := range overrides {
		for name, f := range Archive(o) {
			fsys[name] = f
		}
	}
	return fsys
}
