package values

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/source"
)

// StdinName is how diagnostics name the values file "-", read from standard input.
const StdinName = "<stdin>"

// Ranges says where the parts of a values file are written, by the path ValueError.Path gives them: "name" is
// where the name's key is written (its table header, in TOML, for a table); "name[2]" where record 2 (from 1) of a
// records value is; "name[2].field" where that record's key field is; "name.RECORD" where the record named RECORD of
// keyed records given as a table is, and "name.RECORD.field" its key field; "" (RootPath) is where the table of
// names is, the one every name belongs in: a JSON file's opening brace, a TOML file's first line. A name's range is
// there even when its value was refused, so a range with no value means the name was given a value that was
// reported. A nil *Ranges places nothing.
//
// Places are kept as byte offsets of the file and turned into lines and columns when asked for, and the records of
// a records value in slices, not one map entry each: a values file of a million records is placed in a few tens of
// megabytes.
type Ranges struct {
	file    *source.File
	names   map[string]span
	records map[string]*recordSpans
}

// RootPath is the Ranges path of the table that holds a values file's names.
const RootPath = ""

// span is the bytes [start, end) of the file.
type span struct{ start, end int }

// recordSpans places the records of one records value: record i (from 0) is written at items[i], and its keys are
// keys[from[i]:from[i+1]], each key once (the first time it is written), in the order written. For keyed records
// given as a table, record i is the one named names[i] (at its name's key or header), and byName lists the records
// in the byte order of their names, for a record to be found by its name.
type recordSpans struct {
	items []span
	from  []int32
	keys  []keySpan
	// seen holds the keys of the last record once it has many, so that placing a record of many keys stays linear.
	seen   map[string]bool
	names  []string
	byName []int32
}

type keySpan struct {
	name string
	at   span
}

func newRanges(f *source.File) *Ranges {
	return &Ranges{file: f, names: map[string]span{}, records: map[string]*recordSpans{}}
}

// name places name at the bytes [start, end), unless it is placed already.
func (r *Ranges) name(name string, start, end int) {
	if _, ok := r.names[name]; !ok {
		r.names[name] = span{start, end}
	}
}

// recordsOf returns the places of name's records, to be filled in the order written.
func (r *Ranges) recordsOf(name string) *recordSpans {
	rs := r.records[name]
	if rs == nil {
		rs = &recordSpans{from: []int32{0}}
		r.records[name] = rs
	}
	return rs
}

// done ends the placing: it sorts the names of keyed records, so that At may be called from several goroutines.
func (r *Ranges) done() *Ranges {
	for _, rs := range r.records {
		if len(rs.names) == 0 {
			continue
		}
		rs.byName = make([]int32, len(rs.names))
		for i := range rs.byName {
			rs.byName[i] = int32(i)
		}
		slices.SortStableFunc(rs.byName, func(a, b int32) int { return strings.Compare(rs.names[a], rs.names[b]) })
	}
	return r
}

// item places the next record at the bytes [start, end); its keys follow with key.
func (rs *recordSpans) item(start, end int) {
	rs.items = append(rs.items, span{start, end})
	rs.from = append(rs.from, int32(len(rs.keys)))
	rs.seen = nil
}

// named places the next record of keyed records, called name, at the bytes [start, end); its keys follow with key.
func (rs *recordSpans) named(name string, start, end int) {
	rs.item(start, end)
	rs.names = append(rs.names, name)
}

// key places a key of the last record, unless that record has it placed already.
func (rs *recordSpans) key(name string, start, end int) {
	n := len(rs.items) - 1
	mine := rs.keys[rs.from[n]:]
	switch {
	case rs.seen != nil:
	case len(mine) < 16:
		for _, k := range mine {
			if k.name == name {
				return
			}
		}
	default:
		rs.seen = map[string]bool{}
		for _, k := range mine {
			rs.seen[k.name] = true
		}
	}
	if rs.seen != nil {
		if rs.seen[name] {
			return
		}
		rs.seen[name] = true
	}
	rs.keys = append(rs.keys, keySpan{name, span{start, end}})
	rs.from[n+1] = int32(len(rs.keys))
}

