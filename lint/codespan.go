package lint

import (
	"bytes"
	"strconv"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/templates"
)

// untrustedInCodeSpans reports an untrusted variable printed inside a Markdown code span of a block's text
// (docs/lint.md#untrusted-in-code-span-warning). Escaping puts a backslash before each Markdown character of an untrusted
// value, and inside backticks Markdown shows backslashes as they are: `client/retry\_test.go`.
func (l *linter) untrustedInCodeSpans() {
	l.ran[UntrustedInCodeSpan] = true
	type printed struct {
		off, end   int
		what, decl string // how the message names the value; the table that declares it
	}
	for _, bd := range l.bodies {
		var uses []printed
		for _, u := range bd.uses.Vars {
			if v, ok := l.p.Vars[u.Name]; ok && u.Kind == templates.UsePrinted && v.Trust == blocks.Untrusted {
				uses = append(uses, printed{u.Off, u.End, "untrusted variable " + quote(u.Name), "[vars." + u.Name + "]"})
			}
		}
		for _, u := range bd.uses.Fields {
			v, ok := l.p.Vars[u.Var]
			if !ok || u.Kind != templates.UsePrinted {
				continue
			}
			for _, fd := range v.Fields {
				if fd.Name == u.Name && fd.Trust == blocks.Untrusted {
					uses = append(uses, printed{u.Off, u.End, "untrusted field " + quote(u.Name) + " of " + quote(u.Var), "field " + quote(u.Name) + " of [vars." + u.Var + "]"})
				}
			}
		}
		if len(uses) == 0 {
			continue
		}
		// The body with every action's bytes made 'x': the literal text a reader sees around the values.
		mask := bytes.Repeat([]byte{'x'}, len(bd.b.Body))
		for _, seg := range bd.lits {
			copy(mask[seg.off:], seg.text)
		}
		for _, u := range uses {
			start := bytes.LastIndexByte(mask[:u.off], '\n') + 1
			end := len(mask)
			if k := bytes.IndexByte(mask[u.off:], '\n'); k >= 0 {
				end = u.off + k
			}
			if !inCodeSpan(mask[start:end], u.off-start) {
				continue
			}
			l.add(UntrustedInCodeSpan, bd.b.SourceRange(u.off, u.end), bd.b.ID,
				"for a value such as a path or an identifier, give "+u.decl+" a pattern that admits only those and trust = \"trusted\"; "+
					"for longer text, trust = \"code\" prints it as a fenced block (its action alone on a line); or print it outside the backticks",
				"block %q prints %s inside a code span: escaping puts a backslash before each Markdown character of the value, and between backticks the backslashes show (`retry\\_test.go`)",
				bd.b.ID, u.what)
		}
	}
}

func quote(s string) string { return strconv.Quote(s) }

// inCodeSpan reports whether byte at of a line of Markdown is inside a code span: after a run of backticks and
// before the next run of as many (CommonMark 6.1). A backtick after a backslash opens nothing; a run that no run of
// its length closes is literal text.
func inCodeSpan(line []byte, at int) bool {
	for i := 0; i < len(line); {
		if line[i] != '`' {
			if line[i] == '\\' {
				i++ // the next byte is escaped (or it is the end of the line)
			}
			i++
			continue
		}
		n := 1
		for i+n < len(line) && line[i+n] == '`' {
			n++
		}
		closeAt := -1
		for j := i + n; j < len(line); {
			if line[j] != '`' {
				j++
				continue
			}
			m := 1
			for j+m < len(line) && line[j+m] == '`' {
				m++
			}
			if m == n {
				closeAt = j
				break
			}
			j += m
		}
		if closeAt < 0 {
			i += n
			continue
		}
		if at >= i+n && at < closeAt {
			return true
		}
		i = closeAt + n
	}
	return false
}
