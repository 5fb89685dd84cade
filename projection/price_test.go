package projection_test

import (
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/projection"
)

// trackerFS is the reference project as a map, with edit applied to each file's text (old → new pairs, each of
// which must match once in the file named).
func trackerFS(t *testing.T, edits ...[3]string) fstest.MapFS {
	t.Helper()
	root := os.DirFS("../examples/tracker")
	m := fstest.MapFS{}
	err := fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(p, "golden/") {
			return err
		}
		b, err := fs.ReadFile(root, p)
		m[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range edits {
		f := m[e[0]]
		if f == nil || strings.Count(string(f.Data), e[1]) != 1 {
			t.Fatalf("%s does not hold %q once", e[0], e[1])
		}
		f.Data = []byte(strings.Replace(string(f.Data), e[1], e[2], 1))
	}
	return m
}

func load(t *testing.T, fsys fs.FS) *assemble.Program {
	t.Helper()
	prog, diags := assemble.Load(fsys)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	return prog
}

func price(t *testing.T, before, after *assemble.Program, invalidated map[string]int, perDay float64) projection.ChangePrice {
	t.Helper()
	cat, err := projection.NewCatalog(nil)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := projection.PriceChange(before, after, invalidated,
		[]projection.Traffic{{Task: "chat", Model: "claude-sonnet-4-5", RequestsPerDay: perDay}}, cat, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 {
		t.Fatalf("%d prices, want 1", len(ps))
	}
	return ps[0]
}

func TestPriceTurnOnlyChangeCostsNothing(t *testing.T) {
	before := load(t, trackerFS(t))
	// Same length: a turn message's bytes change, no prefix does.
	after := load(t, trackerFS(t, [3]string{"blocks/40-turn.toml", "You are chatting with a person", "You are talking with a person"}))
	p := price(t, before, after, nil, 1000)
	if p.Requests == 0 {
		t.Fatal("no request replayed for chat")
	}
	if p.PerDay != 0 || p.OneTime != 0 {
		t.Errorf("a per-turn change costs %v a day and %v once, want 0 and 0", p.PerDay, p.OneTime)
	}
	if p.Unit != projection.UnitUSD || p.InputPricePerMTok != 3 {
		t.Errorf("unit %q at %v per MTok, want USD at 3", p.Unit, p.InputPricePerMTok)
	}
}

func TestPriceGlobalChangeCostsOneTime(t *testing.T) {
	before := load(t, trackerFS(t))
	after := load(t, trackerFS(t, [3]string{"blocks/00-core.toml", "plan, build and review work", "plan, build and design work"}))
	p := price(t, before, after, map[string]int{"chat": 2000}, 1000)
	if p.PerDay != 0 {
		t.Errorf("a global change costs %v a day, want 0", p.PerDay)
	}
	// 2,000 tokens written at 1.25 instead of read at 0.1, at $3 per million.
	if want := 2000 * (1.25 - 0.1) * 3 / 1e6; p.OneTime != want {
		t.Errorf("one-time %v, want %v", p.OneTime, want)
	}
}

func TestPriceSessionValueAheadCostsSteadyState(t *testing.T) {
	before := load(t, trackerFS(t))
	after := load(t, trackerFS(t,
		[3]string{"promptc.toml", "  # global\n  \"header\",", "  # global\n  \"identity\",\n  \"header\","},
		[3]string{"promptc.toml", "  # session\n  \"identity\",", "  # session"}))
	p := price(t, before, after, map[string]int{"chat": 100}, 1000)
	if p.AfterPerRequest <= p.BeforePerRequest || p.PerDay <= 0 {
		t.Errorf("a session value ahead of the task blocks: per request %v → %v, %v a day; want dearer", p.BeforePerRequest, p.AfterPerRequest, p.PerDay)
	}
	double := price(t, before, after, map[string]int{"chat": 100}, 2000)
	if d := double.PerDay - 2*p.PerDay; d > 1e-5 || d < -1e-5 {
		t.Errorf("doubled traffic: %v a day, want twice %v", double.PerDay, p.PerDay)
	}
	if double.OneTime != p.OneTime {
		t.Errorf("doubled traffic changed the one-time re-write: %v, was %v", double.OneTime, p.OneTime)
	}
	t.Log(p.Line())
}

func TestPriceUnknownModel(t *testing.T) {
	prog := load(t, trackerFS(t))
	cat, _ := projection.NewCatalog(nil)
	_, err := projection.PriceChange(prog, prog, nil, []projection.Traffic{{Task: "chat", Model: "claude-sonet-4-5"}}, cat, nil)
	if err == nil || !strings.Contains(err.Error(), `did you mean "claude-sonnet-4-5"`) {
		t.Errorf("err = %v, want a did-you-mean", err)
	}
}
