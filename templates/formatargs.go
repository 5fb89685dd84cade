package templates

import (
	"fmt"

	"github.com/promptc/promptc/blocks"
)

// print, println, printf, html, js and urlquery format their arguments with fmt (docs/reference.md, "Bodies: the
// template language"); a value among them is text of some trust, which they must format exactly as the same text
// given as a string, and a list or a record has no text of its own.

// checkFormatArgs refuses an argument of a formatting function that has no text: fmt would print a list or a record
// as Go syntax ([a b], map[n:x]), with each value in it escaped, which is never what an author means.
func checkFormatArgs(name string, args []any) error {
	for i, a := range args {
		if fix := collectionFix(a); fix != "" {
			return fmt.Errorf("%s: argument %d is %s: %s", name, i+1, noText(a), fix)
		}
	}
	return nil
}

// collectionFix says what to write instead of printing v as text, or "" when v is not a collection: a list,
// records, a record or a lookup table.
func collectionFix(v any) string {
	switch v.(type) {
	case []string, []any:
		return "lay it out with join or bullets ({{join LIST \", \"}}), or walk it with {{range}}…{{end}}"
	case []map[string]any:
		return "walk them with {{range}}…{{end}} and print their fields ({{.name}})"
	case map[string]any, *falseRecord:
		return "print its fields one by one ({{.name}}), or json it"
	case map[string]string:
		return "read an entry with lookup, or walk it with {{range $k, $v := …}}…{{end}}"
	case []*blocks.Tool:
		return "print them with {{tools}}"
	}
	return ""
}

// asStrings returns args with every value among them (text of any trust, a function's result computed from values)
// as the string it prints, escaped by its trust, and the strictest trust among them (Trusted for none). fmt.Sprint
// separates two operands by a space when neither is a string, so a value must reach it as a string for print to
// give the bytes it gives on plain strings ({{print .first .last}} is "AdaLovelace" at every trust).
func (p *printer) asStrings(args []any) ([]any, blocks.Trust) {
	out := make([]any, len(args))
	trust := blocks.Trusted
	for i, a := range args {
		if m, ok := a.(Mixed); ok {
			out[i], trust = m.text, stricter(trust, m.trust)
			continue
		}
		raw, t, ok := textOf(a)
		switch {
		case !ok:
			out[i] = a
		case t == blocks.Trusted || t == blocks.Code:
			out[i], trust = raw, stricter(trust, t) // a code value is fenced and neutralised already
		default:
			out[i], trust = p.escape(raw, t), stricter(trust, t)
		}
	}
	return out, trust
}

// sprinted is print and println: fmt's Sprint or Sprintln of args, each value in them escaped by its trust, and,
// for a further function, of the same args before escaping.
func (f *funcs) sprinted(name string, sprint func(...any) string, args []any) (any, error) {
	if err := noDicts(name, args); err != nil {
		return "", err
	}
	if err := checkFormatArgs(name, args); err != nil {
		return "", err
	}
	escaped, trust := f.p.asStrings(args)
	text := sprint(escaped...)
	if trust == blocks.Trusted {
		return f.result(name, text)
	}
	return f.resultAny(name, computed(text, sprint(rawArgs(args)...), trust))
}

// computed is the result of a function that lays values out: text is what it prints, raw the same computed from
// the values before escaping, trust the strictest of theirs. A Mixed is never empty; where the values escape to
// nothing (an untrusted " "), the result is raw itself, of that trust, which prints as nothing too and which a
// further function sees as it is: {{len (print .a .b)}} of two spaces is 2.
func computed(text, raw string, trust blocks.Trust) any {
	switch {
	case text != "":
		return Mixed{text: text, raw: raw, trust: trust, marks: []span{{0, len(text), trust}}}
	case raw == "":
		return ""
	}
	return tagged(raw, trust)
}

// printChecked is what an action that prints calls (printFunc): the printer's bytes for v, or, for a value with no
// text of its own (a list, records, a record, a lookup table), the author's error, whatever the value holds: an
// empty list is refused as a full one is, so no value decides it. The compiler refuses what it can tell from the
// source (Uses.Prints); this catches the rest ({{index .repos $i}}).
//
// It fails by panicking with the error, which text/template turns into the execution's error as it does a
// returned one (its safeCall), because a function with a second result costs every printing action an
// allocation, and printing is what bodies do most.
func (p *printer) printChecked(v any) string {
	if fix := collectionFix(v); fix != "" {
		panic(fmt.Errorf("prints %s: %s", noText(v), fix))
	}
	return p.printAny(v)
}

// noText describes a collection v as having no text: "a list, which has no text of its own".
func noText(v any) string {
	if _, ok := v.([]map[string]any); ok {
		return "records, which have no text of their own"
	}
	if _, ok := v.([]*blocks.Tool); ok {
		return "the tools, which have no text of their own"
	}
	return describe(v) + ", which has no text of its own"
}
