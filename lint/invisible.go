package lint

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/promptc/promptc/source"
)

var cfNames = map[rune]string{
	0x00AD: "SOFT HYPHEN",
	0x061C: "ARABIC LETTER MARK",
	0x180E: "MONGOLIAN VOWEL SEPARATOR",
	0x200B: "ZERO WIDTH SPACE",
	0x200C: "ZERO WIDTH NON-JOINER",
	0x200D: "ZERO WIDTH JOINER",
	0x200E: "LEFT-TO-RIGHT MARK",
	0x200F: "RIGHT-TO-LEFT MARK",
	0x202A: "LEFT-TO-RIGHT EMBEDDING",
	0x202B: "RIGHT-TO-LEFT EMBEDDING",
	0x202C: "POP DIRECTIONAL FORMATTING",
	0x202D: "LEFT-TO-RIGHT OVERRIDE",
	0x202E: "RIGHT-TO-LEFT OVERRIDE",
	0x2060: "WORD JOINER",
	0x2061: "FUNCTION APPLICATION",
	0x2062: "INVISIBLE TIMES",
	0x2063: "INVISIBLE SEPARATOR",
	0x2064: "INVISIBLE PLUS",
	0x2066: "LEFT-TO-RIGHT ISOLATE",
	0x2067: "RIGHT-TO-LEFT ISOLATE",
	0x2068: "FIRST STRONG ISOLATE",
	0x2069: "POP DIRECTIONAL ISOLATE",
	0xFEFF: "ZERO WIDTH NO-BREAK SPACE",
}

func cfName(r rune) string {
	if n, ok := cfNames[r]; ok {
		return n
	}
	if r >= 0xE0000 && r <= 0xE007F {
		return "TAG CHARACTER"
	}
	return "FORMAT CHARACTER"
}

func bidiControl(r rune) bool {
	return r == 0x061C || r >= 0x200E && r <= 0x200F || r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069
}

// invisibleChars reports Unicode format characters (category Cf: zero-width characters, bidi controls, tag
// characters) in every source file, and those written as escapes in block bodies and constants, since they reach
// the model while a reviewer sees nothing. A run of them is one finding.
func (l *linter) invisibleChars() {
	l.ran[InvisibleChar] = true
	seen := map[source.Range]bool{}
	// A character written as itself in a body is found both in the file and in the decoded body: report it once.
	report := func(at source.Range, subject string, run []rune, escaped bool) {
		key := at
		key.End = key.Start
		if seen[key] {
			return
		}
		seen[key] = true
		codes := make([]string, 0, len(run))
		bidi := false
		for i, r := range run {
			if i == 4 {
				codes = append(codes, fmt.Sprintf("and %d more", len(run)-4))
				break
			}
			codes = append(codes, fmt.Sprintf("U+%04X %s", r, cfName(r)))
		}
		for _, r := range run {
			bidi = bidi || bidiControl(r)
		}
		what := "invisible character"
		if len(run) > 1 {
			what = fmt.Sprintf("%d invisible characters", len(run))
		}
		how := ""
		if escaped {
			how = " (written as an escape)"
		}
		why := "it is invisible in review but reaches the model"
		if bidi {
			why = "bidi controls make text display in a different order than the model reads it"
		}
		l.add(InvisibleChar, at, subject,
			"delete it; if it is deliberate (an emoji sequence, a script that needs joiners), silence it with [[lint.allow]] and say why",
			"%s %s%s: %s", what, strings.Join(codes, ", "), how, why)
	}
	for _, file := range lintKeys(l.p.Files) {
		if strings.HasPrefix(file, "fixtures/") {
			// Fixtures hold sample values, hostile ones on purpose: escaping removes format characters from
			// untrusted and background values, and that is what a fixture with them tests.
			continue
		}
		f := l.p.Files[file]
		formatRuns(f.Text, func(start, end int, run []rune) {
			report(f.Range(start, end), l.ownerAt(file, start), run, false)
		})
	}
	// Escapes such as \u200B are visible in the source but not in the output: find them in the decoded text.
	scan := func(text string, at func(int, int) source.Range, subject string) {
		formatRuns(text, func(start, end int, run []rune) { report(at(start, end), subject, run, true) })
	}
	for _, bd := range l.bodies {
		scan(bd.b.Body, bd.b.SourceRange, bd.b.ID)
	}
	for _, c := range l.consts {
		scan(c.Value, c.SourceRange, c.Name)
	}
}

// ownerAt names the block body or constant value that holds byte off of file, or "": the first block in project
// order, then the first constant by name. It costs a binary search in an index of the file's bodies and values
// built on first use, so that a file of thousands of findings is not one scan of every block per finding.
func (l *linter) ownerAt(file string, off int) string {
	if l.owners == nil {
		l.owners = l.ownerIndex()
	}
	spans, ok := l.owners[file]
	if !ok {
		return ""
	}
	if spans == nil { // overlapping ranges (one template file for several blocks): scan in order
		for _, o := range l.ownersInOrder() {
			if o.file == file && o.start <= off && off < o.end {
				return o.name
			}
		}
		return ""
	}
	k, _ := slices.BinarySearchFunc(spans, off, func(o owner, off int) int { return cmp.Compare(o.start, off+1) })
	if k > 0 && off < spans[k-1].end {
		return spans[k-1].name
	}
	return ""
}

// owner is a block body or constant value's bytes [start, end) in file.
type owner struct {
	file       string
	start, end int
	name       string
}

func (l *linter) ownersInOrder() []owner {
	var out []owner
	for _, bd := range l.bodies {
		r := bd.b.BodyRange
		out = append(out, owner{r.Filename, r.Start.Byte, r.End.Byte, bd.b.ID})
	}
	for _, c := range l.consts {
		r := c.ValueRange
		out = append(out, owner{r.Filename, r.Start.Byte, r.End.Byte, c.Name})
	}
	return out
}

// ownerIndex returns, by file, its owners sorted by start; nil for a file where two of them overlap, which ownerAt
// then scans in order.
func (l *linter) ownerIndex() map[string][]owner {
	idx := map[string][]owner{}
	for _, o := range l.ownersInOrder() {
		if o.start < o.end {
			idx[o.file] = append(idx[o.file], o)
		}
	}
	for file, spans := range idx {
		slices.SortStableFunc(spans, func(a, b owner) int { return cmp.Compare(a.start, b.start) })
		for k := 1; k < len(spans); k++ {
			if spans[k].start < spans[k-1].end {
				idx[file] = nil
				break
			}
		}
	}
	return idx
}
