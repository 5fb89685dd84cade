package templates

import "strings"

// The markdown escaper must know what a CommonMark reader makes of a value's lines: which are headings, which a
// setext underline would turn into one, which code fence would run past the value's end, and which containers
// (block quotes, list items) are still open when it ends (docs/values.md, markdown). Judging by the look of a line
// is not enough: a heading after a list item whose fence the item's end closed is a top-level heading, and a
// fence inside a list item is closed by a line in that item. HTML blocks are not read here: the escaper puts a
// backslash before every < that could open one before scanning, since parsers differ on which lines do. scanMarkdown therefore runs the block phase of CommonMark's
// own parsing strategy (the spec's appendix "A parsing strategy", as commonmark.js implements it): open blocks
// are matched line by line, then new block starts are tried in the spec's order, then a line is added to the
// innermost block or continues a paragraph lazily. Inline structure is never needed: nothing inline can open a
// block. The tests hold it to a real CommonMark parser (goldmark) on generated and fuzzed values.

type mdKind uint8

const (
	mdDocument mdKind = iota
	mdQuote
	mdList
	mdItem
	mdParagraph
	mdHeading
	mdThematic
	mdFenced
	mdIndented
)

// mdBlock is an open or closed block of the scan's tree; only the chain of open ones is kept alive.
type mdBlock struct {
	kind   mdKind
	parent *mdBlock
	last   *mdBlock // the last child, nil for none yet
	open   bool

	// A list or list item: its kind of marker, and for an item the columns its content is indented by.
	ordered      bool
	marker       byte // '-', '+' or '*' for a bullet list; '.' or ')' for an ordered one
	markerOffset int
	padding      int

	// A fenced code block.
	fenceChar   byte
	fenceLen    int
	fenceOffset int
}

// mdHeadingAt is an ATX heading of a scanned value: the byte offset of its run of # and the run's length.
type mdHeadingAt struct{ at, level int }

// mdScan is what escaping a markdown value needs from the scan.
type mdScan struct {
	headings []mdHeadingAt
	// skip lists the lines (by index) a setext underline would have turned the paragraph above into a heading
	// with: the scan read on as if they were not there, and the escaper removes them.
	skip []int
	// fence is set when a fenced code block is open at the value's end; closeFence is the line that closes it,
	// prefixed so that it lies in the containers the fence is in.
	fence      bool
	closeFence string
	// open is set when a container or a block other than a top-level paragraph is still open at the value's end
	// (its fence closed by closeFence): text right below the value would continue it.
	open bool
}

// mdScanner holds the scan's state, named as commonmark.js names it.
type mdScanner struct {
	doc, tip, oldTip, lastMatched *mdBlock
	allClosed                     bool

	line      string
	lineIndex int
	lineStart int // the line's byte offset in the value

	offset, column     int
	nextNonspace       int
	nextNonspaceColumn int
	indent             int
	indented, blank    bool
	partialTab         bool

	out mdScan
}

// scanMarkdown scans s, a value with LF line endings.
func scanMarkdown(s string) mdScan {
	sc := &mdScanner{}
	sc.doc = &mdBlock{kind: mdDocument, open: true}
	sc.tip = sc.doc
	start, i := 0, 0
	for {
		end := strings.IndexByte(s[start:], '\n')
		line := s[start:]
		if end >= 0 {
			line = s[start : start+end]
		}
		sc.incorporate(line, i, start)
		if end < 0 {
			break
		}
		start += end + 1
		i++
	}
	sc.finish()
	return sc.out
}

