package assemble_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/hostile"
	"github.com/promptc/promptc/internal/mdcheck"
	"github.com/promptc/promptc/source"
)

// The property of docs/reference.md#trust-levels, end to end: whatever an untrusted, background or code value holds, the artifact has
// exactly the headings, marker occurrences (none) and block boundaries it has with the plain value "x" in its
// place, and rendering never fails because of a value.
//
// hostileProject, testdata/hostile.txtar, places every kind of value where authors place it: strings and text inline in a sentence, at the
// start of a line and alone on a line, in titled blocks; lists through bullets, join and range; background values
// on lines of their own; code values alone on their line between text lines, with and without lang; records
// ranged over with a field of each trust; session values in runbook blocks and turn values in turn blocks. Every
// block holds text besides its values, and every `when` reads a plain bool, so no value can legitimately remove a
// block: a value that escapes to nothing (a lone control character) leaves its block's other text in place.
//
// The targets' markers are the HTML comments projects declare (hostile.Begin and hostile.End among them), so the
// corpus's forged markers are the real ones.
func hostileProject() fstest.MapFS { return testdataProject("hostile.txtar") }

// hostileTrusts are the trust levels whose values the property covers: trusted values are the author's own.
var hostileTrusts = []blocks.Trust{blocks.Untrusted, blocks.Background, blocks.Code, blocks.Markdown}

// hostileMarkers are the begin and end markers of hostileProject's targets.
var hostileMarkers = []string{hostile.Begin, hostile.End, "<!-- promptc:begin -->", "<!-- promptc:end -->"}

var (
	hostileProgOnce sync.Once
	hostileProg     *assemble.Program
	hostileProgErr  string
)

// loadHostile compiles hostileProject once for every test and fuzzer of this file.
func loadHostile(t testing.TB) *assemble.Program {
	t.Helper()
	hostileProgOnce.Do(func() {
		prog, diags := assemble.Load(hostileProject())
		if len(diags) > 0 {
			hostileProgErr = diags.String()
			return
		}
		hostileProg = prog
	})
	if hostileProg == nil {
		t.Fatalf("hostile project has diagnostics:\n%s", hostileProgErr)
	}
	return hostileProg
}

// hostileValues returns the session and turn values of hostileProject with a in every string, text and list item
// and every record field of trust level trust, and b in the second item of each list and the second record; every
// other value is plain. So a == b == "x" is the reference the property compares with.
func hostileValues(p *blocks.Project, trust blocks.Trust, a, b string) (session, turn blocks.Values) {
	session, turn = blocks.Values{}, blocks.Values{}
	pick := func(t blocks.Trust, v string) string {
		if t == trust {
			return v
		}
		return "plain"
	}
	for name, v := range p.Vars {
		var val any
		switch v.Type {
		case blocks.TypeString, blocks.TypeText:
			val = pick(v.Trust, a)
		case blocks.TypeList:
			val = []string{pick(v.Trust, a), pick(v.Trust, b), "last"}
		case blocks.TypeRecords:
			recs := []map[string]any{{}, {}}
			for i, s := range []string{a, b} {
				for _, f := range v.Fields {
					switch {
					case f.Type == blocks.TypeInt:
						recs[i][f.Name] = 42
					case f.Trust == blocks.Trusted:
						recs[i][f.Name] = "https://git.example/acme/api"
					default:
						recs[i][f.Name] = pick(f.Trust, s)
					}
				}
			}
			val = recs
		case blocks.TypeBool:
			val = true // every `when` holds, so every block renders
		case blocks.TypeInt:
			val = 7
		}
		if v.Trust == blocks.Trusted && (v.Type == blocks.TypeString || v.Type == blocks.TypeText) {
			val = "ISS-42"
		}
		if v.Scope == blocks.ScopeTurn {
			turn[name] = val
		} else {
			session[name] = val
		}
	}
	return session, turn
}

