package templates

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/promptc/promptc/blocks"
)

// Kinds of values, in the words of docs/reference.md ("Value types in templates"): a message about a value a body
// handed to a function names its kind as the docs do, never the Go type that holds it (templates.Untrusted,
// []interface {}), which means nothing to the author.

// describe names the kind of a value as a body sees it: text (of any trust, and a function's result computed from
// values), a list, records, a record, an int, a bool; a number (a literal such as 1.5), a lookup table (from
// lookup_table), nothing.
func describe(v any) string {
	switch v.(type) {
	case nil:
		return "nothing"
	case string, Untrusted, Background, Markdown, Fenced, Mixed:
		return "text"
	case bool:
		return "a bool"
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr:
		return "an int"
	case float32, float64:
		return "a number"
	case []string, []any:
		return "a list"
	case []map[string]any:
		return "records"
	case map[string]any, *falseRecord:
		return "a record"
	case map[string]string:
		return "a lookup table"
	case Dict:
		return "a dict"
	case []*blocks.Tool:
		return "the tools"
	case *blocks.Tool:
		return "a tool"
	}
	return "a value of another kind"
}

// goTypeWords are the Go types of the values a body sees, as text/template's own messages name them ("can't
// evaluate field x in type templates.Untrusted", "wrong type for value; expected string; got []string"), and the
// words describe uses for them. Longer names come first, so that a name is never replaced inside a longer one.
var goTypeWords = []struct{ goType, words string }{
	{"[]map[string]interface {}", "records"},
	{"map[string]interface {}", "a record"},
	{"[]interface {}", "a list"},
	{"[]string", "a list"},
	{"map[string]string", "a lookup table"},
	{"[]*blocks.Tool", "the tools"},
	{"*blocks.Tool", "a tool"},
	{"*templates.falseRecord", "a record"},
	{"templates.Untrusted", "text"},
	{"templates.Background", "text"},
	{"templates.Markdown", "text"},
	{"templates.Fenced", "text"},
	{"templates.Mixed", "text"},
	{"interface {}", "a value"},
}

// goTypeWord matches a Go type where text/template's messages name one: after "type", "expected", "got" or "of
// type", before ";", ":", "," or the end; and "templates.X" anywhere.
var goTypeWord = regexp.MustCompile(`\b(type|expected|got) (\[\]map\[string\]interface \{\}|map\[string\]interface \{\}|\[\]interface \{\}|\[\]string|map\[string\]string|\[\]\*blocks\.Tool|\*blocks\.Tool|interface \{\}|string|int|int64|uint8|bool|float64|templates\.[A-Z][A-Za-z]*)`)

// kindWords rewrites the Go types in a message of text/template's into describe's words: "can't evaluate field x in
// type templates.Untrusted" becomes "can't evaluate field x in text", "expected string; got []string" becomes
// "expected text; got a list".
func kindWords(msg string) string {
	if !strings.ContainsAny(msg, "[.{") && !strings.Contains(msg, "type ") && !strings.Contains(msg, "expected ") && !strings.Contains(msg, "got ") {
		return msg
	}
	msg = goTypeWord.ReplaceAllStringFunc(msg, func(m string) string {
		word, typ, _ := strings.Cut(m, " ")
		for _, w := range goTypeWords {
			if typ == w.goType {
				return phrase(word, w.words)
			}
		}
		switch typ {
		case "string":
			return phrase(word, "text")
		case "int", "int64", "uint8":
			return phrase(word, "an int")
		case "bool":
			return phrase(word, "a bool")
		case "float64":
			return phrase(word, "a number")
		}
		if strings.HasPrefix(typ, "templates.") {
			return phrase(word, "text")
		}
		return m
	})
	// Anywhere else ("incompatible types for comparison: templates.Mixed and string"), a type of ours by itself.
	for _, w := range goTypeWords {
		msg = strings.ReplaceAll(msg, w.goType, w.words)
	}
	return anyTemplatesType.ReplaceAllString(msg, "text")
}

var anyTemplatesType = regexp.MustCompile(`\btemplates\.[A-Z][A-Za-z]*`)

// phrase puts a kind after the word text/template wrote before a type: "in type X" reads "in X".
func phrase(word, kind string) string {
	if word == "type" {
		return kind
	}
	return fmt.Sprintf("%s %s", word, kind)
}