// incorporate scans one line (commonmark.js: Parser.incorporateLine).
func (sc *mdScanner) incorporate(ln string, index, start int) {
	sc.line, sc.lineIndex, sc.lineStart = ln, index, start
	sc.offset, sc.column, sc.blank, sc.partialTab = 0, 0, false, false
	sc.oldTip = sc.tip
	container := sc.doc

	// 1. Match the open blocks, outermost first.
match:
	for container.last != nil && container.last.open {
		container = container.last
		sc.findNextNonspace()
		switch sc.continues(container) {
		case 1:
			container = container.parent
			break match
		case 2:
			return // a closing fence: the line is used up
		}
	}
	sc.allClosed = container == sc.oldTip
	sc.lastMatched = container

	// 2. New block starts, until a leaf block takes the line.
	matchedLeaf := container.kind != mdParagraph && acceptsLines(container.kind)
	for !matchedLeaf {
		sc.findNextNonspace()
		if !sc.indented && !maybeSpecial(ln, sc.nextNonspace) {
			sc.advanceNextNonspace()
			break
		}
		res := sc.start(container)
		if res < 0 {
			return // a setext underline, read as if it were not there
		}
		if res == 0 {
			sc.advanceNextNonspace()
			break
		}
		container = sc.tip
		if res == 2 {
			matchedLeaf = true
		}
	}

	// 3. The rest of the line: a lazy paragraph continuation, or a line of the innermost block.
	if !sc.allClosed && !sc.blank && sc.tip.kind == mdParagraph {
		return
	}
	sc.closeUnmatched()
	if !acceptsLines(container.kind) && sc.offset < len(ln) && !sc.blank {
		sc.addChild(mdParagraph)
		sc.advanceNextNonspace()
	}
}

// continues matches an open block against the line: 0 it goes on, 1 it does not, 2 the line closed it (a fence).
func (sc *mdScanner) continues(b *mdBlock) int {
	ln := sc.line
	switch b.kind {
	case mdList:
		return 0
	case mdQuote:
		if sc.indented || peek(ln, sc.nextNonspace) != '>' {
			return 1
		}
		sc.advanceNextNonspace()
		sc.advanceOffset(1, false)
		if isSpaceOrTab(peek(ln, sc.offset)) {
			sc.advanceOffset(1, true)
		}
		return 0
	case mdItem:
		switch {
		case sc.blank:
			if b.last == nil {
				return 1 // a blank line after an item that began empty ends it
			}
			sc.advanceNextNonspace()
		case sc.indent >= b.markerOffset+b.padding:
			sc.advanceOffset(b.markerOffset+b.padding, true)
		default:
			return 1
		}
		return 0
	case mdHeading, mdThematic:
		return 1
	case mdFenced:
		if n := closingFence(ln[sc.nextNonspace:], b.fenceChar); sc.indent <= 3 && n >= b.fenceLen {
			sc.finalize(b)
			return 2
		}
		for i := b.fenceOffset; i > 0 && isSpaceOrTab(peek(ln, sc.offset)); i-- {
			sc.advanceOffset(1, true)
		}
		return 0
	case mdIndented:
		switch {
		case sc.indent >= 4:
			sc.advanceOffset(4, true)
		case sc.blank:
			sc.advanceNextNonspace()
		default:
			return 1
		}
		return 0
	case mdParagraph:
		if sc.blank {
			return 1
		}
		return 0
	}
	return 0
}

// start tries the block starts in the spec's order: 0 none, 1 a container, 2 a leaf, -1 a setext underline (the
// line is skipped).
func (sc *mdScanner) start(container *mdBlock) int {
	ln := sc.line
	rest := ln[sc.nextNonspace:]
	if !sc.indented {
		switch {
		case rest[0] == '>': // a block quote
			sc.advanceNextNonspace()
			sc.advanceOffset(1, false)
			if isSpaceOrTab(peek(ln, sc.offset)) {
				sc.advanceOffset(1, true)
			}
			sc.closeUnmatched()
			sc.addChild(mdQuote)
			return 1
		case atxRun(rest) > 0:
			n := atxRun(rest)
			sc.closeUnmatched()
			sc.addChild(mdHeading)
			sc.out.headings = append(sc.out.headings, mdHeadingAt{at: sc.lineStart + sc.nextNonspace, level: n})
			sc.offset = len(ln)
			return 2
		}
		if c, n := openingFence(rest); n > 0 {
			sc.closeUnmatched()
			b := sc.addChild(mdFenced)
			b.fenceChar, b.fenceLen, b.fenceOffset = c, n, sc.indent
			sc.advanceNextNonspace()
			sc.advanceOffset(n, false)
			return 2
		}
		if container.kind == mdParagraph && setextLine(rest) {
			sc.out.skip = append(sc.out.skip, sc.lineIndex)
			return -1
		}
		if thematicBreak(rest) {
			sc.closeUnmatched()
			sc.addChild(mdThematic)
			sc.offset = len(ln)
			return 2
		}
	}
	if !sc.indented || container.kind == mdList {
		if item, ok := sc.listMarker(container); ok {
			sc.closeUnmatched()
			if sc.tip.kind != mdList || sc.tip.ordered != item.ordered || sc.tip.marker != item.marker {
				list := sc.addChild(mdList)
				list.ordered, list.marker = item.ordered, item.marker
			}
			b := sc.addChild(mdItem)
			b.ordered, b.marker, b.markerOffset, b.padding = item.ordered, item.marker, item.markerOffset, item.padding
			return 1
		}
	}
	if sc.indented && sc.tip.kind != mdParagraph && !sc.blank {
		sc.advanceOffset(4, true)
		sc.closeUnmatched()
		sc.addChild(mdIndented)
		return 2
	}
	return 0
}