// hostileRender renders every task's runbook and turn message with the given values through the Go API, keyed by
// "task/runbook" and "task/turn"; an error is a failure of the property.
func hostileRender(t testing.TB, prog *assemble.Program, session, turn blocks.Values) map[string]*assemble.Artifact {
	t.Helper()
	out := map[string]*assemble.Artifact{}
	for _, task := range prog.Project.Tasks {
		s, err := prog.NewSession(task, session)
		if err != nil {
			t.Fatalf("task %s: NewSession failed:\n%v", task, err)
		}
		a, err := s.Turn(turn)
		if err != nil {
			t.Fatalf("task %s: Turn failed:\n%v", task, err)
		}
		out[task+"/runbook"], out[task+"/turn"] = s.Runbook(), a
	}
	return out
}

// shape is what the property compares between an artifact rendered with hostile values and with plain ones.
type shape struct {
	Headings []string // every heading line outside fenced code blocks, setext ones as "=: title" or "-: title"
	Blocks   []string // the block ids of the spans, in order
}

func shapeOf(a *assemble.Artifact) shape {
	var s shape
	s.Headings = headings(a.Text)
	for _, sp := range a.Spans {
		s.Blocks = append(s.Blocks, sp.Block.ID)
	}
	return s
}

func (s shape) String() string {
	return fmt.Sprintf("headings %q\nblocks %q", s.Headings, s.Blocks)
}

// checkHostileShape asserts the property for one artifact: the shape of got is the shape of want, no marker of any
// target occurs in it, its text is valid UTF-8, and its spans tile it.
func checkHostileShape(t testing.TB, what string, got, want *assemble.Artifact) {
	t.Helper()
	for _, m := range hostileMarkers {
		if n := strings.Count(got.Text, m); n != 0 {
			t.Errorf("%s: %d occurrences of marker %q", what, n, m)
		}
	}
	if !utf8.ValidString(got.Text) {
		t.Errorf("%s: artifact is not valid UTF-8", what)
	}
	checkSpans(t, got)
	if g, w := shapeOf(got), shapeOf(want); !nests(g.Headings, w.Headings) || !slices.Equal(g.Blocks, w.Blocks) {
		t.Errorf("%s: the value changed the artifact's structure\n got %s\nwant %s\ntext:\n%s", what, g, w, excerpt(got.Text))
	}
}

// nests reports whether got is want with, at most, ATX headings inserted that each nest under the heading before
// them (a level-2 one at the start): what a markdown value may add, its own headings shifted below the block's.
// For every other trust level, got must equal want.
func nests(got, want []string) bool {
	j, level := 0, 2
	for _, h := range got {
		if j < len(want) && h == want[j] {
			level = atxLevel(h)
			j++
			continue
		}
		if n := atxLevel(h); n == 0 || n <= level {
			return false
		}
	}
	return j == len(want)
}

// atxLevel is the level of a heading as headings spells it.
func atxLevel(h string) int { return len(h) - len(strings.TrimLeft(h, "#")) }

// excerpt keeps failure messages readable when the value is a megabyte.
func excerpt(s string) string {
	const max = 4000
	if len(s) <= max {
		return s
	}
	return s[:max/2] + fmt.Sprintf("\n[… %d bytes …]\n", len(s)-max) + s[len(s)-max/2:]
}

// hostileReference caches the artifacts rendered with "x" for each trust level.
var hostileReference sync.Map // blocks.Trust → map[string]*assemble.Artifact

func reference(t testing.TB, prog *assemble.Program, trust blocks.Trust) map[string]*assemble.Artifact {
	t.Helper()
	if r, ok := hostileReference.Load(trust); ok {
		return r.(map[string]*assemble.Artifact)
	}
	s, u := hostileValues(prog.Project, trust, "x", "x")
	r := hostileRender(t, prog, s, u)
	hostileReference.Store(trust, r)
	return r
}

// checkHostile checks the property for values a and b of trust level trust (see hostileValues).
func checkHostile(t testing.TB, prog *assemble.Program, trust blocks.Trust, a, b string) {
	t.Helper()
	want := reference(t, prog, trust)
	s, u := hostileValues(prog.Project, trust, a, b)
	got := hostileRender(t, prog, s, u)
	for _, k := range slices.Sorted(maps.Keys(want)) {
		checkHostileShape(t, fmt.Sprintf("%s %s", trust, k), got[k], want[k])
	}
}

