package assemble

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/tokens"
)

// referenceBudget is the turn budget's rule as docs/reference.md#turn-budget states it, written the plain way: at
// every step it makes the values anew, renders the block in full and counts the whole message. Program.budget must
// give the same bytes, reports and values (TestBudgetAgainstReference).
func referenceBudget(prog *Program, pieces []piece, ti int, pv *prepared, sep string) ([]piece, *Budget, map[*compiled]*prepared) {
	limit := prog.Project.Turn.MaxTokens
	n := prog.tokens(joined(pieces, sep))
	b := &Budget{MaxTokens: limit, Before: n, After: n}
	if n <= limit {
		return pieces, b, nil
	}
	used := map[*compiled]*prepared{}
	pieces = slices.Clone(pieces)
	order := make([]int, len(pieces))
	top := pieces[0].c.Priority
	for i, p := range pieces {
		order[i] = i
		top = max(top, p.c.Priority)
	}
	slices.SortStableFunc(order, func(i, j int) int {
		if d := pieces[i].c.Priority - pieces[j].c.Priority; d != 0 {
			return d
		}
		return j - i
	})
	for _, i := range order {
		p := &pieces[i]
		cut := map[string]int{}
		vars := prog.shrinkVars(p.c)
		for vi := len(vars) - 1; vi >= 0; vi-- {
			v := vars[vi]
			total := len(baseItems(v, pv))
			entry := -1
			for k := 1; k <= total; k++ {
				cut[v.Name] = k
				q := shrunk(pv, cut, prog)
				r := prog.render(p.c, ti, p.level, q, nil)
				if r.err != nil || p.c.Priority == top && r.text == "" {
					cut[v.Name] = k - 1
					break
				}
				used[p.c] = q
				p.text = r.text
				n = prog.tokens(joined(pieces, sep))
				if entry < 0 {
					b.Cuts = append(b.Cuts, Cut{Block: p.c.ID, Var: v.Name})
					entry = len(b.Cuts) - 1
				}
				b.Cuts[entry].Items, b.Cuts[entry].Tokens = k, n
				if n <= limit {
					b.After = n
					return pieces, b, used
				}
			}
		}
		if p.c.Priority < top && p.text != "" {
			p.text = ""
			n = prog.tokens(joined(pieces, sep))
			b.Cuts = append(b.Cuts, Cut{Block: p.c.ID, Tokens: n})
			if n <= limit {
				b.After = n
				return pieces, b, used
			}
		}
	}
	b.After, b.Exceeded = n, true
	return pieces, b, used
}

// turnPieces renders the blocks of the first task's turn message for values turn, as assemble does before the
// budget.
func turnPieces(t testing.TB, prog *Program, turn blocks.Values) ([]piece, int, *prepared, bool) {
	t.Helper()
	task := prog.Project.Tasks[0]
	s, err := prog.NewSession(task, nil)
	if err != nil {
		t.Fatal(err)
	}
	pv := s.values.with(len(prog.turnVars))
	if diags := prog.prepare(pv, turn, blocks.ScopeTurn, task, origin{}); len(diags) > 0 {
		t.Fatal(diags)
	}
	ti := prog.taskIndex[task]
	var pieces []piece
	level := 0
	for _, sl := range prog.turn {
		c := sl.pickIndex(ti, pv.data)
		if c == nil {
			continue
		}
		under := level
		if c.Title != "" {
			under = c.Level
		}
		r := prog.render(c, ti, under, pv, nil)
		if r.err != nil {
			return nil, 0, nil, false
		}
		if r.text == "" {
			continue
		}
		if c.Title != "" {
			level = c.Level
		}
		pieces = append(pieces, piece{c: c, text: r.text, level: under})
	}
	return pieces, ti, pv, len(pieces) > 0
}

