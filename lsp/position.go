package lsp

import (
	"strings"
	"unicode/utf8"

	"github.com/promptc/promptc/source"
)

// LSP counts a line's characters in UTF-16 code units; promptc's positions count bytes (Pos.Byte) and runes. The
// conversions below go through the byte offset, which the loader records for every position, and the file's text.

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// toPosition converts byte offset off of text.
func toPosition(text string, off int) Position {
	off = max(0, min(off, len(text)))
	start := strings.LastIndexByte(text[:off], '\n') + 1
	return Position{Line: strings.Count(text[:start], "\n"), Character: utf16Len(text[start:off])}
}

// fromPosition converts p to a byte offset of f, clamped to the end of its line and of the file.
func fromPosition(f *source.File, p Position) int {
	if p.Line < 0 {
		return 0
	}
	off := f.Offset(p.Line+1, 1)
	if off < 0 {
		return len(f.Text)
	}
	for units := 0; off < len(f.Text) && f.Text[off] != '\n' && units < p.Character; {
		r, size := utf8.DecodeRuneInString(f.Text[off:])
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
		off += size
	}
	return off
}

// toRange converts a loader range. A range with no place in its file is the file's start; a position whose byte
// offset is not in the text (a file that could not be read) is taken from its line and rune column.
func toRange(f *source.File, r source.Range) Range {
	conv := func(p source.Pos) Position {
		switch {
		case p.Line <= 0:
			return Position{}
		case f != nil && p.Byte <= len(f.Text):
			// The file's line index finds the line; only the line's start up to the position is scanned.
			q := f.Pos(p.Byte)
			start := f.Offset(q.Line, 1)
			if start < 0 || start > q.Byte {
				return toPosition(f.Text, p.Byte)
			}
			return Position{Line: q.Line - 1, Character: utf16Len(f.Text[start:q.Byte])}
		}
		return Position{Line: p.Line - 1, Character: max(0, p.Column-1)}
	}
	start := conv(r.Start)
	end := start
	if r.End.Line > 0 && r.End.Byte >= r.Start.Byte {
		end = conv(r.End)
	}
	return Range{Start: start, End: end}
}