// TestHostileValues checks the property for every value of the corpus, the megabyte ones included, at every trust
// level a value can be escaped with.
func TestHostileValues(t *testing.T) {
	prog := loadHostile(t)
	// The reference itself must show what the property protects: every block, every heading and the fences.
	ref := reference(t, prog, blocks.Untrusted)
	if got, want := shapeOf(ref["issue/runbook"]).Headings, []string{
		"# Acme Runbook", "## Identity", "## Team", "## Project Context", "## Examples", "### Repositories", "## Squad Leader",
		"## Workspace Note", "### Functions",
	}; !slices.Equal(got, want) {
		t.Fatalf("reference runbook headings = %q, want %q", got, want)
	}
	if got, want := shapeOf(ref["chat/turn"]).Blocks, []string{"assignment", "comment", "change", "history", "attachments", "brief"}; !slices.Equal(got, want) {
		t.Fatalf("reference turn blocks = %q, want %q", got, want)
	}
	for _, c := range hostile.Corpus() {
		for _, trust := range hostileTrusts {
			t.Run(trust.String()+"/"+c.Name, func(t *testing.T) {
				if testing.Short() && len(c.Value) > 1<<16 {
					t.Skip("megabyte value in -short mode")
				}
				checkHostile(t, prog, trust, c.Value, c.Value)
			})
		}
	}
}

// TestHostileValuesMixed pairs corpus values, so that one list item or record follows another hostile one: an
// unclosed construct in the first must not reach into the second.
func TestHostileValuesMixed(t *testing.T) {
	prog := loadHostile(t)
	small := hostile.Small()
	for i, c := range small {
		d := small[(i*7+3)%len(small)]
		for _, trust := range hostileTrusts {
			t.Run(trust.String()+"/"+c.Name+"+"+d.Name, func(t *testing.T) {
				checkHostile(t, prog, trust, c.Value, d.Value)
			})
		}
	}
}

// FuzzHostileValue runs the property on arbitrary values at every trust level. value goes where TestHostileValues
// puts a corpus value; raw, arbitrary bytes as a Go caller may pass them (invalid UTF-8 included), goes into the
// second item of every list and the second record. It is seeded from the whole corpus, the megabyte values cut to
// their first 4 KiB (TestHostileValues checks them whole): one execution on a megabyte takes a second, and the
// fuzzer would spend its time minimizing them. For the same reason inputs are cut to 64 KiB.
func FuzzHostileValue(f *testing.F) {
	for _, c := range hostile.Corpus() {
		f.Add(c.Value[:min(len(c.Value), 4<<10)], []byte("x"))
	}
	small := hostile.Small()
	for i := range small {
		f.Add("x", []byte(small[(i*7+3)%len(small)].Value))
	}
	for _, m := range hostileMarkers {
		// Values that assemble a marker only beside another value or the text around them (rotatedMarker).
		f.Add(rotatedMarker(m, len(m)/2), []byte(m[:len(m)/2]))
	}
	prog := loadHostile(f)
	f.Fuzz(func(t *testing.T, value string, raw []byte) {
		const max = 64 << 10
		value, raw = value[:min(len(value), max)], raw[:min(len(raw), max)]
		for _, trust := range hostileTrusts {
			checkHostile(t, prog, trust, value, string(raw))
		}
	})
}

// rotatedMarker is m's end from byte k, then its beginning: no marker alone, but printed twice in a row (as
// {{.agent}}{{.email}}{{.agent}} does) it spells m whole across two values.
func rotatedMarker(m string, k int) string { return m[k:] + m[:k] }

// TestHostileAssembledMarkers: values that hold no marker each but assemble one together, or with the text around
// them, keep the property at every trust level: the occurrence is broken inside a value, never reported.
func TestHostileAssembledMarkers(t *testing.T) {
	prog := loadHostile(t)
	for _, m := range hostileMarkers {
		for k := 1; k < len(m); k += 3 {
			for _, trust := range hostileTrusts {
				t.Run(fmt.Sprintf("%s/%s/%d", trust, m, k), func(t *testing.T) {
					checkHostile(t, prog, trust, rotatedMarker(m, k), m[:k])
				})
			}
		}
	}
}