// budgetBodies are the bodies the property test gives its blocks: V is a list variable, R the records variable.
// They hold the shapes a Shrink splices (a range, bullets, join, with conditions before and anything after) and
// shapes it must not (the list read before or inside the range, a length that changes what prints, a break, two
// reads), which are rendered in full.
var budgetBodies = []string{
	"{{range .V}}- {{.}}\n{{end}}",
	"items:{{range .V}} {{.}}{{end}}",
	"{{range .V}}{{.}}{{end}}",
	"{{range $i, $e := .V}}{{if $i}}, {{end}}{{$i}}={{$e}}{{end}}",
	"{{range $e := .V}}<{{$e}}>\n{{else}}none{{end}} after {{.x}}",
	"{{bullets .V}}",
	"Intro {{.x}}\n\n{{bullets .V}}\n\nDone.",
	"{{join .V \", \"}}",
	"{{join .V .x}}",
	"{{last .V}}",
	"{{first .V}} and {{last .V}}",
	"{{if .V}}Notes:\n{{range .V}}* {{.}}\n{{end}}{{else}}none{{end}}",
	"{{len .V}} items: {{range .V}}{{.}};{{end}}",
	"{{range .V}}{{.}}\n{{end}}{{with dropped \"V\"}}(+{{.}}){{end}}",
	"{{range .V}}{{if eq (len $.V) 3}}X{{end}}{{.}}{{end}}",
	"{{if lt (len .V) 3}}{{range .V}}{{.}} {{end}}{{else}}many {{len .V}}{{end}}",
	"{{range .V}}{{.}}|{{break}}{{end}}",
	"{{range .V}}{{$x := .}}{{$x}}|{{end}}",
	"{{bullets .V}}\n{{range .V}}{{.}}{{end}}",
	"{{range .V}}{{.}}\n{{end}}{{range .V}}again {{.}}\n{{end}}",
	"{{range .V}}{{range $.a}}{{.}}{{end}}:{{.}}\n{{end}}",
	"{{range .a}}{{.}}\n{{end}}--\n{{range .u}}{{.}}\n{{end}}",
	"{{range .R}}{{.path}}: {{.note}}\n{{end}}",
	"{{range $i, $f := .R}}{{$i}} {{$f.path}}\n{{end}}{{len .R}} files{{with dropped \"R\"}}, {{.}} more{{end}}",
	"{{range .R}}{{.path}}{{end}}",
	"{{if .x}}{{range .V}}{{.}}\n{{end}}{{end}}",
	"   \n\n{{range .V}}\n\n{{.}}  \n{{end}}  \n\n",
	"{{range .V}}{{if eq . \"a\"}}{{continue}}{{end}}{{.}}+{{end}}",
}

// budgetWords are what the property test's items are made of: words, white space and newlines at both ends, and
// characters the escapers change.
var budgetWords = []string{"a", "b", "appropri", "ate", "12", "345", " ", "  ", "\n", "\n\n", "#", "- ", "*x*", "<b>", "`", "é", "{{", "\t", "x y"}

func randomItem(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(4) {
		b.WriteString(budgetWords[r.IntN(len(budgetWords))])
	}
	return b.String()
}

// randomBudgetProject returns a project of up to four turn blocks, each printing the shrink variables through one of
// budgetBodies, with random priorities and titles, and values for a turn.
func randomBudgetProject(r *rand.Rand) (fstest.MapFS, blocks.Values) {
	var order []string
	var bl strings.Builder
	bl.WriteString("[[block]]\nid = \"rb\"\nbody = \"runbook\"\n")
	for i := range 1 + r.IntN(4) {
		id := fmt.Sprintf("b%d", i)
		order = append(order, fmt.Sprintf("%q", id))
		body := budgetBodies[r.IntN(len(budgetBodies))]
		body = strings.ReplaceAll(body, "V", []string{"a", "u", "m"}[r.IntN(3)])
		body = strings.ReplaceAll(body, "R", "r")
		fmt.Fprintf(&bl, "\n[[block]]\nid = %q\npriority = %d\nbody = %q\n", id, r.IntN(3), body)
		if r.IntN(2) == 0 {
			fmt.Fprintf(&bl, "title = \"T%d\"\n", i)
		}
	}
	list := func(name, trust string) string {
		s := fmt.Sprintf("\n[vars.%s]\nscope = \"turn\"\ntype = \"list\"\nshrink = true\ntrust = %q\n", name, trust)
		if r.IntN(2) == 0 {
			s += "omitted = \"({n} more)\"\n"
		}
		if r.IntN(3) == 0 {
			s += fmt.Sprintf("max_items = %d\n", 1+r.IntN(5))
		}
		return s
	}
	sep := ""
	if r.IntN(3) == 0 {
		sep = "separator = \"\\n---\\n\"\n"
	}
	toml := fmt.Sprintf("name = \"p\"\ntasks = [\"t\"]\n\n[runbook]\norder = [\"rb\"]\n\n[turn]\norder = [%s]\nmax_tokens = 1\n%s",
		strings.Join(order, ", "), sep) +
		list("a", "trusted") + list("u", "untrusted") + list("m", "background") +
		"\n[vars.r]\nscope = \"turn\"\ntype = \"records\"\nshrink = true\n[vars.r.fields.path]\ntype = \"string\"\ntrust = \"trusted\"\n[vars.r.fields.note]\ntype = \"string\"\n" +
		"\n[vars.x]\nscope = \"turn\"\ntype = \"string\"\n"
	items := func() []string {
		out := make([]string, r.IntN(9))
		for i := range out {
			out[i] = randomItem(r)
		}
		return out
	}
	var recs []map[string]string
	for _, p := range items() {
		recs = append(recs, map[string]string{"path": p, "note": randomItem(r)})
	}
	values := blocks.Values{"a": items(), "u": items(), "m": items(), "r": recs, "x": randomItem(r)}
	return fstest.MapFS{
		"promptc.toml":  {Data: []byte(toml)},
		"blocks/x.toml": {Data: []byte(bl.String())},
	}, values
}

