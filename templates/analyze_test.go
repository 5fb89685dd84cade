package templates

import (
	"fmt"
	"strings"
	"testing"
)

// usesString writes what a body uses compactly: variables as name:kind, with "!" for a printed use that stands
// alone; fields as var.field:kind; items as var[]:kind.
func usesString(u Uses) string {
	var parts []string
	mark := func(alone bool) string {
		if alone {
			return "!"
		}
		return ""
	}
	for _, v := range u.Vars {
		parts = append(parts, fmt.Sprintf("%s:%s%s", v.Name, v.Kind, mark(v.Alone)))
	}
	for _, f := range u.Fields {
		v, sep := f.Var, "."
		if f.Path != "" {
			v += "." + f.Path
		}
		if !f.Item {
			sep = "/" // a field of a record value, not of an item
		}
		parts = append(parts, fmt.Sprintf("%s%s%s:%s%s", v, sep, f.Name, f.Kind, mark(f.Alone)))
	}
	for _, it := range u.Items {
		parts = append(parts, fmt.Sprintf("%s[]:%s%s", it.Name, it.Kind, mark(it.Alone)))
	}
	for _, l := range []struct {
		fn   string
		uses []Use
	}{{"const", u.Consts}, {"ref", u.Refs}, {"title", u.Titles}, {"lookup", u.Lookups}, {"dropped", u.Dropped}, {"tools", u.Tools}} {
		for _, x := range l.uses {
			parts = append(parts, fmt.Sprintf("%s(%s)", l.fn, x.Name))
		}
	}
	for _, f := range []struct {
		name string
		set  bool
	}{{"task", u.Task}, {"data", u.Data}, {"const?", u.DynamicConst}, {"ref?", u.DynamicRef}, {"title?", u.DynamicTitle},
		{"lookup?", u.DynamicLookup}, {"dropped?", u.DynamicDropped}} {
		if f.set {
			parts = append(parts, f.name)
		}
	}
	return strings.Join(parts, " ")
}