// listMarker reads a list item's marker at the next non-space (commonmark.js: parseListMarker).
func (sc *mdScanner) listMarker(container *mdBlock) (mdBlock, bool) {
	ln := sc.line
	if sc.indent >= 4 {
		return mdBlock{}, false
	}
	rest := ln[sc.nextNonspace:]
	item := mdBlock{markerOffset: sc.indent}
	n := 0
	switch c := rest[0]; {
	case c == '*' || c == '+' || c == '-':
		item.marker, n = c, 1
	default:
		for n < len(rest) && n < 10 && '0' <= rest[n] && rest[n] <= '9' {
			n++
		}
		if n == 0 || n > 9 || n >= len(rest) || rest[n] != '.' && rest[n] != ')' {
			return mdBlock{}, false
		}
		if container.kind == mdParagraph && rest[:n] != "1" && strings.TrimLeft(rest[:n], "0") != "1" {
			return mdBlock{}, false // only a list starting at 1 interrupts a paragraph
		}
		item.ordered, item.marker = true, rest[n]
		n++
	}
	if next := peek(ln, sc.nextNonspace+n); next != -1 && next != '\t' && next != ' ' {
		return mdBlock{}, false
	}
	if container.kind == mdParagraph && strings.Trim(ln[sc.nextNonspace+n:], " \t") == "" {
		return mdBlock{}, false // an empty item does not interrupt a paragraph
	}
	sc.advanceNextNonspace()
	sc.advanceOffset(n, true)
	startColumn, startOffset := sc.column, sc.offset
	for {
		sc.advanceOffset(1, true)
		if sc.column-startColumn >= 5 || !isSpaceOrTab(peek(ln, sc.offset)) {
			break
		}
	}
	blankItem := peek(ln, sc.offset) == -1
	spaces := sc.column - startColumn
	if spaces >= 5 || spaces < 1 || blankItem {
		item.padding = n + 1
		sc.column, sc.offset = startColumn, startOffset
		if isSpaceOrTab(peek(ln, sc.offset)) {
			sc.advanceOffset(1, true)
		}
	} else {
		item.padding = n + spaces
	}
	return item, true
}

func acceptsLines(k mdKind) bool {
	return k == mdParagraph || k == mdFenced || k == mdIndented
}

func canContain(parent, child mdKind) bool {
	switch parent {
	case mdDocument, mdQuote, mdItem:
		return child != mdItem
	case mdList:
		return child == mdItem
	}
	return false
}

func (sc *mdScanner) addChild(k mdKind) *mdBlock {
	for !canContain(sc.tip.kind, k) {
		sc.finalize(sc.tip)
	}
	b := &mdBlock{kind: k, parent: sc.tip, open: true}
	sc.tip.last = b
	sc.tip = b
	return b
}

func (sc *mdScanner) finalize(b *mdBlock) {
	b.open = false
	sc.tip = b.parent
}

func (sc *mdScanner) closeUnmatched() {
	if sc.allClosed {
		return
	}
	for sc.oldTip != sc.lastMatched {
		parent := sc.oldTip.parent
		sc.finalize(sc.oldTip)
		sc.oldTip = parent
	}
	sc.allClosed = true
}

