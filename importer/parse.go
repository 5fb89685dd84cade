package importer

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/promptc/promptc/internal/plural"
)

// section is one block-to-be of a file: the text before the first heading, or a heading and what follows it up to
// the next section, without the blank lines between them. text is what the block renders (heading included).
type section struct {
	text  string
	line  int    // the line of the file where the section starts
	title string // the heading's text when the block can carry it as title and level; "" for a body-only block
	level int
	name  string // what the block's id is made from: the heading's text, or "" for text before the first heading
	// inBody says why a heading is written in the body rather than as title and level ("" when it is not).
	inBody string
}

// document is one input file after parsing: its sections, the text its runbook must equal, and the normalisations
// that text differs from the input by.
type document struct {
	sections []section
	want     string
	norms    []Normalisation
}

// parse splits one markdown file into sections and computes the runbook text promptc renders for them: the
// sections joined by one blank line, followed by one newline. Every difference from the input is a normalisation.
func parse(name string, data []byte) (*document, error) {
	if !utf8.Valid(data) {
		off := 0
		for off < len(data) {
			r, size := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			off += size
		}
		return nil, fmt.Errorf("%s:%d: not valid UTF-8 (byte %d): promptc sources are UTF-8", name, 1+strings.Count(string(data[:off]), "\n"), off)
	}
	d := &document{}
	note := func(line int, format string, args ...any) {
		d.norms = append(d.norms, Normalisation{File: name, Line: line, Message: fmt.Sprintf(format, args...)})
	}
	text := string(data)
	if t, ok := strings.CutPrefix(text, "\uFEFF"); ok {
		text = t
		note(1, "byte order mark removed")
	}
	if strings.Contains(text, "\r") {
		first := 1 + strings.Count(text[:strings.Index(text, "\r")], "\n")
		crlf := strings.Count(text, "\r\n")
		lone := strings.Count(text, "\r") - crlf
		text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
		switch {
		case lone == 0:
			note(first, "CRLF line endings become LF (%s)", plural.Count(crlf, "line"))
		case crlf == 0:
			note(first, "carriage returns become LF (%s)", plural.Count(lone, "line break"))
		default:
			note(first, "CRLF line endings and carriage returns become LF (%s)", plural.Count(crlf+lone, "line break"))
		}
	}

	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	// starts holds the index of every line that opens a section: a heading outside a code fence that is the first
	// non-blank line of the file or follows a blank line. A heading right under a line of text stays in the section
	// above it: the block that would hold it could not be rendered without the blank line promptc puts there.
	var starts []int
	var fence string
	prevBlank := true
	for i, l := range lines {
		l = strings.TrimSuffix(l, "\n")
		if fence != "" {
			if closesFence(l, fence) {
				fence = ""
			}
			prevBlank = false
			continue
		}
		if f := opensFence(l); f != "" {
			fence = f
		} else if _, _, ok := atxHeading(l); ok && prevBlank {
			starts = append(starts, i)
		}
		prevBlank = isBlank(l)
	}

	// Cut the file into raw pieces: what precedes the first section start (if anything but blank lines), then
	// each section.
	type piece struct {
		from, to int // line indexes, to exclusive
		heading  bool
	}
	var pieces []piece
	if len(starts) == 0 || starts[0] > 0 {
		end := len(lines)
		if len(starts) > 0 {
			end = starts[0]
		}
		pieces = append(pieces, piece{0, end, false})
	}
	for k, s := range starts {
		end := len(lines)
		if k+1 < len(starts) {
			end = starts[k+1]
		}
		pieces = append(pieces, piece{s, end, true})
	}

	// Each piece's block text is its text without leading newlines and trailing white space (what promptc's trim
	// leaves); the gaps between block texts become "\n\n", and the end "\n".
	var b strings.Builder
	wrote := false
	gapStart := 0 // line index where the pending gap starts
	gapText := "" // the input bytes of the pending gap
	for _, p := range pieces {
		raw := strings.Join(lines[p.from:p.to], "")
		lead := len(raw) - len(strings.TrimLeft(raw, "\n"))
		body := strings.TrimRight(raw[lead:], " \t\n")
		gapText += raw[:lead]
		if body == "" {
			gapText += raw[lead:]
			continue
		}
		startLine := p.from + strings.Count(raw[:lead], "\n") // index of the body's first line
		if wrote {
			describeGap(note, gapStart, gapText, "\n\n", false)
			b.WriteString("\n\n")
		} else {
			describeGap(note, gapStart, gapText, "", false)
		}
		b.WriteString(body)
		d.sections = append(d.sections, makeSection(body, startLine+1, p.heading))
		wrote = true
		gapStart = startLine + strings.Count(body, "\n") // the body's last line
		gapText = raw[lead+len(body):]
	}
	if wrote {
		b.WriteString("\n")
		describeGap(note, gapStart, gapText, "\n", true)
	} else if text != "" {
		note(1, "the file holds only white space: its runbook is empty")
	}
	d.want = b.String()
	return d, nil
}

