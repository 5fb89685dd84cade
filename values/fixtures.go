package values

import (
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
)

// Load reads the project rooted at fsys as blocks.Load does, then checks the values of its fixtures: the one way a
// front end loads a project (promptc.Open, assemble.Load, the language server through them), so that none sees a
// fixture value nobody checked. Each value of a fixture's [session] and [[turn]] tables is checked against its
// declaration (the type check TypeCheckIn applies, records and keyed records at every depth, decode = "json"
// texts); a value that does not fit is reported at its key (or the record, or the field), and left out. Then each
// fixture's session values start from those of the fixture it extends (docs/reference.md#fixturestoml), which its
// own override key by key, and every fixture that renders a task must hold the session values required for every
// task, and each of its turns the turn values required: a value given but refused, or given in the wrong table, is
// not reported as missing too.
//
// The diagnostics are the loader's and the check's, sorted; the project is returned even when there are some, as
// blocks.Load returns it.
func Load(fsys fs.FS) (*blocks.Project, source.Diagnostics) {
	p, diags := blocks.Load(fsys)
	return p, withFixtures(p, diags)
}

// LoadCached is Load through blocks.LoadCached, reusing what an earlier load through c read and parsed; c may be
// nil.
func LoadCached(fsys fs.FS, c *blocks.FileCache) (*blocks.Project, source.Diagnostics) {
	p, diags := blocks.LoadCached(fsys, c)
	return p, withFixtures(p, diags)
}

// withFixtures checks p's fixture values and returns diags with the check's problems, sorted.
func withFixtures(p *blocks.Project, diags source.Diagnostics) source.Diagnostics {
	if more := checkFixtures(p); len(more) > 0 {
		diags = append(diags, more...).Sort()
	}
	return diags
}

// fixtureCheck checks the values of a project's fixtures, each once, a fixture's Base before it.
type fixtureCheck struct {
	p     *blocks.Project
	diags source.Diagnostics
	// bad holds, for each fixture checked, its session variables given a value that was reported (of the wrong
	// type, or in the wrong table), with those of what it extends: present but wrong, so not reported as missing.
	bad map[*blocks.Fixture]map[string]bool
	// required holds the required variables of each scope, by name: what requireAll looks for in every table.
	required map[blocks.Scope][]string
}

// checkFixtures checks the values of every fixture of p that Load read (docs/values.md), sets its Session, Turns
// and SessionFrom, and returns the problems found.
func checkFixtures(p *blocks.Project) source.Diagnostics {
	c := &fixtureCheck{p: p, bad: map[*blocks.Fixture]map[string]bool{}, required: map[blocks.Scope][]string{}}
	for _, name := range slices.Sorted(maps.Keys(p.Vars)) {
		if v := p.Vars[name]; v.Required {
			c.required[v.Scope] = append(c.required[v.Scope], name)
		}
	}
	for _, f := range p.Fixtures {
		c.fixture(f)
	}
	for _, f := range p.Fixtures {
		if f.Implicit || f.Extends != "" && f.Base == nil || len(f.Tasks) == 0 {
			continue // a broken chain is reported once; a base with tasks = [] renders nothing and needs nothing
		}
		what, at := "[session]", f.Table.Header
		if f.SessionTable != nil {
			at = f.SessionTable.Header
		}
		if f.Extends != "" {
			what = "[session] (with what it extends)"
		}
		c.requireAll(at, f.Session, c.bad[f], blocks.ScopeSession, what)
	}
	return c.diags
}