// The turn budget gives the bytes, the report and the values of referenceBudget, the rule done the plain way, on
// random projects at every budget from 1 token to the message's size, with the o200k_base counter (counted piece by
// piece) and with a counter of the program's own (counted whole).
func TestBudgetAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 8))
	cases := 250
	if testing.Short() {
		cases = 60
	}
	compared := 0
	for c := range cases {
		fsys, values := randomBudgetProject(r)
		prog, diags := Load(fsys)
		if len(diags) > 0 {
			t.Fatalf("case %d: %s\n%s", c, diags, fsys["blocks/x.toml"].Data)
		}
		if c%2 == 1 {
			prog.SetTokenCounter(byteCount{})
		}
		pieces, ti, pv, ok := turnPieces(t, prog, values)
		if !ok {
			continue
		}
		sep := prog.Project.Turn.Separator
		before := prog.tokens(joined(pieces, sep))
		for limit := 1; limit <= before; limit++ {
			prog.Project.Turn.MaxTokens = limit
			gotPieces, got, gotUsed := prog.budget(pieces, ti, pv, sep)
			wantPieces, want, wantUsed := referenceBudget(prog, pieces, ti, pv, sep)
			if g, w := joined(gotPieces, sep), joined(wantPieces, sep); g != w || !reflect.DeepEqual(got, want) {
				t.Fatalf("case %d, max_tokens = %d:\n%s\ngot  %q\n     %s\nwant %q\n     %s", c, limit, fsys["blocks/x.toml"].Data, g, got, w, want)
			}
			if !sameUsed(gotUsed, wantUsed) {
				t.Fatalf("case %d, max_tokens = %d: the values the blocks were rendered with differ", c, limit)
			}
			compared++
		}
	}
	if compared < cases {
		t.Errorf("only %d comparisons", compared)
	}
}

func sameUsed(a, b map[*compiled]*prepared) bool {
	if len(a) != len(b) {
		return false
	}
	for c, p := range a {
		q, ok := b[c]
		if !ok || !reflect.DeepEqual(p.data, q.data) || !maps.Equal(p.dropped, q.dropped) || !reflect.DeepEqual(p.hits, q.hits) {
			return false
		}
	}
	return true
}

// byteCount counts one token per byte.
type byteCount struct{}

func (byteCount) Count(s string) int { return len(s) }

// countSpans gives paragraphCounter's count of the text the spans make, wherever they start and end.
func TestSpansCount(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 9))
	c := &paragraphCounter{}
	for range 2000 {
		var texts []string
		for range 1 + r.IntN(4) {
			texts = append(texts, randomItem(r)+randomItem(r)+randomItem(r))
		}
		var spans []span
		var whole strings.Builder
		for _, s := range texts {
			if r.IntN(2) == 0 {
				spans = append(spans, span{s: s})
				whole.WriteString(s)
				continue
			}
			pad := randomItem(r)
			ix := c.index(pad + s + randomItem(r))
			spans = append(spans, span{ix: ix, start: len(pad), end: len(pad) + len(s)})
			whole.WriteString(s)
		}
		if got, want := c.countSpans(spans), c.Count(whole.String()); got != want {
			t.Fatalf("countSpans(%q) = %d, want %d", whole.String(), got, want)
		}
	}
}

// An indexed text's pieces, cut at lines and within long lines at words, add up to o200k_base's count of the
// whole text (tokens.Counter.CountExact), and so do the parts of it countSpans counts. The words include "/", which
// the pre-tokenizer joins to a newline after punctuation ("}\n//"), so that a cut there would show.
func TestIndexedExact(t *testing.T) {
	words := []string{"comment", "the", "Build", "THE", " ", "  ", "\t", "12", "345", "'s", "'S", "don't", "a'", "’s", "é",
		"ü ", "\n", "\n\n", " \n", "x:", "(", "), ", "-", "#", "`", "<b>", " ", "日本", "/", "}", "//"}
	r := rand.New(rand.NewPCG(28, 10))
	whole := tokens.New(tokens.O200k) // CountExact, which the tokens package holds to tiktoken's counts
	c := &paragraphCounter{}
	for k := range 300 {
		var b strings.Builder
		for range r.IntN(400) {
			w := words[r.IntN(len(words))]
			if k%2 == 0 && strings.Contains(w, "\n") {
				continue // long lines, which index cuts at words
			}
			b.WriteString(w)
		}
		s := b.String()
		want := whole.CountExact(s)
		ix := c.index(s)
		if got := c.countSpans([]span{{ix: ix, end: len(s)}}); got != want {
			t.Fatalf("countSpans(%q) = %d, want %d", s, got, want)
		}
		for range 5 {
			i := r.IntN(len(s) + 1)
			j := i + r.IntN(len(s)-i+1)
			mid := "x" + randomItem(r)
			want := whole.CountExact(s[:i] + mid + s[j:])
			if got := c.countSpans([]span{{ix: ix, end: i}, {s: mid}, {ix: ix, start: j, end: len(s)}}); got != want {
				t.Fatalf("countSpans(%q + %q + %q) = %d, want %d", s[:i], mid, s[j:], got, want)
			}
		}
	}
}
