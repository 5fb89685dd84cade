package workspace

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
)

// Bytes returns the bytes install writes for target t: begin + "\n" + runbook + end + "\n" (docs/workspaces.md,
// "The bytes"). A runbook rendered by promptc ends with its one newline; one that does not (from a caller's own
// code) gets one, so that the end marker stands on a line of its own.
func Bytes(t *blocks.Target, runbook string) []byte {
	b := make([]byte, 0, len(t.Begin)+len(runbook)+len(t.End)+3)
	b = append(b, t.Begin...)
	b = append(b, '\n')
	b = append(b, runbook...)
	if runbook != "" && runbook[len(runbook)-1] != '\n' {
		b = append(b, '\n')
	}
	b = append(b, t.End...)
	return append(b, '\n')
}

// Span is where a target's block is in a file's bytes: Data[Start:End], from the start of the first begin-marker
// line that counts to the end of the first end-marker line that counts after it, its line ending ("\n" or "\r\n")
// included. Found is false when no begin-marker line counts. Which lines count is Find's rule.
type Span struct {
	Start, End int
	Found      bool
}

// MarkerError is a file whose block Find refuses to delimit, because any guess could delete the user's text: a
// begin-marker line with no end-marker line after it (a block written halfway: promptc's own writes are atomic, so
// a person or another tool left it), or a second begin-marker line after the block (two blocks: which one is
// promptc's?).
type MarkerError struct {
	Target *blocks.Target
	// Line is the refused begin-marker line, from 1, and Byte the offset of its first byte.
	Line, Byte int
	// First is, for a second block, the line of the first block's begin marker; 0 for a begin marker with no end
	// marker after it.
	First int
}

func (e *MarkerError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Message()) }

// Message is the error without its line number, for a diagnostic that places it (FILE:LINE:1).
func (e *MarkerError) Message() string {
	if e.First == 0 {
		return fmt.Sprintf("the begin marker of target %q has no end marker after it: a block written halfway, by hand "+
			"or by another tool, whose end promptc will not guess, since a wrong guess deletes your text; the file is "+
			"left as it is: delete this line, or restore the end marker %q on a line of its own where the block ends",
			e.Target.Name, e.Target.End)
	}
	return fmt.Sprintf("a second block of target %q (the first begins on line %d): promptc cannot tell which one is "+
		"its own; the file is left as it is: delete one of them, from its begin-marker line to its end-marker line "+
		"(or this line alone, if it starts no block)", e.Target.Name, e.First)
}

// Find returns the span of t's block in data. The rule (docs/workspaces.md, "Finding the block"):
//
//   - A marker counts only on a line of its own: the line is the marker and nothing else, ended by "\n", "\r\n"
//     or the end of the file (a "\r" at the very end of the file ends the line too, since an append would make it
//     "\r\n"). A marker elsewhere in a line (in prose, in a code span) is the user's text.
//   - A marker inside a closed fenced code block of the user's text does not count: between a line opening a
//     CommonMark fence (up to three spaces, then three or more backticks or tildes) and the line closing it, an
//     example of the markers is text. A fence that never closes hides nothing. Fence lines inside a block (between
//     a begin-marker line and the end-marker line after it, with no other begin marker between) are the runbook's,
//     not the user's, and open or close nothing; marker lines are never fence lines.
//   - The span runs from the first begin-marker line that counts to the end of the first end-marker line that
//     counts after it. With no such end-marker line, or with another begin-marker line that counts after the span,
//     the error is a *MarkerError and the span is not found.
//
// Find reads data once and costs time linear in its length.
func Find(data []byte, t *blocks.Target) (Span, error) {
	ev := scan(data, t)
	ev.fences()
	first := -1
	for i := range ev.list {
		e := &ev.list[i]
		if e.hidden || (e.kind != beginLine && e.kind != endLine) {
			continue
		}
		switch {
		case first < 0 && e.kind == beginLine:
			first = i
		case first >= 0 && e.kind == endLine:
			sp := Span{Start: ev.list[first].start, End: e.next, Found: true}
			for _, after := range ev.list[i+1:] {
				if after.kind == beginLine && !after.hidden {
					return Span{}, &MarkerError{Target: t, Line: after.line, Byte: after.start, First: ev.list[first].line}
				}
			}
			return sp, nil
		}
	}
	if first >= 0 {
		b := ev.list[first]
		return Span{}, &MarkerError{Target: t, Line: b.line, Byte: b.start}
	}
	return Span{}, nil
}

// The kinds of line Find looks at; every other line is text to it.
const (
	beginLine = iota + 1
	endLine
	fenceLine
)