// TestAssembledMarkerFromListItems: four list items joined by "-" spell the marker BEGIN-PLAIN-RUNTIME-BLOCK; no
// item holds half of it. The render succeeds, the occurrence broken after its first character, which an item
// wrote; the same marker written by the block itself, or by a trusted value, stays an error.
func TestAssembledMarkerFromListItems(t *testing.T) {
	project := func(body, trust string) string {
		return `
-- promptc.toml --
name  = "m"
tasks = ["t"]
[runbook]
order = ["b"]
[vars.labels]
scope = "session"
type  = "list"
trust = "` + trust + `"
[[target]]
name  = "x"
file  = "CLAUDE.md"
begin = "BEGIN-PLAIN-RUNTIME-BLOCK"
end   = "END-PLAIN-RUNTIME-BLOCK"
-- blocks/b.toml --
[[block]]
id   = "b"
body = '` + body + `'
`
	}
	labels := blocks.Values{"labels": []string{"BEGIN", "PLAIN", "RUNTIME", "BLOCK"}}
	tests := []struct{ name, body, trust, want, wantErr string }{
		{name: "join", body: `Labels: {{join .labels "-"}}.`, trust: "untrusted", want: "Labels: B\\EGIN-PLAIN-RUNTIME-BLOCK.\n"},
		{name: "join background", body: `{{join .labels "-"}}`, trust: "background", want: "> BEGIN-> PLAIN-> RUNTIME-> BLOCK\n"},
		{name: "range", body: `{{range $i, $l := .labels}}{{if $i}}-{{end}}{{$l}}{{end}}`, trust: "untrusted", want: "B\\EGIN-PLAIN-RUNTIME-BLOCK\n"},
		{name: "value after the author's text", body: `BEGIN-PLAIN-RUNTIME-{{index .labels 3}}`, trust: "untrusted", want: "BEGIN-PLAIN-RUNTIME-B\\LOCK\n"},
		{name: "markdown", body: `{{join .labels "-"}}`, trust: "markdown", want: "B\\EGIN-PLAIN-RUNTIME-BLOCK\n"},
		{name: "trusted", body: `{{join .labels "-"}}`, trust: "trusted", wantErr: "the runbook of task \"t\" contains the begin marker of target \"x\" (from block \"b\")"},
		{name: "author", body: `{{"BEGIN-PLAIN-RUNTIME-BLOCK"}} {{join .labels ""}}`, trust: "untrusted", wantErr: "the runbook of task \"t\" contains the begin marker of target \"x\" (from block \"b\")"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prog, diags := assemble.Load(archive(project(tt.body, tt.trust)))
			if len(diags) > 0 {
				t.Fatal(diags)
			}
			a, err := prog.Runbook("t", labels)
			switch {
			case tt.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Runbook: %v, want an error holding %q", err, tt.wantErr)
				}
			case err != nil:
				t.Fatalf("Runbook: %v", err)
			case a.Text != tt.want:
				t.Errorf("runbook = %q, want %q", a.Text, tt.want)
			default:
				checkSpans(t, a)
			}
		})
	}
}

