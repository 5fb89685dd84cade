package source

import (
	"strings"
	"unicode/utf8"
)

// Cursor converts byte offsets of a file into positions, in time linear in the distance between one offset and the
// next when they come in increasing order, as a decoder meets them. File.Pos counts the runes of a line from its
// start at every call, which over the many keys of a file written on one line would take quadratic time. The zero
// Cursor is not usable: NewCursor makes one.
type Cursor struct {
	f   *File
	off int
	pos Pos
}

// NewCursor returns a Cursor over f.
func NewCursor(f *File) Cursor { return Cursor{f: f} }

// Pos returns the position of byte offset off (at the start of a character).
func (c *Cursor) Pos(off int) Pos {
	text := c.f.Text
	off = max(0, min(off, len(text)))
	at := off
	// An offset inside a character is that character's, as File.Pos reads it; the runes between two offsets so
	// taken are then counted as File.Pos counts them, whatever invalid bytes the text holds.
	for k := 0; k < utf8.UTFMax-1 && off > 0 && off < len(text) && !utf8.RuneStart(text[off]); k++ {
		off--
	}
	// Counting on from the last offset is exact only between character starts; inside a run of stray continuation
	// bytes, or when going back, the position is taken from the file.
	if c.pos.Line == 0 || off < c.off || !runeStartAt(text, c.off) || !runeStartAt(text, off) {
		c.pos = c.f.Pos(at)
		c.off = c.pos.Byte
		return c.pos
	}
	gap := text[c.off:off]
	if i := strings.LastIndexByte(gap, '\n'); i >= 0 {
		c.pos = Pos{Line: c.pos.Line + strings.Count(gap, "\n"), Column: 1 + utf8.RuneCountInString(gap[i+1:]), Byte: off}
	} else {
		c.pos = Pos{Line: c.pos.Line, Column: c.pos.Column + utf8.RuneCountInString(gap), Byte: off}
	}
	c.off = off
	return c.pos
}

// Range returns the range [start, end); start must not come before the last offset converted, for the
// conversion to take linear time.
func (c *Cursor) Range(start, end int) Range {
	from := c.Pos(start)
	return Range{Filename: c.f.Name, Start: from, End: c.Pos(end)}
}

// runeStartAt reports whether off is the start of a character of text, or its end.
func runeStartAt(text string, off int) bool { return off >= len(text) || utf8.RuneStart(text[off]) }
