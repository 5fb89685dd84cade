package analysis

import (
	"slices"
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
)

// TokenType is the kind of a piece of a template action, for an editor's colours: the legend of semantic tokens
// (docs/editors.md#what-the-editor-shows-of-the-cache).
type TokenType uint8

const (
	TokenKeyword  TokenType = iota // if, else, end, range, with, define, block, template, break, continue, nil, true, false
	TokenFunction                  // a function: const, ref, bullets, len, …
	TokenVariable                  // .name of a declared variable (or task), $x, and the dot itself
	TokenProperty                  // .field: a field of a record, or a name that is no variable
	TokenString                    // "x", `x`, 'x'
	TokenNumber                    // 1, -2, 0x1f, 1.5
	TokenOperator                  // the delimiters {{ }} (with their trim markers), |, :=, =
	TokenComment                   // {{/* … */}}
)

// TokenTypes is the legend: the name of each TokenType, in order, as LSP's standard token types name them.
var TokenTypes = []string{"keyword", "function", "variable", "property", "string", "number", "operator", "comment"}

// TokenModifiers is the legend of modifiers: bit 0 marks the name of a constant or lookup table (the string after
// const or lookup), which is readonly.
var TokenModifiers = []string{"readonly"}

// SemToken is one coloured piece of a file: Range never crosses a line.
type SemToken struct {
	Range     source.Range
	Type      TokenType
	Modifiers uint32
}

var templateKeywords = map[string]bool{"if": true, "else": true, "end": true, "range": true, "with": true, "define": true,
	"block": true, "template": true, "break": true, "continue": true, "nil": true, "true": true, "false": true}

// SemanticTokens returns the pieces of the template actions of file name, in order: in a template file, every
// action; in a blocks/ file, the actions of every block body written inline (positions exact through TOML escapes).
// Text outside actions has no token.
func (s *Snapshot) SemanticTokens(name string) []SemToken {
	f := s.Files[name]
	if f == nil {
		return nil
	}
	var out []SemToken
	emit := func(r source.Range, t TokenType, mods uint32) {
		// A token that crosses lines (a raw string, a line-ending backslash in a """ body) is cut at each newline.
		for a := r.Start.Byte; a < r.End.Byte; {
			b := a + strings.IndexByte(f.Text[a:r.End.Byte], '\n')
			if b < a {
				b = r.End.Byte
			}
			if b > a {
				out = append(out, SemToken{Range: f.Range(a, b), Type: t, Modifiers: mods})
			}
			a = b + 1
		}
	}
	if strings.HasPrefix(name, "templates/") {
		lexActions(f.Text, s.Project.Vars, func(a, b int, t TokenType, mods uint32) { emit(f.Range(a, b), t, mods) })
		return out
	}
	for _, b := range s.Project.Blocks {
		if b.Template != "" || b.BodyRange.Filename != name || !b.BodyRange.Known() {
			continue
		}
		lexActions(b.Body, s.Project.Vars, func(x, y int, t TokenType, mods uint32) {
			if r := b.SourceRange(x, y); r.Filename == name && r.End.Byte <= len(f.Text) {
				emit(r, t, mods)
			}
		})
	}
	slices.SortStableFunc(out, func(a, b SemToken) int { return a.Range.Start.Byte - b.Range.Start.Byte })
	return out
}

// lexActions calls tok for each piece of each {{…}} action of text, in order, with its byte range. It reads what
// text/template's lexer reads, and never fails: an unterminated action or string ends at the end of the text.
func lexActions(text string, vars map[string]*blocks.Var, tok func(a, b int, t TokenType, mods uint32)) {
	for i := 0; i < len(text); {
		open := strings.Index(text[i:], "{{")
		if open < 0 {
			return
		}
		a := i + open
		b := a + 2
		if b+1 < len(text) && text[b] == '-' && text[b+1] == ' ' {
			b++
		}
		end := strings.Index(text[b:], "}}")
		if end < 0 {
			end = len(text)
		} else {
			end += b
		}
		inner := strings.TrimLeft(text[b:end], " \t\r\n")
		if strings.HasPrefix(inner, "/*") {
			// A comment runs to "*/" and the closing delimiter after it.
			c := strings.Index(text[b:], "*/")
			stop := len(text)
			if c >= 0 {
				if d := strings.Index(text[b+c:], "}}"); d >= 0 {
					stop = b + c + d + 2
				}
			}
			tok(a, stop, TokenComment, 0)
			i = stop
			continue
		}
		tok(a, b, TokenOperator, 0)
		j := lexInside(text, b, vars, tok)
		if j >= len(text) {
			return
		}
		k := min(j+2, len(text))
		if text[j] == '-' {
			k = min(j+3, len(text))
		}
		tok(j, k, TokenOperator, 0)
		i = k
	}
}

// lexInside lexes an action's inside from byte i, and returns where its closing "}}" (or " -}}"'s "-") starts, or
// len(text).
func lexInside(text string, i int, vars map[string]*blocks.Var, tok func(a, b int, t TokenType, mods uint32)) int {
	isIdent := func(c byte) bool {
		return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	named := false // the last word was const or lookup: a string after it names a constant
	for i < len(text) {
		c := text[i]
		switch {
		case strings.HasPrefix(text[i:], "}}"):
			return i
		case strings.HasPrefix(text[i:], " -}}"):
			return i + 1
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '(' || c == ')' || c == ',':
			i++
			continue
		case c == '"' || c == '`' || c == '\'':
			j := i + 1
			for j < len(text) && text[j] != c && !(c != '`' && text[j] == '\n') {
				if text[j] == '\\' && c != '`' {
					j++
				}
				j++
			}
			j = min(j+1, len(text))
			var mods uint32
			if named && c != '\'' {
				mods = 1
			}
			tok(i, j, TokenString, mods)
			i, named = j, false
			continue
		case c == '|' || c == '=':
			tok(i, i+1, TokenOperator, 0)
		case c == ':' && i+1 < len(text) && text[i+1] == '=':
			tok(i, i+2, TokenOperator, 0)
			i += 2
			named = false
			continue
		case c == '$':
			j := i + 1
			for j < len(text) && isIdent(text[j]) {
				j++
			}
			tok(i, j, TokenVariable, 0)
			i, named = j, false
			continue
		case c == '.':
			// A chain of fields: .var.field.sub, or the dot alone.
			first := i == 0 || !isIdent(text[i-1]) && text[i-1] != ')'
			for i < len(text) && text[i] == '.' {
				j := i + 1
				for j < len(text) && isIdent(text[j]) {
					j++
				}
				t := TokenProperty
				if name := text[i+1 : j]; first && (name == "" || name == "task" || vars[name] != nil) {
					t = TokenVariable
				}
				tok(i, j, t, 0)
				i, first = j, false
			}
			named = false
			continue
		case c >= '0' && c <= '9' || (c == '-' || c == '+') && i+1 < len(text) && text[i+1] >= '0' && text[i+1] <= '9':
			j := i + 1
			for j < len(text) && (isIdent(text[j]) || text[j] == '.' || text[j] == '_') {
				j++
			}
			tok(i, j, TokenNumber, 0)
			i, named = j, false
			continue
		case isIdent(c):
			j := i
			for j < len(text) && isIdent(text[j]) {
				j++
			}
			w := text[i:j]
			if templateKeywords[w] {
				tok(i, j, TokenKeyword, 0)
			} else {
				tok(i, j, TokenFunction, 0)
			}
			i, named = j, w == "const" || w == "lookup"
			continue
		}
		i++
		named = false
	}
	return i
}