// TestHostileValuesFixture renders a few corpus values from a fixture file, as `promptc build` does: a value
// written in TOML (with escapes for the characters TOML cannot hold raw) keeps the property, and renders the same
// bytes as the same value given through the Go API. Fixtures cannot hold invalid UTF-8, so those cases are left to
// the Go API.
func TestHostileValuesFixture(t *testing.T) {
	names := []string{
		"plain", "empty", "forged heading mid-value", "setext underline", "both markers", "end marker split by CR",
		"end marker twice overlapping", "fence closing a block", "fence 10", "tilde fence 4", "im_start", "CR CRLF LF",
		"RLO", "BOM", "line separator", "multibyte", "control 00", "control 1B", "control 85", "every C0 byte",
		"end marker prefix at the end", "html block", "many newlines then heading", "trailing backslash",
	}
	byName := map[string]string{}
	for _, c := range hostile.Small() {
		byName[c.Name] = c.Value
	}
	prog := loadHostile(t)
	for _, name := range names {
		value, ok := byName[name]
		if !ok {
			t.Fatalf("no case %q in the corpus", name)
		}
		if !utf8.ValidString(value) {
			t.Fatalf("case %q is not valid UTF-8: a fixture cannot hold it", name)
		}
		for _, trust := range hostileTrusts {
			t.Run(trust.String()+"/"+name, func(t *testing.T) {
				fsys := hostileProject()
				for fixture, v := range map[string]string{"hostile": value, "plain": "x"} {
					s, u := hostileValues(prog.Project, trust, v, v)
					fsys["fixtures/"+fixture+".toml"] = &fstest.MapFile{Data: []byte(fixtureTOML(s, u))}
				}
				built := map[string]*assemble.Artifact{}
				for _, a := range mustBuild(t, fsys) {
					built[a.Path] = a
				}
				s, u := hostileValues(prog.Project, trust, value, value)
				api := hostileRender(t, prog, s, u)
				for _, task := range prog.Project.Tasks {
					for _, kind := range []struct{ key, suffix string }{{"runbook", "runbook.md"}, {"turn", "turn-1.md"}} {
						got, want := built[task+"/hostile."+kind.suffix], built[task+"/plain."+kind.suffix]
						if got == nil || want == nil {
							t.Fatalf("the build lacks %s/hostile.%s or %s/plain.%[2]s", task, kind.suffix, task)
						}
						checkHostileShape(t, got.Path, got, want)
						if a := api[task+"/"+kind.key]; got.Text != a.Text {
							t.Errorf("%s: the fixture renders\n%q\nthe Go API\n%q", got.Path, got.Text, a.Text)
						}
					}
				}
			})
		}
	}
}

// fixtureTOML writes session and turn values as a fixture file with one turn.
func fixtureTOML(session, turn blocks.Values) string {
	var b strings.Builder
	b.WriteString("[session]\n")
	writeTOMLValues(&b, "session", session)
	b.WriteString("\n[[turn]]\n")
	writeTOMLValues(&b, "turn", turn)
	return b.String()
}

func writeTOMLValues(b *strings.Builder, table string, vals blocks.Values) {
	names := slices.Sorted(maps.Keys(vals))
	var records []string
	for _, name := range names {
		switch v := vals[name].(type) {
		case []map[string]any:
			records = append(records, name)
		default:
			fmt.Fprintf(b, "%s = %s\n", name, tomlValue(v))
		}
	}
	// Arrays of tables come after the table's plain keys: [[session.repos]] starts a new table.
	for _, name := range records {
		for _, rec := range vals[name].([]map[string]any) {
			fmt.Fprintf(b, "[[%s.%s]]\n", table, name) // inside the table just opened, or the last [[turn]]
			for _, f := range slices.Sorted(maps.Keys(rec)) {
				fmt.Fprintf(b, "%s = %s\n", f, tomlValue(rec[f]))
			}
		}
	}
}

