package blocks

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// StdinName is how diagnostics name the values file "-", read from standard input.
const StdinName = "<stdin>"

// ValueRanges says where the parts of a values file are written, keyed by the path ValueError.Path gives them:
// "name" is where the name's key is written (its table header, in TOML, for a table); "name[2]" where record 2 (from
// 1) of a records value is; "name[2].field" where that record's key field is; "" (RootValues) is where the table of
// names is, the one every name belongs in: a JSON file's opening brace, a TOML file's first line. A name's range is
// there even when its value was refused, so a range with no value means the name was given a value that was reported.
type ValueRanges map[string]Range

// RootValues is the ValueRanges key of the table that holds a values file's names.
const RootValues = ""

// At returns where path is written, or else the nearest enclosing part that is placed ("repos[2].url", then
// "repos[2]", then "repos", then the file's table): a required field that a record lacks is placed at the record,
// a name the file lacks at the file's table. It returns the zero Range when no part is placed.
func (r ValueRanges) At(path string) Range {
	for {
		if rng, ok := r[path]; ok {
			return rng
		}
		if path == RootValues {
			return Range{}
		}
		i := strings.LastIndexAny(path, ".[")
		path = path[:max(i, 0)]
	}
}

// ReadValues reads the values file name (its bytes are data) for the variables of scope, and checks them against
// p's declarations.
//
// The file is a JSON object or a TOML table of name = value. Its format is given by the extension .json or .toml,
// or else by its first byte other than white space: "{" is JSON. The name "-" stands for standard input (named
// "<stdin>" in diagnostics), whose format is always taken from its first byte. Records are a JSON array of objects
// or a TOML array of tables.
//
// Every problem is reported at once, each at the line and column of the key (or record, or field) it is about:
// a name that is not declared (with a suggestion), a name of the other scope, a value that Var.CheckIn refuses
// (records name the record, from 1, and the field), a duplicate JSON key, a JSON number too large for a float64.
// A file over MaxSourceBytes, a TOML file past MaxNesting or MaxKeyParts (see checkTOMLLimits), a JSON value nested
// deeper than MaxNesting, and a syntax error are reported alone. Messages about JSON values use JSON's words ("a
// JSON number", "a JSON object"). Required variables are not checked: which are required depends on the task, so the
// compiler reports the missing ones, and can place its own diagnostics with the ranges.
//
// The values returned are canonical (as Var.Check returns them), for the names whose values passed; nil when the file
// could not be decoded at all. The ranges place every name of the file, and the records and fields of records
// variables.
func (p *Project) ReadValues(name string, data []byte, scope Scope) (Values, ValueRanges, Diagnostics) {
	records := func(n string) bool {
		v := p.Vars[n]
		return v != nil && v.Type == TypeRecords
	}
	dv := decodeValues(name, data, records)
	if dv.m == nil {
		return nil, nil, dv.diags
	}
	diags := dv.diags
	var others []string // candidates for "did you mean": the variables of scope
	for _, n := range sortedKeys(p.Vars) {
		if v := p.Vars[n]; v.Scope == scope {
			others = append(others, n)
		}
	}
	var suggest *Suggester
	vals := make(Values, len(dv.m))
	for _, n := range sortedKeys(dv.m) {
		if dv.bad[n] {
			continue
		}
		at := dv.ranges.At(n)
		if !at.Known() {
			at = FileRange(dv.file)
		}
		v, declared := p.Vars[n]
		switch {
		case !declared:
			if suggest == nil {
				suggest = NewSuggester(others)
			}
			hint := suggest.DidYouMean(n)
			if hint == "" {
				hint = declaredHint(scope, others)
			}
			diags.Errorf(at, "unknown %s variable %q%s", scope, n, hint)
			continue
		case v.scopeSet() && v.Scope != scope:
			diags.Errorf(at, "%q is a %s variable, not a %s variable", n, v.Scope, scope)
			continue
		}
		val, errs := v.CheckAll(dv.m[n], dv.format)
		for _, e := range errs {
			rng := dv.ranges.At(e.Path(n))
			if !rng.Known() {
				rng = at
			}
			hint := ""
			if dv.format == FormatTOML {
				hint = p.subTableHint(e, n, "")
			}
			diags.Errorf(rng, "%s%s", e.Summary, hint)
		}
		if len(errs) == 0 {
			vals[n] = val
		}
	}
	return vals, dv.ranges, diags.Sort()
}

// maxListedVars is how many declared variables an unknown name's message lists at most.
const maxListedVars = 12