func (sc *mdScanner) findNextNonspace() {
	ln := sc.line
	i, cols := sc.offset, sc.column
	for i < len(ln) {
		if ln[i] == ' ' {
			i++
			cols++
		} else if ln[i] == '\t' {
			i++
			cols += 4 - cols%4
		} else {
			break
		}
	}
	sc.blank = i == len(ln)
	sc.nextNonspace, sc.nextNonspaceColumn = i, cols
	sc.indent = cols - sc.column
	sc.indented = sc.indent >= 4
}

func (sc *mdScanner) advanceNextNonspace() {
	sc.offset, sc.column, sc.partialTab = sc.nextNonspace, sc.nextNonspaceColumn, false
}

// advanceOffset moves count bytes on, or with columns set count columns, a tab counting to the next tab stop.
func (sc *mdScanner) advanceOffset(count int, columns bool) {
	ln := sc.line
	for count > 0 && sc.offset < len(ln) {
		if ln[sc.offset] == '\t' {
			toTab := 4 - sc.column%4
			if columns {
				sc.partialTab = toTab > count
				adv := min(toTab, count)
				sc.column += adv
				if !sc.partialTab {
					sc.offset++
				}
				count -= adv
			} else {
				sc.partialTab = false
				sc.column += toTab
				sc.offset++
				count--
			}
			continue
		}
		sc.partialTab = false
		sc.offset++
		sc.column++
		count--
	}
}

// finish records what is open at the value's end.
func (sc *mdScanner) finish() {
	var chain []*mdBlock
	for b := sc.doc.last; b != nil && b.open; b = b.last {
		chain = append(chain, b)
	}
	if len(chain) == 0 {
		return
	}
	leaf := chain[len(chain)-1]
	containers := false
	var prefix strings.Builder
	for _, b := range chain {
		switch b.kind {
		case mdQuote:
			containers = true
			prefix.WriteString("> ")
		case mdList:
			containers = true
		case mdItem:
			containers = true
			prefix.WriteString(strings.Repeat(" ", b.markerOffset+b.padding))
		}
	}
	if leaf.kind == mdFenced {
		sc.out.fence = true
		prefix.WriteString(strings.Repeat(string(leaf.fenceChar), leaf.fenceLen))
		sc.out.closeFence = prefix.String()
	}
	sc.out.open = containers || leaf.kind == mdIndented
}

func peek(s string, i int) int {
	if i < len(s) {
		return int(s[i])
	}
	return -1
}

func isSpaceOrTab(c int) bool { return c == ' ' || c == '\t' }

// maybeSpecial reports whether a block other than a paragraph may start at s[i].
func maybeSpecial(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	switch c := s[i]; c {
	case '#', '`', '~', '*', '+', '_', '=', '<', '>', '-':
		return true
	default:
		return '0' <= c && c <= '9'
	}
}

// atxRun returns the length of the run of # opening an ATX heading at the start of s, or 0.
func atxRun(s string) int {
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n < len(s) && s[n] != ' ' && s[n] != '\t' {
		return 0
	}
	return n
}

// openingFence reads a code fence opening at the start of s: the fence character and the run's length, 0 for
// none. A backtick fence's info string holds no backtick.
func openingFence(s string) (byte, int) {
	if s == "" || s[0] != '`' && s[0] != '~' {
		return 0, 0
	}
	c, n := s[0], 0
	for n < len(s) && s[n] == c {
		n++
	}
	if n < 3 || c == '`' && strings.IndexByte(s[n:], '`') >= 0 {
		return 0, 0
	}
	return c, n
}

// closingFence returns the length of a closing fence of character c at the start of s (only spaces and tabs
// after it), or 0.
func closingFence(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	if n < 3 || strings.Trim(s[n:], " \t") != "" {
		return 0
	}
	return n
}

// setextLine reports whether s is a setext heading underline: a run of = or of -, then only spaces and tabs.
func setextLine(s string) bool {
	if s == "" || s[0] != '=' && s[0] != '-' {
		return false
	}
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	return strings.Trim(s[n:], " \t") == ""
}

// thematicBreak reports whether s is a thematic break: three or more *, - or _ (one of them), with spaces and
// tabs between.
func thematicBreak(s string) bool {
	c, n := s[0], 0
	if c != '*' && c != '-' && c != '_' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case c:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}