func tomlValue(v any) string {
	switch x := v.(type) {
	case string:
		return tomlString(x)
	case []string:
		parts := make([]string, len(x))
		for i, s := range x {
			parts[i] = tomlString(s)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case bool, int:
		return fmt.Sprint(x)
	}
	panic(fmt.Sprintf("no TOML for %T", v))
}

// tomlString writes s as a TOML basic string: printable ASCII as it is, everything else as \u or \U escapes, so that
// control characters, CR and format characters reach the loader exactly.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			fmt.Fprintf(&b, `\U%08X`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// headings lists the headings a CommonMark reader (goldmark) finds in text, at any depth but inside block quotes
// (quoted text is background), as ATX heading lines: "## Title".
func headings(text string) []string { return mdcheck.Headings(text) }

// TestHostileValueNextToText: a value placed against the block's own text keeps the property: the text beside it
// cannot complete what the value starts.
func TestHostileValueNextToText(t *testing.T) {
	const manifest = `
-- promptc.toml --
name  = "gaps"
tasks = ["t"]
[runbook]
order = ["a"]
[vars.agent]
scope = "session"
type  = "string"
[vars.team]
scope = "session"
type  = "list"
[vars.diff]
scope = "session"
type  = "text"
trust = "code"
[[target]]
name  = "claude"
file  = "CLAUDE.md"
begin = "<!-- BEGIN ACME-RUNTIME (auto-managed; do not edit) -->"
end   = "<!-- END ACME-RUNTIME -->"
-- blocks/a.toml --
[[block]]
id    = "a"
title = "A"
body  = '''
`
	render := func(t *testing.T, body string, vals blocks.Values) (*assemble.Artifact, source.Diagnostics, error) {
		t.Helper()
		prog, diags := assemble.Load(archive(manifest + body + "'''\n"))
		if len(diags) > 0 {
			return nil, diags, nil
		}
		a, err := prog.Runbook("t", vals)
		return a, nil, err
	}
	plain := blocks.Values{"agent": "x", "team": []string{"x", "Bob"}, "diff": "x"}
	for _, c := range []struct {
		name, body string
		vals       blocks.Values
		// check reports what is wrong with the result; diags are the compile diagnostics, when there are any.
		check func(t *testing.T, got *assemble.Artifact, diags source.Diagnostics, err error)
	}{{
		// The value ends with most of the end marker, and the block's " -->" would finish it: BreakMarkerEdges
		// breaks the value's piece, so the block renders.
		name: "block text after a value completes a marker",
		body: "<!-- generated for {{.agent}} -->\nYou work on issues.\n",
		vals: blocks.Values{"agent": "<!-- END ACME-RUNTIME", "team": []string{"x"}, "diff": "x"},
	}} {
		t.Run(c.name, func(t *testing.T) {
			got, diags, err := render(t, c.body, c.vals)
			if c.check != nil {
				c.check(t, got, diags, err)
				return
			}
			if len(diags) > 0 {
				t.Fatalf("project has diagnostics:\n%s", diags)
			}
			if err != nil {
				t.Fatalf("rendering failed: %v", err)
			}
			want, _, err := render(t, c.body, plain)
			if err != nil {
				t.Fatalf("rendering the plain value failed: %v", err)
			}
			checkHostileShape(t, c.name, got, want)
		})
	}
}

// TestBackslashMarkerValues: a target whose marker holds Markdown escapes (`\<END\>`) is the escaped form of the
// untrusted value `<END>`; breaking it with a backslash after its first character would make it again. No value,
// alone or beside the author's text, makes such a render fail (docs/values.md, markers from several values): each
// occurrence is broken inside the value's bytes, and the artifact holds no marker.
func TestBackslashMarkerValues(t *testing.T) {
	project := func(body string) string {
		return `
-- promptc.toml --
name  = "m"
tasks = ["t"]
[runbook]
order = ["b"]
[vars.v]
scope = "session"
type  = "string"
[[target]]
name  = "x"
file  = "CLAUDE.md"
begin = "<!-- BEGIN -->"
end   = '\<END\>'
-- blocks/b.toml --
[[block]]
id   = "b"
body = '''` + body + `'''
`
	}
	tests := []struct{ name, body, value, want string }{
		{"the value's escaped form is the marker", `V: {{.v}}`, "<END>", `V: \<\END\>` + "\n"},
		{"twice", `{{.v}}{{.v}}`, "<END>", `\<\END\>\<\END\>` + "\n"},
		{"the author's backslash before the value", `V: \{{.v}}END\>`, "<", `V: \\<\END\>` + "\n"},
		{"the value's backslashes before the author's text", `V: {{.v}}<END\>`, `a\\`, `V: a\\\\/<END\>` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prog, diags := assemble.Load(archive(project(tt.body)))
			if len(diags) > 0 {
				t.Fatal(diags)
			}
			a, err := prog.Runbook("t", blocks.Values{"v": tt.value})
			if err != nil {
				t.Fatalf("Runbook: %v", err)
			}
			if a.Text != tt.want {
				t.Errorf("runbook = %q, want %q", a.Text, tt.want)
			}
			if strings.Contains(a.Text, `\<END\>`) {
				t.Errorf("runbook %q holds the end marker", a.Text)
			}
			checkSpans(t, a)
		})
	}
}