// describeGap notes how the input bytes between two blocks (or at the start or end of the file) differ from what
// promptc writes there. line is the 0-based index of the line where the gap starts.
func describeGap(note func(int, string, ...any), line int, got, want string, atEnd bool) {
	if got == want {
		return
	}
	atStart := want == ""
	// White space at the end of the line the gap starts on, or on its blank lines.
	parts := strings.Split(got, "\n")
	if strings.TrimLeft(parts[0], " \t") == "" && parts[0] != "" && !atStart {
		note(line+1, "trailing white space at the end of a section removed")
	}
	for k := 1; k < len(parts); k++ {
		if parts[k] != "" {
			note(line+k+1, "white space on a blank line removed")
		}
	}
	if atStart && parts[0] != "" {
		note(line+1, "white space on a blank line removed")
	}
	newlines := strings.Count(got, "\n")
	switch {
	case atStart && newlines > 0:
		note(1, "%s at the start of the file removed", plural.Count(newlines, "blank line"))
	case atEnd && newlines == 0:
		note(line+1, "final newline added")
	case atEnd && newlines > 1:
		note(line+2, "%s at the end of the file removed", plural.Count(newlines-1, "blank line"))
	case !atStart && !atEnd && newlines != 2:
		note(line+2, "%s between sections become one", plural.Count(newlines-1, "blank line"))
	}
}

func isBlank(l string) bool { return strings.Trim(l, " \t\n") == "" }

// atxHeading reports whether line is an ATX heading (CommonMark: up to three spaces, one to six '#', then a space,
// a tab or the end of the line) and returns its level and text as a reader sees it.
func atxHeading(line string) (level int, text string, ok bool) {
	l := strings.TrimLeft(line, " ")
	if len(line)-len(l) > 3 {
		return 0, "", false
	}
	n := len(l) - len(strings.TrimLeft(l, "#"))
	if n < 1 || n > 6 {
		return 0, "", false
	}
	rest := l[n:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return 0, "", false
	}
	text = strings.Trim(rest, " \t")
	// A closing sequence of '#' preceded by a space is not part of the text.
	if t := strings.TrimRight(text, "#"); t != text && (t == "" || strings.HasSuffix(t, " ") || strings.HasSuffix(t, "\t")) {
		text = strings.TrimRight(t, " \t")
	}
	return n, text, true
}

// opensFence returns the fence a line opens (its run of backticks or tildes), or "".
func opensFence(line string) string {
	l := strings.TrimLeft(line, " ")
	if len(line)-len(l) > 3 || len(l) < 3 || l[0] != '`' && l[0] != '~' {
		return ""
	}
	n := len(l) - len(strings.TrimLeft(l, l[:1]))
	if n < 3 {
		return ""
	}
	if l[0] == '`' && strings.Contains(l[n:], "`") {
		return "" // a backtick fence's info string holds no backtick
	}
	return l[:n]
}

// closesFence reports whether line closes fence: the same character, at least as many, nothing after but blanks.
func closesFence(line, fence string) bool {
	l := strings.TrimLeft(line, " ")
	if len(line)-len(l) > 3 {
		return false
	}
	n := len(l) - len(strings.TrimLeft(l, fence[:1]))
	return n >= len(fence) && strings.Trim(l[n:], " \t") == ""
}

// makeSection decides how a block renders text: as title and level with the rest as body when that reproduces the
// bytes, otherwise as a body holding the heading line too. heading says whether text starts with a heading.
func makeSection(text string, line int, heading bool) section {
	s := section{text: text, line: line}
	if !heading {
		return s
	}
	first, rest, _ := strings.Cut(text, "\n")
	level, name, _ := atxHeading(first)
	s.name = name
	prefix := strings.Repeat("#", level) + " "
	title, plain := strings.CutPrefix(first, prefix)
	switch {
	case rest == "":
		s.inBody = "the heading has no text under it, and a block with an empty body is left out"
	case !strings.HasPrefix(rest, "\n") || strings.HasPrefix(rest, "\n\n"):
		s.inBody = "the heading is not followed by exactly one blank line"
	case !plain || title == "" || title != name:
		s.inBody = "the heading line is not \"#\"×level, one space and the title"
	default:
		s.title, s.level = title, level
	}
	return s
}
