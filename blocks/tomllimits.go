package blocks

import (
	"fmt"

	"github.com/promptc/promptc/source"
)

// BurntSushi/toml v1.6.0 takes time and memory quadratic in how deeply values nest and in how many parts a key path
// has: 8,000 nested inline tables in a 32 KB file take 24 s and 3 GB, a 30,000-part dotted header 9 s and 1 GB. So
// every TOML input is pre-scanned, in one linear pass, and refused past these limits before the decoder sees it;
// within them, decoding takes time linear in the size of the input.

// Limits on what promptc reads. Each is far beyond what a prompt project or a values file needs.
const (
	// MaxSourceBytes is the size limit of one file: a source file of a project (the manifest, a file of blocks/ or
	// fixtures/, a template) or a values file.
	MaxSourceBytes = 8 << 20
	// MaxValueBytes is the size limit of one variable's value, in UTF-8 bytes: a string, or the strings of a list
	// or records value together. Values files are smaller than that; it bounds values given through the Go API.
	MaxValueBytes = 64 << 20
	// MaxNesting is how many arrays and inline tables (in JSON, arrays and objects) may enclose a value.
	MaxNesting = 64
	// MaxKeyParts is how many parts a TOML key path may have: those of the table header, of the dotted key and of
	// the keys of the inline tables around it, together.
	MaxKeyParts = 64
)

// CheckSourceSize reports a file of size bytes that is over MaxSourceBytes; what names the kind of file ("source
// file", "values file").
func CheckSourceSize(name string, size int, what string) *source.Diagnostic {
	if size <= MaxSourceBytes {
		return nil
	}
	return &source.Diagnostic{
		Summary: fmt.Sprintf("%s too large: promptc reads files of at most 8 MiB (%d bytes); split it, or move long text into several templates", what, MaxSourceBytes),
		Subject: source.FileRange(name).Ptr(),
	}
}

// checkTOMLLimits checks a TOML source against MaxSourceBytes, MaxNesting and MaxKeyParts before it is decoded, and
// reports the first limit it passes, where. It reads any text in one pass, valid TOML or not, without panicking: on
// input that is not TOML it may miss a limit, and then the decoder reports the syntax error anyway.
func checkTOMLLimits(f *source.File) *source.Diagnostic {
	if d := CheckSourceSize(f.Name, len(f.Text), "file"); d != nil {
		return d
	}
	ls := &limitScanner{f: f, s: tomlScanner{src: f.Text}}
	return ls.document()
}

// limitScanner follows the structure of a TOML document only as far as the limits need: where keys are, and which
// arrays and inline tables are open. Strings and comments are skipped whole, so that no bracket, dot or quote inside
// them counts. Every step consumes at least one byte.
type limitScanner struct {
	f *source.File
	s tomlScanner
}

// document scans the top level: table headers, key = value pairs and comments.
func (ls *limitScanner) document() *source.Diagnostic {
	s := &ls.s
	header := 0 // parts of the current table header's name
	for {
		s.skipSpace()
		start := s.i
		switch c := s.peek(0); {
		case c == tomlEOF:
			return nil
		case c == '#':
			s.skipLine()
		case c == '[':
			s.i++
			s.eat('[')
			n := s.keyParts()
			if n > MaxKeyParts {
				return keyPathError(ls.f, start, n)
			}
			header = n
			if n == 0 {
				s.skipLine() // no name: not TOML, and nothing to count
			}
		case isKeyStart(c):
			n := s.keyParts()
			if header+n > MaxKeyParts {
				return keyPathError(ls.f, start, header+n)
			}
			s.skipBlank()
			if s.eat('=') {
				s.skipBlank()
				w := valueWalk{s: s, f: ls.f}
				if _, _, d := w.value(0, header+n); d != nil {
					return d
				}
			}
		default:
			s.i++ // not TOML: the decoder says so
		}
	}
}

// keyParts skips a dotted key (`a . "b".c`) and returns how many parts it has.
func (s *tomlScanner) keyParts() int {
	n := 0
	for {
		s.skipBlank()
		switch c := s.peek(0); {
		case c == '"' || c == '\'':
			s.i++
			s.single(c)
		case isKeyStart(c):
			for isKeyStart(s.peek(0)) && s.peek(0) != '"' && s.peek(0) != '\'' {
				s.i++
			}
		default:
			return n
		}
		n++
		s.skipBlank()
		if !s.eat('.') {
			return n
		}
	}
}

// keyPathError is the diagnostic about a key path of n parts starting at byte start of f.
func keyPathError(f *source.File, start, n int) *source.Diagnostic {
	return &source.Diagnostic{
		Summary: fmt.Sprintf("TOML key path of %d parts: a key may have at most %d, counting those of the table header, of the dotted key and of the inline tables around it (longer paths would make decoding slow); shorten the key", n, MaxKeyParts),
		Subject: f.Range(start, start+1).Ptr(),
	}
}

// isKeyStart reports whether c may start a key: a quote, or a byte of a bare key. Bytes past ASCII count too, though
// TOML does not allow them in bare keys: counting too many parts of a key the decoder rejects anyway does no harm.
func isKeyStart(c int) bool { return c == '"' || c == '\'' || isBareKeyByte(c) || c >= 0x80 }
