package importer

import (
	"fmt"
	"strings"
	"unicode"
)

// emit writes the project's sources for entries: promptc.toml, and the blocks in blocks/shared.toml (those in more
// than one task) and blocks/TASK.toml (those in one), each file in runbook order.
func (r *Result) emit(files []Source, entries []*entry) {
	assignIDs(entries, r.Tasks)
	r.Blocks = len(entries)

	var m strings.Builder
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name
	}
	m.WriteString(comment("Imported by promptc import from " + strings.Join(names, ", ") + "."))
	m.WriteString(comment("Each task's runbook reproduces its file; check that with: promptc check"))
	m.WriteString("name  = \"imported\"\n")
	m.WriteString("tasks = " + stringList(r.Tasks) + "\n\n[runbook]\norder = [\n")
	for _, e := range entries {
		m.WriteString("  " + basic(e.id) + ",\n")
	}
	m.WriteString("]\n")
	var allows []string

	perFile := map[string]*strings.Builder{}
	var order []string
	for _, e := range entries {
		file := "blocks/shared.toml"
		if len(r.Tasks) == 1 || len(e.tasks) == 1 {
			file = "blocks/" + r.Tasks[e.tasks[0]] + ".toml"
		}
		if len(e.tasks) > 1 {
			r.Shared++
		}
		b, ok := perFile[file]
		if !ok {
			b = &strings.Builder{}
			perFile[file] = b
			order = append(order, file)
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		src := files[e.file].Name
		b.WriteString(comment(fmt.Sprintf("from %s:%d", src, e.line)))
		if e.inBody != "" {
			b.WriteString(comment("The heading is part of the body: " + e.inBody + "."))
		}
		b.WriteString("[[block]]\nid    = " + basic(e.id) + "\n")
		if e.title != "" {
			b.WriteString("title = " + basic(e.title) + "\n")
			fmt.Fprintf(b, "level = %d\n", e.level)
		}
		if len(e.tasks) < len(r.Tasks) {
			b.WriteString("tasks = " + stringList(taskList(r.Tasks, e.tasks)) + "\n")
		}
		body := e.text
		if e.title != "" {
			body = e.text[len(strings.Repeat("#", e.level))+1+len(e.title)+2:]
		}
		if strings.Contains(body, "{{") {
			b.WriteString("raw   = true # the body is literal text: {{ is not a template action\n")
		}
		b.WriteString("body  = " + multiline(body) + "\n")
		if strings.IndexFunc(e.text, func(c rune) bool { return unicode.Is(unicode.Cf, c) }) >= 0 {
			allows = append(allows, "\n[[lint.allow]]\nlint   = \"invisible-char\"\nblock  = "+basic(e.id)+"\n"+
				"reason = "+basic("imported verbatim from "+src+"; remove the invisible characters unless they are meant")+"\n")
		}
	}
	for _, a := range allows {
		m.WriteString(a)
	}
	r.Files["promptc.toml"] = []byte(m.String())
	for _, f := range order {
		r.Files[f] = []byte(perFile[f].String())
	}
}

// comment writes s as TOML comment lines; control characters, which a comment may not hold, become spaces.
func comment(s string) string {
	s = strings.Map(func(c rune) rune {
		if c < 0x20 && c != '\t' || c == 0x7f {
			return ' '
		}
		return c
	}, s)
	return "# " + s + "\n"
}

func stringList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = basic(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// basic quotes s as a TOML basic string.
func basic(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteRune(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, c)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// multiline quotes a body as a TOML multi-line string that starts and ends on a line of its own. The value holds
// one more newline at its end than body: promptc trims trailing newlines of what a block renders, so the block
// renders body exactly. A literal string (between triple single quotes) keeps every byte as written; a body that
// one cannot hold (three single quotes in a row, or a control character other than tab) is a basic string
// (between triple double quotes) with escapes.
func multiline(body string) string {
	literal := !strings.Contains(body, "'''") && strings.IndexFunc(body, func(c rune) bool {
		return c < 0x20 && c != '\t' && c != '\n' || c == 0x7f
	}) < 0
	if literal {
		return "'''\n" + body + "\n'''"
	}
	var b strings.Builder
	b.WriteString("\"\"\"\n")
	for _, c := range body {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteRune(c)
		case c == '\n' || c == '\t':
			b.WriteRune(c)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, c)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteString("\n\"\"\"")
	return b.String()
}
