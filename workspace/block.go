package workspace

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/promptc/promptc/blocks"
)

// Block returns the bytes install writes for target t: begin + "\n" + runbook + end + "\n" (§6). A runbook
// rendered by promptc ends with its one newline; one that does not (from a caller's own code) gets one, so that
// the end marker stands on a line of its own.
func Block(t *blocks.Target, runbook string) []byte {
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

// Span is where a target's block is in a file's bytes: Data[Start:End]. The span runs from the first begin marker
// to the end of the first end marker after it, plus one following "\n" if there is one; with no end marker after
// the begin marker (a write that stopped halfway), to the end of the file. Found is false when the file holds no
// begin marker. More counts the begin markers after the span: blocks install and uninstall leave alone.
type Span struct {
	Start, End int
	Found      bool
	// Ended is false for a block whose end marker is missing.
	Ended bool
	More  int
}

// Find returns the span of t's block in data (see Span).
func Find(data []byte, t *blocks.Target) Span {
	begin, end := []byte(t.Begin), []byte(t.End)
	i := bytes.Index(data, begin)
	if i < 0 {
		return Span{}
	}
	sp := Span{Start: i, End: len(data), Found: true}
	after := i + len(begin)
	if j := bytes.Index(data[after:], end); j >= 0 {
		sp.Ended = true
		sp.End = after + j + len(end)
		if sp.End < len(data) && data[sp.End] == '\n' {
			sp.End++
		}
		sp.More = bytes.Count(data[sp.End:], begin)
	}
	return sp
}

// Installed returns the bytes of a file after installing block (from Block) for t into it: data is the file's
// bytes and exists whether there is a file at all. A missing file becomes the block alone; a file holding a block
// has that span replaced; any other file gets "\n\n" and the block appended to its bytes as they are, whatever
// its last bytes are (§6).
func Installed(data []byte, exists bool, block []byte, t *blocks.Target) []byte {
	return installedAt(data, exists, block, Find(data, t))
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
// then out is data.
func Uninstalled(data []byte, t *blocks.Target) (out []byte, remove, found bool) {
	return uninstalledAt(data, Find(data, t))
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

// checkRunbook refuses a runbook that is not UTF-8 or holds one of t's markers: installed, it would end the block early (or start
// another), and uninstall would then leave part of it behind. promptc's own rendering never produces one (§3.9).
func checkRunbook(t *blocks.Target, runbook string) error {
	if !utf8.ValidString(runbook) {
		// Installed, it would make the file one that promptc refuses to read, and so to uninstall from.
		bad, _ := blocks.InvalidUTF8([]byte(runbook))
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