// event is a line of one of those kinds.
type event struct {
	line        int // from 1
	start, next int // the line's first byte, and the first byte after its line ending
	// For a fence line: the length of its run and its character, whether it can open a fence (a backtick fence's
	// info string holds no backtick) and close one (nothing but spaces and tabs after the run), and whether it lies
	// inside a block, where it is the runbook's.
	run           int32
	kind          uint8
	char          byte
	opens, closes bool
	inBlock       bool
	// hidden is set for a line inside a closed fence.
	hidden bool
}

type events struct{ list []event }

// scan lists the marker and fence lines of data, and marks the fence lines inside blocks. Every such line holds a
// marker, "```" or "~~~", so scan jumps from one occurrence of those to the next (bytes.Index, which is fast) and
// looks only at the lines holding one, counting the newlines skipped to know their numbers. Each needle's search
// only moves forward, and a line is looked at once, so the cost stays linear in the file's length.
func scan(data []byte, t *blocks.Target) *events {
	ev := &events{}
	pending := -1 // index of the last begin-marker line with no end-marker line since
	needles := [...][]byte{[]byte(t.Begin), []byte(t.End), []byte("```"), []byte("~~~")}
	var next [len(needles)]int // the next occurrence of each needle at or after pos (-1: none), or -2: not searched
	for i := range next {
		next[i] = -2
	}
	line, counted := 1, 0 // line is the number of the line holding byte counted
	for pos := 0; pos < len(data); {
		hit := -1
		for i, n := range needles {
			if next[i] == -2 || next[i] >= 0 && next[i] < pos {
				next[i] = -1
				if j := bytes.Index(data[pos:], n); j >= 0 {
					next[i] = pos + j
				}
			}
			if next[i] >= 0 && (hit < 0 || next[i] < hit) {
				hit = next[i]
			}
		}
		if hit < 0 {
			break
		}
		start := pos + bytes.LastIndexByte(data[pos:hit], '\n') + 1 // pos starts a line, so the line starts here or later
		end := len(data)
		if nl := bytes.IndexByte(data[hit:], '\n'); nl >= 0 {
			end = hit + nl
		}
		after := min(end+1, len(data))
		line += bytes.Count(data[counted:start], []byte("\n"))
		counted = start
		pos = after

		raw := data[start:end]
		e := event{line: line, start: start, next: after}
		switch {
		case isMarker(raw, t.Begin):
			e.kind = beginLine
			pending = len(ev.list)
		case isMarker(raw, t.End):
			e.kind = endLine
			if pending >= 0 {
				// A block: the fence lines since its begin marker are the runbook's.
				for i := pending + 1; i < len(ev.list); i++ {
					ev.list[i].inBlock = true
				}
				pending = -1
			}
		default:
			if !fence(raw, &e) {
				continue
			}
			e.kind = fenceLine
		}
		ev.list = append(ev.list, e)
	}
	return ev
}

// isMarker reports whether a line (without its "\n") is marker m on a line of its own, ended by "\n", "\r\n" or
// the end of the file.
func isMarker(raw []byte, m string) bool {
	return len(raw) >= len(m) && string(raw[:len(m)]) == m && (len(raw) == len(m) || len(raw) == len(m)+1 && raw[len(m)] == '\r')
}

// fence reports whether a line (without its "\n") is a CommonMark code fence line, and fills in e's fence fields.
func fence(raw []byte, e *event) bool {
	raw = bytes.TrimSuffix(raw, []byte("\r"))
	i := 0
	for i < 3 && i < len(raw) && raw[i] == ' ' {
		i++
	}
	if i == len(raw) || raw[i] != '`' && raw[i] != '~' {
		return false
	}
	c := raw[i]
	n := 0
	for i+n < len(raw) && raw[i+n] == c {
		n++
	}
	if n < 3 {
		return false
	}
	rest := raw[i+n:]
	e.char, e.run = c, int32(min(n, 1<<30))
	e.opens = c == '~' || bytes.IndexByte(rest, '`') < 0
	e.closes = len(bytes.Trim(rest, " \t")) == 0
	return true
}

