package guard

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// diffContext is the number of unchanged lines shown around each change.
const diffContext = 3

// DiffTimeout bounds the time spent looking for a minimal diff on pathological input; past it, go-diff returns a
// correct but coarser diff.
var DiffTimeout = 2 * time.Second

// diffLine is one line of a line diff: ' ' kept, '-' removed, '+' added. Text excludes the newline; noEOL marks a
// last line without one.
type diffLine struct {
	op    byte
	text  string
	noEOL bool
}

// UnifiedDiff returns a unified line diff of a and b (3 lines of context), or "" when they are equal. hasA and hasB
// say whether each side exists at all: a missing side is shown as /dev/null.
func UnifiedDiff(nameA, nameB, a, b string, hasA, hasB bool) string {
	if a == b && hasA == hasB {
		return ""
	}
	lines := lineDiff(a, b)
	var out strings.Builder
	if !hasA {
		nameA = "/dev/null"
	}
	if !hasB {
		nameB = "/dev/null"
	}
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", nameA, nameB)
	// Walk the lines, emitting a hunk for each group of changes closer than 2×context lines to each other.
	aLine, bLine := 1, 1
	for i := 0; i < len(lines); {
		if lines[i].op == ' ' {
			aLine++
			bLine++
			i++
			continue
		}
		start := max(i-diffContext, 0)
		for k := start; k < i; k++ {
			aLine--
			bLine--
		}
		end := i
		for end < len(lines) {
			if lines[end].op != ' ' {
				end++
				continue
			}
			run := end
			for run < len(lines) && lines[run].op == ' ' {
				run++
			}
			if run == len(lines) || run-end > 2*diffContext {
				end = min(end+diffContext, len(lines))
				break
			}
			end = run
		}
		aCount, bCount := 0, 0
		for _, l := range lines[start:end] {
			if l.op != '+' {
				aCount++
			}
			if l.op != '-' {
				bCount++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(aLine, aCount), hunkRange(bLine, bCount))
		for _, l := range lines[start:end] {
			out.WriteByte(l.op)
			writeVisible(&out, l.text)
			out.WriteByte('\n')
			if l.noEOL {
				out.WriteString("\\ No newline at end of file\n")
			}
		}
		aLine += aCount
		bLine += bCount
		i = end
	}
	return out.String()
}

// hunkRange formats one side of a hunk header as unified diff does: "start,count", or "start" for one line, and a
// start one before the hunk for an empty range.
func hunkRange(start, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	case 1:
		return fmt.Sprintf("%d", start)
	}
	return fmt.Sprintf("%d,%d", start, count)
}

// DiffLine is one line of LineDiff: Op is ' ' for a line kept, '-' for one only in a, '+' for one only in b. A and
// B are its bytes in a and in b, its newline included ([start, end); both set for a kept line, one for the others).
type DiffLine struct {
	Op     byte
	AStart int
	AEnd   int
	BStart int
	BEnd   int
}

// LineDiff is the line diff UnifiedDiff shows, every line of both texts in order, with its byte ranges: the kept
// lines cover the common text, the removed and kept ones tile a, the added and kept ones tile b.
func LineDiff(a, b string) []DiffLine {
	lines := lineDiff(a, b)
	out := make([]DiffLine, 0, len(lines))
	ai, bi := 0, 0
	for _, l := range lines {
		n := len(l.text)
		if !l.noEOL {
			n++
		}
		d := DiffLine{Op: l.op, AStart: ai, AEnd: ai, BStart: bi, BEnd: bi}
		if l.op != '+' {
			ai += n
			d.AEnd = ai
		}
		if l.op != '-' {
			bi += n
			d.BEnd = bi
		}
		out = append(out, d)
	}
	return out
}

// lineDiff diffs a and b line by line with go-diff's line mode.
func lineDiff(a, b string) []diffLine {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = DiffTimeout
	ra, rb, table := dmp.DiffLinesToRunes(a, b)
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(ra, rb, false), table)
	var out []diffLine
	for _, d := range diffs {
		op := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			op = '-'
		case diffmatchpatch.DiffInsert:
			op = '+'
		}
		text := d.Text
		for text != "" {
			i := strings.IndexByte(text, '\n')
			if i < 0 {
				out = append(out, diffLine{op: op, text: text, noEOL: true})
				break
			}
			out = append(out, diffLine{op: op, text: text[:i]})
			text = text[i+1:]
		}
	}
	return out
}

// writeVisible writes a diff line with control characters other than tab shown as \xNN (C1: \u00NN): a carriage
// return or an escape sequence in an artifact must show in a review, not act on the terminal or log displaying it.
func writeVisible(b *strings.Builder, s string) {
	for _, r := range s {
		switch {
		case r == '\t' || !unicode.IsControl(r):
			b.WriteRune(r)
		case r < 0x80:
			fmt.Fprintf(b, "\\x%02x", r)
		default:
			fmt.Fprintf(b, "\\u%04x", r)
		}
	}
}