// fixture checks f's own values, once, and starts its session values from those of its Base.
func (c *fixtureCheck) fixture(f *blocks.Fixture) {
	if _, done := c.bad[f]; done || f.Implicit {
		return
	}
	bad := map[string]bool{}
	c.bad[f] = bad
	session, from := blocks.Values{}, map[string]*blocks.Table{}
	var inSession []string // turn variables given in [session]: not missing from every turn as well
	if t := f.RawSession; t != nil {
		session = c.table(f, t, bad)
		for k := range session {
			from[k] = f.SessionTable
		}
		inSession = t.Misplaced
	}
	ownTurns := f.RawTurns != nil
	var turns []blocks.Values
	for _, t := range f.RawTurns {
		// A turn's invalid values are its own; a session variable misplaced in a turn is the session's.
		turnBad := map[string]bool{}
		for _, k := range inSession {
			turnBad[k] = true
		}
		vals := c.table(f, t, turnBad)
		c.requireAll(t.Table.Header, vals, turnBad, blocks.ScopeTurn, "[[turn]]")
		turns = append(turns, vals)
		for _, k := range t.Misplaced {
			bad[k] = true
		}
	}
	for _, k := range inSession {
		bad[k] = true
	}
	f.RawSession, f.RawTurns = nil, nil
	if base := f.Base; base != nil {
		c.fixture(base)
		session = merged(base.Session, session)
		from = merged(base.SessionFrom, from)
		maps.Copy(bad, c.bad[base])
		if !ownTurns {
			turns = base.Turns
		}
	}
	f.Session, f.SessionFrom, f.Turns = session, from, turns
}

// merged is base with over's entries over it, in a new map.
func merged[M ~map[K]V, K comparable, V any](base, over M) M {
	out := maps.Clone(base)
	if out == nil {
		out = M{}
	}
	maps.Copy(out, over)
	return out
}

// table checks the values of one table of f's file and returns those that fit; the names of those that do not are
// added to bad.
func (c *fixtureCheck) table(f *blocks.Fixture, t *blocks.TableValues, bad map[string]bool) blocks.Values {
	name := "session"
	if t.Turn > 0 {
		name = "turn"
	}
	vals := make(blocks.Values, len(t.Raw))
	for _, k := range slices.Sorted(maps.Keys(t.Raw)) {
		v := c.p.Vars[k]
		// The table's maps are the loader's own, read once: its records become the checked ones, not copies.
		val, verr := checkFirst(v, t.Raw[k], FormatTOML, ownRecords)
		if verr != nil {
			at := f.PlaceValue(t, k, verr.Record, verr.Field, v.Key != "")
			c.diags.Errorf(at, "%s%s", verr.Summary, subTableHint(c.p, verr, k, name))
			bad[k] = true
			continue
		}
		vals[k] = val
	}
	return vals
}

// requireAll reports the required variables of scope that vals lacks, except those in bad (given, and reported).
func (c *fixtureCheck) requireAll(at source.Range, vals blocks.Values, bad map[string]bool, scope blocks.Scope, what string) {
	for _, name := range c.required[scope] {
		if _, ok := vals[name]; !ok && !bad[name] {
			c.diags.Errorf(at, "required %s variable %q is missing from %s", scope, name, what)
		}
	}
}

// subTableHint explains the sub-table trap of TOML: a key written after a [[turn.NAME]] header belongs to the last
// record of NAME, not to the turn. When an undeclared field of a records value has the name of a session or turn
// variable, that is what most likely happened, and the hint says where the key belongs. table is the TOML table
// the records value is in ("turn", "session", or "" at the top of a values file).
func subTableHint(p *blocks.Project, e *ValueError, name, table string) string {
	if !e.Undeclared || e.Record == 0 || strings.ContainsAny(e.Field, ".[") {
		return ""
	}
	v, ok := p.Vars[e.Field]
	if !ok || !scopeSet(v) {
		return ""
	}
	header := "[[" + name + "]]"
	if table != "" {
		header = "[[" + table + "." + name + "]]"
	}
	above := "above the first " + header + " header"
	if table != "" {
		above += ", in the [" + table + "] table itself"
		if table == "turn" {
			above = "above the first " + header + " header, right after its [[turn]]"
		}
	}
	return fmt.Sprintf("; %q is a %s variable: in TOML, a key written after a %s header belongs to that record, so move the key %s", e.Field, v.Scope, header, above)
}