// fences marks the lines inside closed fences as hidden. A fence opens at a fence line outside any block and closes
// at the first later fence line outside any block that closes it (the same character, a run at least as long); a
// fence with no such line hides nothing. Each line is passed over a bounded number of times: a suffix table says
// at once whether a fence will close.
func (ev *events) fences() {
	l := ev.list
	// longest[c][i] is the longest run of a closing fence line of character c at index i or later (c: 0 for
	// backticks, 1 for tildes).
	var longest [2][]int32
	for c := range longest {
		longest[c] = make([]int32, len(l)+1)
	}
	for i := len(l) - 1; i >= 0; i-- {
		longest[0][i], longest[1][i] = longest[0][i+1], longest[1][i+1]
		if e := l[i]; e.kind == fenceLine && e.closes && !e.inBlock {
			c := fenceIndex(e.char)
			longest[c][i] = max(longest[c][i], e.run)
		}
	}
	for i := 0; i < len(l); i++ {
		o := l[i]
		if o.kind != fenceLine || !o.opens || o.inBlock || longest[fenceIndex(o.char)][i+1] < o.run {
			continue
		}
		j := i + 1
		for ; ; j++ {
			if e := l[j]; e.kind == fenceLine && e.closes && !e.inBlock && e.char == o.char && e.run >= o.run {
				break
			}
			l[j].hidden = true
		}
		i = j
	}
}

func fenceIndex(c byte) int {
	if c == '~' {
		return 1
	}
	return 0
}

// Installed returns the bytes of a file after installing block (from Bytes) for t into it: data is the file's
// bytes and exists whether there is a file at all. A missing file becomes the block alone; a file holding a block
// has that span replaced; any other file gets "\n\n" and the block appended to its bytes as they are, whatever
// its last bytes are. The error is Find's, for a file install refuses.
func Installed(data []byte, exists bool, block []byte, t *blocks.Target) ([]byte, error) {
	sp, err := Find(data, t)
	if err != nil {
		return nil, err
	}
	return installedAt(data, exists, block, sp), nil
}

// installedAt is Installed with the span of the block in data found already.
func installedAt(data []byte, exists bool, block []byte, sp Span) []byte {
	if !exists {
		return block
	}
	if !sp.Found {
		out := make([]byte, 0, len(data)+2+len(block))
		out = append(out, data...)
		out = append(out, '\n', '\n')
		return append(out, block...)
	}
	out := make([]byte, 0, sp.Start+len(block)+len(data)-sp.End)
	out = append(out, data[:sp.Start]...)
	out = append(out, block...)
	return append(out, data[sp.End:]...)
}

// Uninstalled returns the bytes of a file after taking t's block out: the span goes, and with it the "\n\n" before
// it that install added, unless the span starts the file. remove reports that the span started the file and
// nothing is left, so the file itself goes (install created it). found is false when the file holds no block, and
// then out is data. The error is Find's, for a file uninstall refuses.
func Uninstalled(data []byte, t *blocks.Target) (out []byte, remove, found bool, err error) {
	sp, err := Find(data, t)
	if err != nil {
		return nil, false, false, err
	}
	out, remove, found = uninstalledAt(data, sp)
	return out, remove, found, nil
}

// uninstalledAt is Uninstalled with the span of the block in data found already.
func uninstalledAt(data []byte, sp Span) (out []byte, remove, found bool) {
	if !sp.Found {
		return data, false, false
	}
	start := sp.Start
	if start >= 2 && data[start-2] == '\n' && data[start-1] == '\n' {
		start -= 2
	}
	if sp.Start == 0 && sp.End == len(data) {
		return nil, true, true
	}
	out = make([]byte, 0, start+len(data)-sp.End)
	out = append(out, data[:start]...)
	return append(out, data[sp.End:]...), false, true
}

// checkRunbook refuses a runbook that is not UTF-8 or holds one of t's markers: installed, it would end the block
// early (or start another), and uninstall would then leave part of it behind. promptc's own rendering never
// produces one (docs/reference.md, "[[target]]").
func checkRunbook(t *blocks.Target, runbook string) error {
	if !utf8.ValidString(runbook) {
		// Installed, it would make the file one that promptc refuses to read, and so to uninstall from.
		bad, _ := source.InvalidUTF8([]byte(runbook))
		return fmt.Errorf("the runbook is not valid UTF-8 (its line %d, column %d): promptc installs only UTF-8 text, which it can read back and uninstall", bad.Line, bad.Column)
	}
	for _, m := range []struct{ which, text string }{{"begin", t.Begin}, {"end", t.End}} {
		if i := strings.Index(runbook, m.text); i >= 0 {
			line := strings.Count(runbook[:i], "\n") + 1
			return fmt.Errorf("the runbook holds the %s marker of target %q on its line %d: installed, it would cut the block short and uninstall would leave part of it behind; remove the marker from the runbook", m.which, t.Name, line)
		}
	}
	return nil
}