// declaredHint completes the message about a name that no variable of scope has and none is close to: the
// variables of scope there are (names, sorted), as unknown keys list the known ones.
func declaredHint(scope Scope, names []string) string {
	switch len(names) {
	case 0:
		return fmt.Sprintf(" (the project declares no %s variable)", scope)
	case 1:
		return fmt.Sprintf(" (the only %s variable is %q)", scope, names[0])
	}
	quoted := make([]string, min(len(names), maxListedVars))
	for i := range quoted {
		quoted[i] = strconv.Quote(names[i])
	}
	list := strings.Join(quoted, ", ")
	if more := len(names) - len(quoted); more > 0 {
		list += fmt.Sprintf(" and %d more", more)
	}
	return fmt.Sprintf(" (%s variables: %s)", scope, list)
}

// ParseValues reads variable values from a JSON object or a TOML document: a flat table of name = value. The format
// is taken as ReadValues takes it, and the file must be as valid (no duplicate JSON key, no number out of range);
// values are nil when it is not. JSON numbers are json.Number values. The values are not checked against any
// declarations: ReadValues does that, and says where each value is written.
func ParseValues(name string, data []byte) (Values, Diagnostics) {
	dv := decodeValues(name, data, nil)
	if dv.m == nil || len(dv.diags) > 0 {
		return nil, dv.diags.Sort()
	}
	return Values(dv.m), dv.diags
}

// decodedValues is a values file, decoded but not checked.
type decodedValues struct {
	file   string // the name diagnostics give the file
	format ValueFormat
	// m is nil when the file could not be decoded.
	m      map[string]any
	ranges ValueRanges
	// bad holds the names whose values have a problem reported already.
	bad   map[string]bool
	diags Diagnostics
}

// decodeValues decodes the values file name; records says which names' records and fields to place (nil: none).
func decodeValues(name string, data []byte, records func(string) bool) decodedValues {
	dv := decodedValues{file: name}
	if name == "-" {
		dv.file = StdinName
	}
	if d := checkSourceSize(dv.file, len(data), "values file"); d != nil {
		dv.diags = Diagnostics{*d}
		return dv
	}
	text, bad, ok := Normalize(data)
	if !ok {
		dv.diags.Errorf(Range{Filename: dv.file, Start: bad, End: bad}, "invalid UTF-8: value files must be UTF-8 encoded")
		return dv
	}
	f := NewFile(dv.file, text)
	switch {
	case strings.HasSuffix(name, ".json"):
		dv.format = FormatJSON
	case strings.HasSuffix(name, ".toml"):
		dv.format = FormatTOML
	case strings.HasPrefix(strings.TrimLeft(text, " \t\n\r"), "{"):
		dv.format = FormatJSON
	}
	if dv.format == FormatJSON {
		var ok bool
		dv.m, dv.ranges, dv.bad, dv.diags, ok = decodeJSONValues(f, records)
		if !ok {
			dv.m = nil
		}
		return dv
	}
	m, ix, d := parseTOML(f) // checks the TOML limits first
	if d != nil {
		dv.diags = Diagnostics{*d}
		return dv
	}
	if m == nil {
		m = map[string]any{}
	}
	dv.m = m
	dv.ranges = tomlValueRanges(f, ix, m, records)
	// The root table has no header: its names are written from the top of the file.
	first := strings.IndexByte(text, '\n')
	if first < 0 {
		first = len(text)
	}
	dv.ranges[RootValues] = Range{Filename: f.Name, Start: f.Pos(0), End: f.Pos(first)}
	return dv
}

// posCursor converts byte offsets of a file into positions, in time linear in the distance between one offset and the
// next when they come in increasing order, as a decoder meets them. File.Pos counts the runes of a line from its
// start at every call, which over the many keys of a file written on one line would take quadratic time.
type posCursor struct {
	f   *File
	off int
	pos Pos
}

// at returns the position of byte offset off (at the start of a character).
func (c *posCursor) at(off int) Pos {
	text := c.f.Text
	off = max(0, min(off, len(text)))
	if c.pos.Line == 0 || off < c.off {
		c.off, c.pos = off, c.f.Pos(off)
		return c.pos
	}
	gap := text[c.off:off]
	if i := strings.LastIndexByte(gap, '\n'); i >= 0 {
		c.pos = Pos{Line: c.pos.Line + strings.Count(gap, "\n"), Column: 1 + utf8.RuneCountInString(gap[i+1:]), Byte: off}
	} else {
		c.pos = Pos{Line: c.pos.Line, Column: c.pos.Column + utf8.RuneCountInString(gap), Byte: off}
	}
	c.off = off
	return c.pos
}

// rangeOf returns the range [start, end); start must not come before the last offset converted, for the
// conversion to take linear time.
func (c *posCursor) rangeOf(start, end int) Range {
	from := c.at(start)
	return Range{Filename: c.f.Name, Start: from, End: c.at(end)}
}