// find returns the record of keyed records whose name path starts with, the longest such name followed in path by a
// "." or nothing, and the rest of path after that dot.
func (rs *recordSpans) find(path string) (int, string, bool) {
	for name := path; ; {
		i, ok := slices.BinarySearchFunc(rs.byName, name, func(j int32, name string) int { return strings.Compare(rs.names[j], name) })
		if ok {
			return int(rs.byName[i]), strings.TrimPrefix(path[len(name):], "."), true
		}
		dot := strings.LastIndexByte(name, '.')
		if dot < 0 {
			return 0, "", false
		}
		name = name[:dot]
	}
}

func (r *Ranges) rangeOf(s span) source.Range { return r.file.Range(s.start, s.end) }

// Has reports whether name is written in the file.
func (r *Ranges) Has(name string) bool {
	if r == nil {
		return false
	}
	_, ok := r.names[name]
	return ok
}

// At returns where path is written, or else the nearest enclosing part that is placed ("repos[2].url", then
// "repos[2]", then "repos", then the file's table): a required field that a record lacks is placed at the record,
// a name the file lacks at the file's table. It returns the zero Range when no part is placed.
func (r *Ranges) At(path string) source.Range {
	if r == nil {
		return source.Range{}
	}
	if s, ok := r.names[path]; ok {
		return r.rangeOf(s) // a name, even one that holds "." or "["
	}
	name, rest := path, ""
	if i := strings.IndexAny(path, ".["); i >= 0 {
		name, rest = path[:i], path[i:]
	}
	record, field := 0, ""
	if after, ok := strings.CutPrefix(rest, "["); ok {
		if j := strings.IndexByte(after, ']'); j > 0 {
			if n, err := strconv.Atoi(after[:j]); err == nil && n > 0 {
				record, field = n, strings.TrimPrefix(after[j+1:], ".")
			}
		}
	} else {
		field = strings.TrimPrefix(rest, ".") // below a record variable, or a record of keyed records by name
	}
	if rng := r.place(name, record, field); rng.Known() {
		return rng
	}
	if s, ok := r.names[RootPath]; ok {
		return r.rangeOf(s)
	}
	return source.Range{}
}

// place returns where field (a path below the record, "url" or "ref.url") of record (from 1; 0 for none) of name is
// written, or the nearest enclosing part that is placed below the file's table, as At does. With no record, field
// may start with the name of a record of keyed records ("web.url").
func (r *Ranges) place(name string, record int, field string) source.Range {
	if r == nil {
		return source.Range{}
	}
	rs := r.records[name]
	i, key := -1, ""
	switch {
	case rs == nil:
	case record > 0 && record <= len(rs.items) && len(rs.names) == 0:
		i, key = record-1, field
	case record == 0 && field != "" && len(rs.names) > 0:
		if j, rest, ok := rs.find(field); ok {
			i, key = j, rest
		}
	}
	if i >= 0 {
		if key != "" {
			if j := strings.IndexAny(key, ".["); j >= 0 {
				key = key[:j]
			}
			for _, k := range rs.keys[rs.from[i]:rs.from[i+1]] {
				if k.name == key {
					return r.rangeOf(k.at)
				}
			}
		}
		return r.rangeOf(rs.items[i])
	}
	if s, ok := r.names[name]; ok {
		return r.rangeOf(s)
	}
	return source.Range{}
}

// Paths returns every placed path, sorted: each name, and each record and field of the records values.
func (r *Ranges) Paths() []string {
	if r == nil {
		return nil
	}
	var out []string
	for name := range r.names {
		out = append(out, name)
	}
	for name, rs := range r.records {
		for i := range rs.items {
			rec := fmt.Sprintf("%s[%d]", name, i+1)
			if len(rs.names) > 0 {
				rec = name + "." + rs.names[i]
			}
			out = append(out, rec)
			for _, k := range rs.keys[rs.from[i]:rs.from[i+1]] {
				out = append(out, rec+"."+k.name)
			}
		}
	}
	slices.Sort(out)
	return out
}

