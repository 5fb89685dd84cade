package tokens

import (
	"unicode"
	"unicode/utf8"
)

// The patterns that split a text into pieces before byte-pair merging, as OpenAI's tiktoken defines them for each
// encoding. split below runs them: the strings are kept as the definition the tests hold it to.
const (
	o200kSplit  = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	cl100kSplit = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
)

// split is an encoding's split pattern, run by hand: next returns where the piece that starts at i ends, as a
// backtracking matcher of the pattern (tiktoken's, fancy-regex) would end it, in time linear in the text.
//
// A regular expression engine was used before, with the matcher that github.com/tiktoken-go/tokenizer compiles for
// these patterns: that matcher backtracks `\s*[\r\n]+` to the first newline of a run of white space instead of the
// last, so it split " \n \n" into two pieces where tiktoken sees one (twice the tokens of a diff's blank context
// lines), and it scanned the rest of the run for every piece, quadratic in the run (a 128 KiB run took 24 s). The
// alternatives are taken in the pattern's order, and each greedy loop gives back characters from its end, exactly
// as a backtracking engine tries them; the tests compare every piece with an interpreting engine's on fuzzed texts
// and every count with tiktoken's.
type split uint8

const (
	splitO200k split = iota
	splitCl100k
)

// Character classes of the patterns, as bits.
const (
	cLetter  = 1 << iota // \p{L}
	cNumber              // \p{N}
	cSpace               // \s: Unicode White_Space, as unicode.IsSpace and tiktoken's engine read it
	cNewline             // \r or \n
	cUpper               // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	cLower               // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	cPrefix              // [^\r\n\p{L}\p{N}]
	cOther               // [^\s\p{L}\p{N}]
)

var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for r := range rune(utf8.RuneSelf) {
		t[r] = runeClass(r)
	}
	return t
}()

func runeClass(r rune) uint8 {
	var c uint8
	switch {
	case unicode.IsLetter(r):
		c |= cLetter
		if unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo) {
			c |= cUpper
		}
		if unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo) {
			c |= cLower
		}
	case unicode.IsNumber(r):
		c |= cNumber
	case unicode.IsSpace(r):
		c |= cSpace
	}
	if unicode.Is(unicode.M, r) {
		c |= cUpper | cLower
	}
	if r == '\r' || r == '\n' {
		c |= cNewline
	}
	if c&(cNewline|cLetter|cNumber) == 0 {
		c |= cPrefix
	}
	if c&(cSpace|cLetter|cNumber) == 0 {
		c |= cOther
	}
	return c
}

// class returns the classes of the character at i (none past the end) and its width in bytes.
func class(s string, i int) (uint8, int) {
	if i >= len(s) {
		return 0, 0
	}
	if b := s[i]; b < utf8.RuneSelf {
		return asciiClass[b], 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	return runeClass(r), n
}

// run returns the end of the run of characters of class c that starts at i.
func run(s string, i int, c uint8) int {
	for {
		k, n := class(s, i)
		if k&c == 0 {
			return i
		}
		i += n
	}
}

// pieces calls f with each piece of text, in order; the pieces are text, cut.
func (sp split) pieces(text string, f func(piece string)) {
	for i := 0; i < len(text); {
		j := sp.next(text, i)
		f(text[i:j])
		i = j
	}
}

// next returns the end of the piece that starts at i < len(s): always past i, since every character is in some
// alternative's first class.
func (sp split) next(s string, i int) int {
	c, n := class(s, i)
	if sp == splitCl100k {
		// (?i:'s|'t|'re|'ve|'m|'ll|'d)
		if j := contraction(s, i); j > i {
			return j
		}
		// [^\r\n\p{L}\p{N}]?\p{L}+
		if k, _ := class(s, i+n); c&cPrefix != 0 && k&cLetter != 0 {
			return run(s, i+n, cLetter)
		}
		if c&cLetter != 0 {
			return run(s, i, cLetter)
		}
	} else {
		// [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:…)?
		if c&cPrefix != 0 {
			if j := upperLower(s, i+n); j >= 0 {
				return j
			}
		}
		if j := upperLower(s, i); j >= 0 {
			return j
		}
		// [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:…)?
		if k, _ := class(s, i+n); c&cPrefix != 0 && k&cUpper != 0 {
			return contractionAfter(s, run(s, run(s, i+n, cUpper), cLower))
		}
		if c&cUpper != 0 {
			return contractionAfter(s, run(s, run(s, i, cUpper), cLower))
		}
	}
	// \p{N}{1,3}
	if c&cNumber != 0 {
		j := i + n
		for range 2 {
			k, m := class(s, j)
			if k&cNumber == 0 {
				break
			}
			j += m
		}
		return j
	}
	// ` ?[^\s\p{L}\p{N}]+[\r\n/]*` (o200k), ` ?[^\s\p{L}\p{N}]+[\r\n]*` (cl100k)
	j := i
	if s[i] == ' ' {
		j++
	}
	if k, _ := class(s, j); k&cOther != 0 {
		j = run(s, j, cOther)
		for j < len(s) && (s[j] == '\r' || s[j] == '\n' || s[j] == '/' && sp == splitO200k) {
			j++
		}
		return j
	}
	// Here the character at i is white space (every other class was taken above). `\s*[\r\n]+` ends after the last
	// newline of the run of white space, since \s* gives back characters from the run's end until one is a newline;
	// `\s+(?!\S)` ends at the run's end if the text does, else before the run's last character; `\s+` at the run's
	// end.
	end, last, lastNewline := i, i, -1
	for {
		k, m := class(s, end)
		if k&cSpace == 0 {
			break
		}
		if k&cNewline != 0 {
			lastNewline = end
		}
		last, end = end, end+m
	}
	switch {
	case lastNewline >= 0:
		return lastNewline + 1
	case end == len(s) || last == i:
		return end
	default:
		return last
	}
}

// upperLower matches `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:…)?` at i, or returns -1. The
// first loop takes the whole run, then gives back characters from its end until the second loop can start: at the
// last position, of the run's characters and the one after it, whose character is of the second class.
func upperLower(s string, i int) int {
	at := -1
	for j := i; ; {
		k, n := class(s, j)
		if k&cLower != 0 {
			at = j
		}
		if k&cUpper == 0 {
			break
		}
		j += n
	}
	if at < 0 {
		return -1
	}
	return contractionAfter(s, run(s, at, cLower))
}

// contractionAfter returns the end of an optional contraction at i: i when there is none.
func contractionAfter(s string, i int) int {
	if j := contraction(s, i); j > i {
		return j
	}
	return i
}

// contraction matches (?i:'s|'t|'re|'ve|'m|'ll|'d) at i and returns its end, or i. Case folds as Unicode's simple
// folding does, as tiktoken's engine does: ſ (U+017F, long s) is an s.
func contraction(s string, i int) int {
	if i+1 >= len(s) || s[i] != '\'' {
		return i
	}
	switch s[i+1] {
	case 's', 'S', 't', 'T', 'm', 'M', 'd', 'D':
		return i + 2
	case 'r', 'R', 'v', 'V':
		if i+2 < len(s) && s[i+2]|0x20 == 'e' {
			return i + 3
		}
	case 'l', 'L':
		if i+2 < len(s) && s[i+2]|0x20 == 'l' {
			return i + 3
		}
	case 0xC5: // ſ is C5 BF
		if i+2 < len(s) && s[i+2] == 0xBF {
			return i + 3
		}
	}
	return i
}
