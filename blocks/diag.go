package blocks

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Pos is a position in a project source file. File is relative to the project root and slash-separated; Line and
// Col count from 1, and 0 means unknown (printed as "?").
type Pos struct {
	File string
	Line int
	Col  int
}

// String formats the position as path:line:col, with "?" for unknown parts.
func (p Pos) String() string {
	part := func(n int) string {
		if n <= 0 {
			return "?"
		}
		return strconv.Itoa(n)
	}
	file := p.File
	if file == "" {
		file = "?"
	}
	return file + ":" + part(p.Line) + ":" + part(p.Col)
}

// Compare orders positions by file, line and column: -1, 0 or +1.
func (p Pos) Compare(q Pos) int {
	switch {
	case p.File != q.File:
		return strings.Compare(p.File, q.File)
	case p.Line != q.Line:
		return cmpInt(p.Line, q.Line)
	}
	return cmpInt(p.Col, q.Col)
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Known reports whether the position names a file.
func (p Pos) Known() bool { return p.File != "" }

// Diagnostic is one problem found in a project: where it is and what to do about it.
type Diagnostic struct {
	Pos     Pos
	Message string
}

// String formats the diagnostic as path:line:col: message. A problem that belongs to no file at all (a value passed
// through the Go API, say) is just the message: "?:?:?: " would add nothing.
func (d Diagnostic) String() string {
	if d.Pos == (Pos{}) {
		return d.Message
	}
	return d.Pos.String() + ": " + d.Message
}

// Diagnostics is every problem found in one pass. A nil or empty Diagnostics means success.
type Diagnostics []Diagnostic

// Error returns the first message, followed by how many more there are.
func (ds Diagnostics) Error() string {
	switch len(ds) {
	case 0:
		return "no problems"
	case 1:
		return ds[0].String()
	}
	return fmt.Sprintf("%s (and %d more)", ds[0], len(ds)-1)
}

// Err returns ds as an error, or nil when there are no diagnostics.
func (ds Diagnostics) Err() error {
	if len(ds) == 0 {
		return nil
	}
	return ds
}

// Add appends a diagnostic at pos.
func (ds *Diagnostics) Add(pos Pos, format string, args ...any) {
	*ds = append(*ds, Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...)})
}

// Sort orders the diagnostics by file, line, column and message, and drops exact duplicates, so that the report does
// not depend on the order in which checks ran.
func (ds Diagnostics) Sort() Diagnostics {
	sort.SliceStable(ds, func(i, j int) bool {
		if c := ds[i].Pos.Compare(ds[j].Pos); c != 0 {
			return c < 0
		}
		return ds[i].Message < ds[j].Message
	})
	out := ds[:0]
	for i, d := range ds {
		if i > 0 && d == ds[i-1] {
			continue
		}
		out = append(out, d)
	}
	return out
}

// String prints one diagnostic per line.
func (ds Diagnostics) String() string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	return b.String()
}