// ReadFile reads the values file name (its bytes are data) for the variables of scope, and checks them against p's
// declarations.
//
// The file is a JSON object or a TOML table of name = value. Its format is given by the extension .json or .toml,
// or else by its first byte other than white space: "{" is JSON. The name "-" stands for standard input (named
// "<stdin>" in diagnostics), whose format is always taken from its first byte. Records are a JSON array of objects
// or a TOML array of tables.
//
// Every problem is reported at once, up to MaxDiagnostics (the rest counted in one more diagnostic), each at the
// line and column of the key (or record, or field) it is about:
// a name that is not declared (with a suggestion), a name of the other scope, a value that TypeCheckIn refuses
// (records name the record, from 1, and the field), a duplicate JSON key, a JSON number too large for a float64.
// A file over blocks.MaxSourceBytes, a TOML file past blocks.MaxNesting or blocks.MaxKeyParts (see
// blocks.DecodeTOMLValues), a JSON value nested deeper than blocks.MaxNesting, and a syntax error are reported alone.
// Messages about JSON values use JSON's words ("a JSON number", "a JSON object"). Required variables are not
// checked: which are required depends on the task, so the compiler reports the missing ones, and can place its own
// diagnostics with the ranges.
//
// The values returned are canonical (as TypeCheck returns them), for the names whose values passed; nil when the file
// could not be decoded at all. The ranges place every name of the file, and the records and fields of records
// variables.
func ReadFile(p *blocks.Project, name string, data []byte, scope blocks.Scope) (blocks.Values, *Ranges, source.Diagnostics) {
	records := func(n string) bool {
		v := p.Vars[n]
		return v != nil && v.Type == blocks.TypeRecords
	}
	lim := &diagLimit{max: MaxDiagnostics}
	dv := decodeValues(name, data, records, lim)
	if dv.m == nil {
		return nil, nil, lim.result("a values file")
	}
	var others []string // candidates for "did you mean": the variables of scope
	for _, n := range sortedKeys(p.Vars) {
		if v := p.Vars[n]; v.Scope == scope {
			others = append(others, n)
		}
	}
	var names *suggest.Suggester
	vals := make(blocks.Values, len(dv.m))
	for _, n := range dv.names() {
		if dv.bad[n] {
			continue
		}
		at := dv.ranges.At(n)
		if !at.Known() {
			at = source.FileRange(dv.file)
		}
		v, declared := p.Vars[n]
		switch {
		case !declared:
			if !lim.listed() {
				lim.skipped(at)
				continue
			}
			if names == nil {
				names = suggest.NewSuggester(others)
			}
			hint := names.DidYouMean(n)
			if hint == "" {
				hint = declaredHint(scope, others)
			}
			lim.diags.Errorf(at, "unknown %s variable %q%s", scope, n, hint)
			continue
		case scopeSet(v) && v.Scope != scope:
			lim.errorf(at, "%q is a %s variable, not a %s variable", n, v.Scope, scope)
			continue
		}
		// Only the problems that will be listed are put into words; the rest are counted.
		report := func(record int, field string) bool {
			if lim.listed() {
				return true
			}
			if lim.more == 1 {
				rng := dv.ranges.place(n, record, field)
				if !rng.Known() {
					rng = at
				}
				lim.next = rng
			}
			return false
		}
		val, errs, ok := check(v, dv.m[n], dv.format, report, ownRecords)
		for _, e := range errs {
			rng := dv.ranges.place(n, e.Record, e.Field)
			if !rng.Known() {
				rng = at
			}
			hint := ""
			if dv.format == FormatTOML {
				hint = subTableHint(p, e, n, "")
			}
			lim.diags.Errorf(rng, "%s%s", e.Summary, hint)
		}
		if ok {
			vals[n] = val
		}
	}
	return vals, dv.ranges, lim.result("a values file")
}

// maxListedVars is how many declared variables an unknown name's message lists at most.
const maxListedVars = 12

