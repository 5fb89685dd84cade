package analysis

import (
	"slices"

	"github.com/promptc/promptc/templates"
)

// Function is a template function a body may call, with its signature and what it returns, as docs/reference.md
// (Functions) lists them.
type Function struct {
	Name, Signature, Doc string
}

// funcDocs are the signatures of docs/reference.md's table of functions, and of text/template's builtins.
var funcDocs = map[string][2]string{
	"const":         {`const "name"`, "the text of constant name; an unknown name, or a lookup table, is an error"},
	"lookup":        {`lookup "table" KEY [DEFAULT]`, "entry KEY of lookup table table; with no such entry DEFAULT, or without a default an error"},
	"ref":           {`ref "id"`, "the heading line of block id, e.g. `## Comment Format`; an error unless the block has a title and renders in the same runbook"},
	"title":         {`title "id"`, "the title of block id alone; same checks as ref"},
	"quote":         {`quote TEXT`, "every line of TEXT prefixed with `> `; an empty line becomes `>`"},
	"bullets":       {`bullets LIST`, "`- item` for each item, joined by newlines"},
	"join":          {`join LIST SEP`, "the items of LIST separated by SEP: the list comes first"},
	"json":          {`json VALUE`, "VALUE as canonical JSON: compact, keys sorted, no HTML escaping"},
	"trim":          {`trim TEXT`, "TEXT without leading and trailing white space"},
	"dropped":       {`dropped "var"`, "how many items or records of list or records variable var the limits dropped (an int)"},
	"tools":         {`tools`, "the task's tools as Markdown (runbook blocks only)"},
	"whereNot":      {`whereNot FIELD VALUE LIST`, "the records of LIST whose FIELD does not equal VALUE, in order"},
	"whereNotEmpty": {`whereNotEmpty FIELD LIST`, "the records of LIST whose FIELD is not empty, in order"},
	"empty":         {`empty V`, "whether V holds nothing: \"\", 0, false, no items, or a record whose fields are all empty"},
	"add":           {`add A B...`, "the sum of one or more ints; out of the int range is an error"},
	"sub":           {`sub A B`, "A - B (sprig's order: {{.n | sub 10}} is 10 - n)"},
	"mul":           {`mul A B...`, "the product of one or more ints; out of the int range is an error"},
	"div":           {`div A B`, "A / B, truncated toward zero; B = 0 is an error"},
	"mod":           {`mod A B`, "the remainder of A / B, with the sign of A; B = 0 is an error"},
	"max":           {`max A B...`, "the largest of one or more ints"},
	"min":           {`min A B...`, "the smallest of one or more ints"},
	"dict":          {`dict KEY VALUE...`, "a new dict of the pairs; range walks it in key order"},
	"set":           {`set DICT KEY VALUE`, "DICT with KEY set to VALUE, in place: {{$_ := set $d KEY VALUE}}"},
	"hasKey":        {`hasKey DICT KEY`, "whether a dict or a record has the key KEY"},
	"has":           {`has NEEDLE LIST`, "whether a list of strings holds NEEDLE"},
	"uniq":          {`uniq LIST`, "the items of a list of strings without repeats, first occurrences in order"},
	"index":         {`index X KEY...`, "text/template builtin: the element of X at KEY"},
	"len":           {`len X`, "text/template builtin: the length of X"},
	"eq":            {`eq A B...`, "text/template builtin: A == B (or any of B...)"},
	"ne":            {`ne A B`, "text/template builtin: A != B"},
	"lt":            {`lt A B`, "text/template builtin: A < B"},
	"le":            {`le A B`, "text/template builtin: A <= B"},
	"gt":            {`gt A B`, "text/template builtin: A > B"},
	"ge":            {`ge A B`, "text/template builtin: A >= B"},
	"and":           {`and A B...`, "text/template builtin: the first empty argument, or the last"},
	"or":            {`or A B...`, "text/template builtin: the first non-empty argument, or the last"},
	"not":           {`not A`, "text/template builtin: the boolean negation of A"},
	"print":         {`print ARGS...`, "text/template builtin: fmt.Sprint"},
	"printf":        {`printf FORMAT ARGS...`, "text/template builtin: fmt.Sprintf"},
	"println":       {`println ARGS...`, "text/template builtin: fmt.Sprintln"},
	"slice":         {`slice X I [J]`, "text/template builtin: X[I:J]"},
	"html":          {`html TEXT`, "text/template builtin: TEXT escaped for HTML"},
	"js":            {`js TEXT`, "text/template builtin: TEXT escaped for JavaScript"},
	"urlquery":      {`urlquery TEXT`, "text/template builtin: TEXT escaped for a URL query"},
	"call":          {`call FN ARGS...`, "text/template builtin: calls FN"},
}

// Functions returns every function a body may call: promptc's own (templates.FuncNames) and text/template's
// builtins, sorted by name.
func Functions() []Function {
	names := append([]string(nil), templates.FuncNames...)
	for n := range funcDocs {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	out := make([]Function, 0, len(names))
	for _, n := range names {
		d, ok := funcDocs[n]
		if !ok {
			d = [2]string{n + " ...", "a promptc template function: see docs/reference.md (Functions)"}
		}
		out = append(out, Function{Name: n, Signature: d[0], Doc: d[1]})
	}
	return out
}

func function(name string) (Function, bool) {
	for _, f := range Functions() {
		if f.Name == name {
			return f, true
		}
	}
	return Function{}, false
}
