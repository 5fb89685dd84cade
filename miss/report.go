package miss

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/promptc/promptc/internal/plural"
)

// Write prints r for a person, with src (nil: no project source found): whether B extends A and, when it does
// not, where it leaves A's prefix, the breakpoint it fell behind, the tokens re-billed and the source behind the
// byte. docs/usage.md shows an example.
func (r *Result) Write(w io.Writer, src *Source) error {
	var b strings.Builder
	a := r.A
	if r.Extends {
		fmt.Fprintf(&b, "B extends A: A's %s (%s, %s) %s B's first, byte for byte.\n",
			plural.Count(len(a.Parts), "part"), plural.Count(r.Byte, "byte"), plural.Count(r.Tokens, "token"), plural.Noun(len(a.Parts), "is", "are"))
		if r.Cached > 0 {
			fmt.Fprintf(&b, "B can read A's cache up to %s: %s.\n", r.entryName(r.Before), plural.Count(r.Cached, "token"))
		} else {
			fmt.Fprintf(&b, "A wrote no cache entry (its prefixes stay under the minimum of %s).\n", plural.Count(r.Rules.MinCacheTokens, "token"))
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	switch r.Why {
	case "provider":
		fmt.Fprintf(&b, "B breaks A's prefix at byte 0: A is for %s and B for %s; caches are per provider.\n", a.Provider, r.B.Provider)
	case "model":
		fmt.Fprintf(&b, "B breaks A's prefix at byte 0: A is for model %s and B for %s; caches are per model.\n", quoteModel(a.Model), quoteModel(r.B.Model))
	default:
		p := a.Parts[r.Part]
		fmt.Fprintf(&b, "B breaks A's prefix at %s, byte %s of it (byte %s of the cached order, %s in)",
			p.Label, plural.Thousands(r.Offset), plural.Thousands(r.Byte), plural.Count(r.Tokens, "token"))
		if src != nil {
			fmt.Fprintf(&b, "; runbook line %d, column %d", src.Line, src.Column)
		}
		b.WriteString(":\n")
		switch r.Why {
		case "end":
			b.WriteString("  B ends there: it has fewer parts than A.\n")
		case "kind":
			fmt.Fprintf(&b, "  A has a %s part there, B a %s part.\n", p.Kind, r.B.Parts[r.Part].Kind)
		case "head":
			fmt.Fprintf(&b, "  A's message opens as %s, B's as %s.\n", strconv.Quote(p.Head), strconv.Quote(r.B.Parts[r.Part].Head))
		default:
			fmt.Fprintf(&b, "  A: %s\n  B: %s\n", excerpt(p.Text, r.Offset), excerpt(r.B.Parts[r.Part].Text, r.Offset))
		}
	}
	switch {
	case r.Cached == 0:
		fmt.Fprintf(&b, "A wrote no cache entry (its prefixes stay under the minimum of %s): nothing is re-billed.\n", plural.Count(r.Rules.MinCacheTokens, "token"))
	case r.Behind < 0:
		fmt.Fprintf(&b, "That is after A's last cache breakpoint: B still reads %s; nothing is re-billed.\n", plural.Count(r.Reused, "token"))
	default:
		fmt.Fprintf(&b, "It falls behind %s: of the %s A cached, B reads ", r.entryName(r.Behind), plural.Count(r.Cached, "token"))
		if r.Reused > 0 {
			b.WriteString(plural.Thousands(r.Reused))
			if r.Rules.Explicit {
				fmt.Fprintf(&b, " (up to the breakpoint after %s)", a.Parts[r.Before].Label)
			}
		} else {
			b.WriteString("none")
		}
		fmt.Fprintf(&b, " and pays for %s again.\n", plural.Count(r.Rebilled, "token"))
	}
	if src != nil {
		b.WriteString("Behind that byte: ")
		if src.Origin != nil {
			fmt.Fprintf(&b, "%s, ", src.Origin)
		}
		if src.Block != nil {
			fmt.Fprintf(&b, "block %s (%s), %s scope", src.Block.ID, src.Block.Range, src.Scope)
		}
		how := "as the project renders it now"
		if !src.Exact {
			how = "which the project renders alike up to that byte"
		}
		fmt.Fprintf(&b, "; %s's runbook, task %s, fixture %s, %s.\n", src.Side, src.Task, src.Fixture, how)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// entryName names the cache entry that ends at part i of A.
func (r *Result) entryName(i int) string {
	if !r.Rules.Explicit {
		return "its automatic cache entry (A's whole prompt)"
	}
	return "the breakpoint after " + r.A.Parts[i].Label
}

func quoteModel(m string) string {
	if m == "" {
		return "(none named)"
	}
	return strconv.Quote(m)
}

// excerpt quotes up to 30 bytes of text on each side of off, on whole runes.
func excerpt(text string, off int) string {
	start, end := max(off-30, 0), min(off+30, len(text))
	for start > 0 && !utf8.RuneStart(text[start]) {
		start--
	}
	for end < len(text) && !utf8.RuneStart(text[end]) {
		end++
	}
	s := strconv.Quote(text[start:end])
	if start > 0 {
		s = "…" + s
	}
	if end < len(text) {
		s += "…"
	}
	return s
}