// declaredHint completes the message about a name that no variable of scope has and none is close to: the
// variables of scope there are (names, sorted), as unknown keys list the known ones.
func declaredHint(scope blocks.Scope, names []string) string {
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

// ParseFile reads variable values from a JSON object or a TOML document: a flat table of name = value. The format
// is taken as ReadFile takes it, and the file must be as valid (no duplicate JSON key, no number out of range);
// values are nil when it is not. JSON numbers are json.Number values. The values are not checked against any
// declarations: ReadFile does that, and says where each value is written.
func ParseFile(name string, data []byte) (blocks.Values, source.Diagnostics) {
	lim := &diagLimit{max: MaxDiagnostics}
	dv := decodeValues(name, data, nil, lim)
	if dv.m == nil || len(lim.diags) > 0 {
		return nil, lim.result("a values file")
	}
	return blocks.Values(dv.m), nil
}

// decodedValues is a values file, decoded but not checked.
type decodedValues struct {
	file   string // the name diagnostics give the file
	format Format
	// m is nil when the file could not be decoded.
	m      map[string]any
	ranges *Ranges
	// bad holds the names whose values have a problem reported already.
	bad map[string]bool
}

// names returns the names of the file in the order written, so that the problems found in their values come in
// the file's order too, and the first ones listed are the first of the file.
func (dv decodedValues) names() []string {
	names := sortedKeys(dv.m)
	slices.SortStableFunc(names, func(a, b string) int {
		sa, oka := dv.ranges.names[a]
		sb, okb := dv.ranges.names[b]
		if oka != okb {
			if oka {
				return -1 // placed first
			}
			return 1
		}
		return cmp.Compare(sa.start, sb.start)
	})
	return names
}

// decodeValues decodes the values file name, reporting its problems to diags; records says which names' records and
// fields to place (nil: none).
func decodeValues(name string, data []byte, records func(string) bool, diags *diagLimit) decodedValues {
	dv := decodedValues{file: name}
	if name == "-" {
		dv.file = StdinName
	}
	if d := blocks.CheckSourceSize(dv.file, len(data), "values file"); d != nil {
		diags.diags = append(diags.diags, *d)
		return dv
	}
	text, bad, ok := source.Normalize(data)
	if !ok {
		diags.diags.Errorf(source.Range{Filename: dv.file, Start: bad, End: bad}, "invalid UTF-8: value files must be UTF-8 encoded")
		return dv
	}
	f := source.NewFile(dv.file, text)
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
		dv.m, dv.ranges, dv.bad, ok = decodeJSONValues(f, records, diags)
		if !ok {
			dv.m = nil
		}
		return dv
	}
	dv.ranges = newRanges(f)
	m, d := blocks.DecodeTOMLValues(f, records, tomlPlaces{dv.ranges}) // checks the TOML limits first
	if d != nil {
		diags.diags = append(diags.diags, *d)
		return dv
	}
	dv.m = m
	dv.ranges.done()
	// The root table has no header: its names are written from the top of the file.
	first := strings.IndexByte(text, '\n')
	if first < 0 {
		first = len(text)
	}
	dv.ranges.names[RootPath] = span{0, first}
	return dv
}

// tomlPlaces fills Ranges with what blocks.DecodeTOMLValues places of a TOML values file.
type tomlPlaces struct{ r *Ranges }

func (t tomlPlaces) Name(name string, start, end int) { t.r.name(name, start, end) }

func (t tomlPlaces) Placed(name string) (int, int, bool) {
	s, ok := t.r.names[name]
	return s.start, s.end, ok
}

func (t tomlPlaces) Record(name string, start, end int) { t.r.recordsOf(name).item(start, end) }

func (t tomlPlaces) NamedRecord(name, record string, start, end int) {
	t.r.recordsOf(name).named(record, start, end)
}

func (t tomlPlaces) RecordKey(name, key string, start, end int) {
	t.r.recordsOf(name).key(key, start, end)
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// scopeSet reports whether v's scope is declared: a variable's is, a field's is not.
func scopeSet(v *blocks.Var) bool {
	return v.Scope == blocks.ScopeSession || v.Scope == blocks.ScopeTurn
}

// quoteName is a variable's name as messages name it: Go-quoted, so that a name that is not valid (and reported
// as such) cannot print a control character either, or "(without id)".
func quoteName(id string) string {
	if id == "" {
		return "(without id)"
	}
	return strconv.Quote(id)
}