func TestUses(t *testing.T) {
	tests := []struct{ name, body, want string }{
		// Kinds.
		{"printed", "{{.diff}}", "diff:printed!"},
		{"printed through $", "{{$.diff}}", "diff:printed!"},
		{"printed through an alias", "{{$d := .}}{{$d.diff}}", "diff:printed! data"},
		{"condition", "{{if .diff}}x{{end}}", "diff:condition"},
		{"else if", "{{if .a}}{{else if .b}}{{end}}", "a:condition b:condition"},
		{"negated condition", "{{if not .a}}{{end}}", "a:test"},
		{"or in a condition", "{{if or .a .b}}{{end}}", "a:test b:test"},
		{"and under not", "{{if not (and .a (or .b .c))}}{{end}}", "a:test b:test c:test"},
		{"else if or", "{{if .a}}{{else if or .b .c}}{{end}}", "a:condition b:test c:test"},
		{"len anywhere", "{{len .a}}{{$n := len .b}}{{if gt (len .c) 1}}{{end}}", "a:test b:test c:test"},
		{"empty", "{{if empty .a}}{{end}}{{empty .b}}", "a:test b:test"},
		{"or printed passes a value on", "{{or .a .b}}", "a:other b:other"},
		{"or ranged over passes a value on", "{{range or .a .b}}{{.x}}{{end}}", "a:other b:other a.x:printed b.x:printed"},
		{"or in a with passes a value on", "{{with or .a .b}}{{.x}}{{end}}", "a:other b:other a/x:printed! b/x:printed!"},
		{"or in a declaration passes a value on", "{{if $x := or .a .b}}{{end}}", "a:other b:other"},
		{"len of or", "{{len (or .a .b)}}", "a:test b:test"},
		{"eq in a condition compares values", `{{if eq .a "x"}}{{end}}`, "a:other"},
		{"fields tested", "{{range .repos}}{{if or .url .ref}}{{len .tags}}{{end}}{{if not .}}{{end}}{{end}}",
			"repos:range repos.url:test repos.ref:test repos.tags:test repos[]:test"},
		{"declared in an if", "{{if $x := .a}}{{end}}", "a:other"},
		{"range", "{{range .l}}{{end}}", "l:range"},
		{"range with variables", "{{range $i, $e := .l}}{{end}}", "l:range"},
		{"with", "{{with .a}}{{.}}{{end}}", "a:other"},
		{"function argument", "{{quote .a}}", "a:other"},
		{"piped", "{{.a | quote}}", "a:other"},
		{"parenthesised", "{{(.a)}}", "a:other"},
		{"part of it", "{{.a.b}}", "a:part a/b:printed!"},
		{"nested parts", "{{.a.b.c}}{{with .a.b}}{{.d}}{{end}}", "a:part a:part a/b:part a.b/c:printed a/b:other a.b/d:printed"},
		{"assigned", "{{$x := .a}}{{$x}}", "a:other"},
		{"index", `{{index . "a"}}`, "a:other"},
		{"task", "{{.task}} {{$.task}}", "task"},

		// Standing alone on a line.
		{"alone between lines", "a\n{{.diff}}\nb", "diff:printed!"},
		{"indented", "a\n  {{.diff}}\t\nb", "diff:printed!"},
		{"text before", "a {{.diff}}\n", "diff:printed"},
		{"text after", "{{.diff}}:\n", "diff:printed"},
		{"printing action before", "{{.a}}{{.diff}}", "a:printed diff:printed"},
		{"control actions around", "{{if .x}}\n  {{- /* c */}}{{end}}\n{{if .y}}{{.diff}}{{end}}\n", "x:condition y:condition diff:printed!"},
		{"comment and declaration", "{{/* c */}}{{.diff}}{{$x := 1}}", "diff:printed!"},
		{"range on one line", "{{range .l}}{{.}}{{end}}", "l:range l[]:printed"},
		{"text in another branch", "{{if .x}}a{{else}}{{.diff}}{{end}}", "x:condition diff:printed!"},
		{"text in the same branch", "{{if .x}}a{{.diff}}{{else}}b{{end}}", "x:condition diff:printed"},
		{"text in a structure beside", "{{if .x}}a{{end}}{{.diff}}", "x:condition diff:printed"},
		{"newline only in a structure beside", "x{{if .c}}\n{{end}}{{.diff}}", "c:condition diff:printed"},
		{"white space in a structure beside", "{{if .c}} \n {{end}}{{.diff}}\n", "c:condition diff:printed!"},
		{"range items on lines of their own", "{{range .l}}\n{{.}}\n{{end}}", "l:range l[]:printed!"},
		{"range items each ending a line", "{{range .l}}{{.}}\n{{end}}", "l:range l[]:printed!"},
		{"range items each starting a line", "{{range .l}}\n{{.}}{{end}}", "l:range l[]:printed!"},
		{"range items after text in the body", "{{range .l}}{{.}}\nx{{end}}", "l:range l[]:printed"},
		{"range items before text in the body", "{{range .l}}x\n{{.}}{{end}}", "l:range l[]:printed"},
		{"range else alone", "{{range .l}}x{{else}}{{.diff}}{{end}}", "l:range diff:printed!"},
		{"left trim on the action", "a\n{{- .diff}}", "diff:printed"},
		{"right trim on the action", "{{.diff -}}\nb", "diff:printed"},
		{"trim on the line", "{{if .x -}} {{.diff}}\n{{end}}", "x:condition diff:printed"},
		{"trim eating the newline before", "a {{- if .x -}}\n{{.diff}}{{end}}", "x:condition diff:printed"},
		{"trim eating the newline after", "{{.diff}}\n{{- .a}}", "diff:printed a:printed"},
		{"trim beyond text keeps the newline", "{{.diff}}\n  x {{- .a}}", "diff:printed! a:printed"},
		{"trim on the previous line", "{{.a -}}\nx\n{{.diff}}", "a:printed diff:printed!"},
		{"action spanning lines", "x {{if\n.c}}{{.diff}}{{end}}", "c:condition diff:printed"},
		{"string holding braces", "{{\"}}\"}}{{.diff}}", "diff:printed"},

		// Records.
		{"fields", "{{range .repos}}\n{{.url}}\n{{.desc | quote}}{{if .private}}p{{end}}{{end}}",
			"repos:range repos.url:printed! repos.desc:other repos.private:condition"},
		{"range variable", "{{range $r := .repos}}{{$r.url}}{{end}}", "repos:range repos.url:printed"},
		{"index and item variables", "{{range $i, $r := .repos}}{{$i}}{{$r.url}} {{.name}}{{end}}",
			"repos:range repos.url:printed repos.name:printed"},
		{"variables after the range end with it", "{{range $r := .repos}}{{$r.url}}{{end}}{{range $r := .users}}{{$r.name}}{{end}}",
			"repos:range users:range repos.url:printed users.name:printed"},
		{"$ sees through ranges", "{{range .repos}}{{$.diff}}{{.task}}{{end}}", "repos:range diff:printed repos.task:printed"},
		{"range over with", "{{with .repos}}{{range .}}{{.url}}{{end}}{{end}}", "repos:other repos.url:printed"},
		{"range over $", "{{range $.repos}}{{.url}}{{end}}", "repos:range repos.url:printed"},
		{"range over a variable", "{{$r := .repos}}{{range $r}}{{.url}}{{end}}", "repos:other repos.url:printed"},
		{"assigned in a branch", "{{$x := .a}}{{if .c}}{{$x = .b}}{{end}}{{range $x}}{{.f}}{{end}}",
			"a:other c:condition b:other a.f:printed b.f:printed"},
		{"field index", `{{range .repos}}{{index . "url"}}{{(.).name}}{{end}}`, "repos:range repos.url:other repos.name:other"},
		{"whole items", `{{range .repos}}{{.}}{{json .}}{{$x := .}}{{index . .k}}{{end}}`,
			"repos:range repos.k:other repos[]:printed repos[]:other repos[]:other repos[]:other"},
		{"item variable whole", "{{range $r := .repos}}{{$r}}{{end}}", "repos:range repos[]:printed"},
		{"field of a field", "{{range .repos}}{{.owner.name}}{{end}}", "repos:range repos.owner:part repos.owner/name:printed"},
		{"nested range over a field", "{{range .repos}}{{range .tags}}{{.x}}{{end}}{{end}}", "repos:range repos.tags:range repos.tags.x:printed"},
		{"item variable of a nested range", "{{range $r := .repos}}{{range $t := $r.tags}}{{$t.x}} {{$r.y}}{{end}}{{end}}",
			"repos:range repos.tags:range repos.tags.x:printed repos.y:printed"},
		{"where over a nested field", `{{range .repos}}{{range where "n" "a" .tags}}{{.m}}{{end}}{{range .tags | sortBy "k"}}{{end}}{{end}}`,
			"repos:range repos.tags.n:other repos.tags:other repos.tags.m:printed repos.tags:other repos.tags.k:other"},
		{"range over a computed value", `{{range (index . "l")}}{{.x}}{{end}}`, "l:other"},

		// Functions with names.
		{"literal names", `{{const "a"}}{{ref "b"}}{{title "c"}}{{lookup "t" .k "d"}}{{dropped "l"}}`,
			"k:other const(a) ref(b) title(c) lookup(t) dropped(l)"},
		// A piped title is the text function title S, which names no block.
		{"computed names", `{{const .x}}{{ref .y}}{{"c" | title}}{{lookup .t "k"}}{{dropped (print "l")}}`,
			"x:other y:other t:other const? ref? lookup? dropped?"},

		// tools, called wherever it is named.
		{"tools", "{{tools}}", "tools(tools)"},
		{"tools as an argument, in a branch", "{{if .x}}{{printf \"%s\" tools}}{{end}}{{with tools}}{{.}}{{end}}",
			"x:condition tools(tools) tools(tools)"},
		{"tools in a string is no call", `{{"tools"}}`, ""},

		// The data as a whole.
		{"json of the data", "{{json .}}", "data"},
		{"computed variable name", "{{index . .k}}", "k:other data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, diags := Parse(block(tt.body, false), Consts{})
			if len(diags) > 0 {
				t.Fatal(diags)
			}
			if got := usesString(b.Uses); got != tt.want {
				t.Errorf("Uses(%q) =\n  %s\nwant\n  %s", tt.body, got, tt.want)
			}
			// A use spans its name as written: .name, $.name, $v.name or "name" (index).
			spans := func(kind, name string, off, end int) {
				t.Helper()
				got := tt.body[off:end]
				if !strings.HasSuffix(got, "."+name) && got != `"`+name+`"` || strings.ContainsAny(got, " {}()") {
					t.Errorf("%s %q spans %q", kind, name, got)
				}
			}
			for _, u := range b.Uses.Vars {
				spans("variable", u.Name, u.Off, u.End)
			}
			for _, f := range b.Uses.Fields {
				spans("field", f.Name, f.Off, f.End)
			}
			for _, u := range b.Uses.Tools {
				if got := tt.body[u.Off:u.End]; got != "tools" {
					t.Errorf("tools spans %q", got)
				}
			}
		})
	}
}
