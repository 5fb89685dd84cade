package source

import (
	"cmp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Pos is a position in a source file, in the shape of hcl's: Line and Column count from 1, Column in runes so that a
// position reads the same in any editor; Byte is the offset from 0, so that a range slices the text without scanning
// it again. A zero Line means the position is unknown.
type Pos struct {
	Line, Column, Byte int
}

// Range is the span [Start, End) of one source file. Filename is the slash path relative to the project root; a
// range with no Filename belongs to no file (a value passed through the Go API, say). A range whose Start.Line is 0
// names the file without a place in it.
type Range struct {
	Filename   string
	Start, End Pos
}

// String formats where the range starts as path:line:col, with "?" for unknown parts. A file name holding a
// character that a terminal or a CI log would act on (a control or format character, a backslash, a quote) is
// printed Go-quoted, so that a crafted name can never forge a diagnostic line, an escape sequence or a workflow
// command.
func (r Range) String() string {
	part := func(n int) string {
		if n <= 0 {
			return "?"
		}
		return strconv.Itoa(n)
	}
	name := "?"
	if r.Filename != "" {
		name = QuoteName(r.Filename)
	}
	return name + ":" + part(r.Start.Line) + ":" + part(r.Start.Column)
}

// Known reports whether the range names a file.
func (r Range) Known() bool { return r.Filename != "" }

// Ptr returns a pointer to a copy of r, for Diagnostic.Subject; nil when r names no file.
func (r Range) Ptr() *Range {
	if !r.Known() {
		return nil
	}
	return &r
}

// Compare orders ranges by file, then start line and column: -1, 0 or +1.
func (r Range) Compare(o Range) int {
	switch {
	case r.Filename != o.Filename:
		return strings.Compare(r.Filename, o.Filename)
	case r.Start.Line != o.Start.Line:
		return cmp.Compare(r.Start.Line, o.Start.Line)
	}
	return cmp.Compare(r.Start.Column, o.Start.Column)
}

// FileRange names a whole file, with no place in it.
func FileRange(name string) Range { return Range{Filename: name} }

// QuoteName returns a user-supplied name (a file, a fixture, a template) as it may be printed: unchanged when it is
// made of printable characters other than backslash and double quote, and Go-quoted otherwise.
func QuoteName(s string) string {
	for _, r := range s {
		if r == utf8.RuneError || r == '\\' || r == '"' || !unicode.IsPrint(r) && r != ' ' {
			return strconv.Quote(s)
		}
	}
	return s
}

// File is the normalised text of a source file with an index of where its lines start: the one place where byte
// offsets and line:column positions are converted into each other. It is safe for concurrent use.
type File struct {
	Name string
	Text string

	once  sync.Once
	lines []int // byte offset of the start of each line
	// marks are places inside long lines whose column is known, every checkpointBytes bytes or so, so that a
	// column on a megabyte line costs a short count, not a scan from the line's start.
	marks []mark
}

// mark is a byte offset at the start of a character and its rune column (from 1).
type mark struct{ off, col int }

const checkpointBytes = 1 << 10

// NewFile returns the file name holding text.
func NewFile(name, text string) *File { return &File{Name: name, Text: text} }

func (f *File) index() {
	f.once.Do(func() {
		f.lines = make([]int, 1, 1+strings.Count(f.Text, "\n"))
		for i := 0; i < len(f.Text); {
			j := strings.IndexByte(f.Text[i:], '\n')
			end := len(f.Text)
			if j >= 0 {
				end = i + j
			}
			if end-i > checkpointBytes {
				f.markLine(i, end)
			}
			if j < 0 {
				break
			}
			i = end + 1
			f.lines = append(f.lines, i)
		}
	})
}

// markLine records checkpoints along the long line [start, end).
func (f *File) markLine(start, end int) {
	col, off := 1, start
	for next := start + checkpointBytes; next < end; next += checkpointBytes {
		for next < end && !utf8.RuneStart(f.Text[next]) {
			next++
		}
		col += utf8.RuneCountInString(f.Text[off:next])
		off = next
		f.marks = append(f.marks, mark{off, col})
	}
}

// Pos returns the position of byte offset off, clamped to the text and moved back to the start of the character
// holding it. The column counts runes, each invalid UTF-8 byte as one.
func (f *File) Pos(off int) Pos {
	off = max(0, min(off, len(f.Text)))
	for k := 0; k < utf8.UTFMax-1 && off > 0 && off < len(f.Text) && !utf8.RuneStart(f.Text[off]); k++ {
		off--
	}
	f.index()
	line := sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > off }) // 1-based: lines[line-1] <= off
	start, col := f.lines[line-1], 1
	if k := sort.Search(len(f.marks), func(i int) bool { return f.marks[i].off > off }); k > 0 && f.marks[k-1].off >= start {
		start, col = f.marks[k-1].off, f.marks[k-1].col
	}
	return Pos{Line: line, Column: col + utf8.RuneCountInString(f.Text[start:off]), Byte: off}
}

// Range returns the range of bytes [start, end) of the file, widened to whole characters.
func (f *File) Range(start, end int) Range {
	end = max(0, min(max(start, end), len(f.Text)))
	for k := 0; k < utf8.UTFMax-1 && end < len(f.Text) && !utf8.RuneStart(f.Text[end]); k++ {
		end++
	}
	return Range{Filename: f.Name, Start: f.Pos(start), End: f.Pos(end)}
}

// Offset returns the byte offset of 1-based line and rune column, or -1 when the text has no such place. The column
// may point just past the end of its line.
func (f *File) Offset(line, col int) int {
	f.index()
	if line < 1 || line > len(f.lines) || col < 1 {
		return -1
	}
	off := f.lines[line-1]
	for c := 1; c < col; c++ {
		if off >= len(f.Text) || f.Text[off] == '\n' {
			return -1
		}
		_, size := utf8.DecodeRuneInString(f.Text[off:])
		off += size
	}
	return off
}

// TextPos returns the position of byte offset off in text: for texts that are not source files, such as artifacts.
func TextPos(text string, off int) Pos { return NewFile("", text).Pos(off) }
