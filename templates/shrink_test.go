package templates

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSplicePoint: a Shrink splices at a range over the variable or at bullets or join of it, and only where the
// conditions of shrink.go hold; elsewhere executions run in full.
func TestSplicePoint(t *testing.T) {
	tests := []struct {
		body string
		want spliceKind // 0: none
	}{
		{"{{range .l}}- {{.}}\n{{end}}", spliceRange},
		{"{{range $.l}}{{.}}{{end}}", spliceRange},
		{"{{range $i, $e := .l}}{{$i}}{{$e}}{{end}}", spliceRange},
		{"{{range .l}}{{.}}{{else}}none{{end}}", spliceRange},
		{"{{if .l}}Notes:{{range .l}}{{.}}{{end}}{{end}}", spliceRange},
		{"{{with .x}}{{range $.l}}{{.}}{{end}}{{end}}", spliceRange},
		{"{{range .l}}{{.}}{{end}}{{len .l}} {{dropped \"l\"}} {{range .l}}{{.}}{{end}}", spliceRange}, // after it: anything
		{"{{range .l}}{{range $.w}}{{.}}{{end}}{{continue}}{{end}}", spliceRange},
		{"{{bullets .l}}", spliceList},
		{"{{if .l}}{{join .l \", \"}}{{end}}", spliceList},
		{"{{join .l .x}}", spliceList},
		{"{{join $.l $.x}}", spliceList},
		{"{{len .l}}: {{range .l}}{{.}}{{end}}", 0},           // read before
		{"{{dropped \"l\"}}{{range .l}}{{.}}{{end}}", 0},      // dropped before
		{"{{dropped .x}}{{range .l}}{{.}}{{end}}", 0},         // dropped of any variable
		{"{{if not .l}}{{end}}{{range .l}}{{.}}{{end}}", 0},   // not a whole condition
		{"{{range .l}}{{len $.l}}{{end}}", 0},                 // read inside
		{"{{range .l}}{{dropped \"l\"}}{{end}}", 0},           // dropped inside
		{"{{range .l}}{{.}}{{break}}{{end}}", 0},              // break
		{"{{$n := 0}}{{range .l}}{{$n = 1}}{{end}}{{$n}}", 0}, // an assignment
		{"{{range .w}}{{range $.l}}{{.}}{{end}}{{end}}", 0},   // in a loop
		{"{{range .l | len}}{{end}}", 0},                      // not the list itself
		{"{{range .}}{{end}}{{range .l}}{{.}}{{end}}", 0},     // the data whole
		{"{{$l := .l}}{{range $l}}{{.}}{{end}}", 0},           // through a variable
		{"{{bullets .l}}{{len .l}}", 0},                       // bullets must be the only read
		{"{{upper (bullets .l)}}", 0},                         // not printed as it is
		{"{{join .l (printf \"%s\" .x)}}", 0},                 // a computed separator
		{"{{with .l}}{{range .}}{{.}}{{end}}{{end}}", 0},      // with
		{"{{first .l}}{{last .l}}", 0},                        // read otherwise
		{"{{range .w}}{{.}}{{end}}", 0},                       // not read
	}
	for _, tt := range tests {
		b, diags := Parse(block(tt.body, false), Consts{})
		if len(diags) > 0 {
			t.Fatalf("%q: %s", tt.body, diags)
		}
		pt := b.splicePoint("l")
		var got spliceKind
		if pt != nil {
			got = pt.kind
		}
		if got != tt.want {
			t.Errorf("%q: splice point %d, want %d", tt.body, got, tt.want)
		}
	}
}

// shrinkBodies are the bodies TestShrinkExact executes; l is the list it shrinks.
var shrinkBodies = []string{
	"{{range .l}}- {{.}}\n{{end}}",
	"{{range $i, $e := .l}}{{if $i}}, {{end}}{{$i}}:{{$e}}{{end}}",
	"{{range $e := .l}}{{$e}}{{else}}empty{{end}}|{{len .l}}|{{dropped \"l\"}}",
	"{{if .l}}[{{range .l}}{{.}}{{range $.w}}{{.}}{{end}};{{end}}]{{end}}",
	"{{range .l}}{{if eq . \"b\"}}{{continue}}{{end}}{{upper .}}{{end}}",
	"{{range .l}}{{$x := printf \"%s/%s\" . $.x}}{{$x}}{{end}}",
	"head {{.x}}\n{{bullets .l}}\ntail",
	"{{join .l \", \"}}",
	"{{join .l .x}}",
	"{{range .l}}{{.}}\n{{end}}{{range .l}}again {{.}}{{end}}",
	"{{range .l}}{{.}}{{end}}",
	"{{range .l}}\n{{.}}  \n{{end}}\n\n",
}

// A Shrink's executions give the bytes of plain executions, for every list made of the recorded list's first items
// and one more, trusted and untrusted, and fail where they fail.
func TestShrinkExact(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 2))
	words := []string{"a", "b", "", " ", "\n", "<x>", "*", "é", "# h", "`"}
	item := func() string {
		var b strings.Builder
		for range r.IntN(3) {
			b.WriteString(words[r.IntN(len(words))])
		}
		return b.String()
	}
	runs := 0
	for c := range 300 {
		body := shrinkBodies[c%len(shrinkBodies)]
		b, diags := Parse(block(body, false), Consts{Markers: []string{"<x>"}})
		if len(diags) > 0 {
			t.Fatal(diags)
		}
		trust := r.IntN(3)
		list := func(n int) any {
			if trust == 0 {
				l := make([]string, n)
				for i := range l {
					l[i] = item()
				}
				return l
			}
			l := make([]any, n)
			for i := range l {
				if trust == 1 {
					l[i] = Untrusted(item())
				} else {
					l[i] = Markdown(item())
				}
			}
			return l
		}
		n := 1 + r.IntN(6)
		full := list(n)
		dropped := 0
		env := Env{Dropped: func(string) (int, error) { return dropped, nil }}
		data := map[string]any{"l": full, "w": []string{"w"}, "x": Untrusted(item())}
		sh := b.Shrink("l", data, env)
		if sh == nil && trust == 2 {
			return // markdown items are placed where they stand, which a splice does not keep: no Shrink
		}
		if sh == nil {
			t.Fatalf("%q: no Shrink", body)
		}
		if got, _ := b.Execute(data, env); got != sh.Output() {
			t.Fatalf("%q: recorded %q, executed %q", body, sh.Output(), got)
		}
		for m := range n + 1 {
			last := list(1)
			shorter := map[string]any{"l": concat(full, m, last), "w": data["w"], "x": data["x"]}
			dropped = n - m
			want, wantErr := b.Execute(shorter, env)
			got, gotErr := sh.Execute(shorter, env)
			if (gotErr != nil) != (wantErr != nil) || got.String() != want {
				t.Fatalf("%q with the first %d items of %q and %q: got %q (%v), want %q (%v)", body, m, full, last, got, gotErr, want, wantErr)
			}
			if got.Mid != "" && sh.Output()[got.MidAt:got.MidAt+len(got.Mid)] != got.Mid {
				t.Fatalf("%q: Mid is not at MidAt", body)
			}
			runs++
		}
	}
	if runs < 300 {
		t.Errorf("only %d runs", runs)
	}
}

// concat returns the first m items of list followed by the item of one (a list of the same type).
func concat(list any, m int, one any) any {
	switch l := list.(type) {
	case []string:
		return append(l[:m:m], one.([]string)...)
	case []any:
		return append(l[:m:m], one.([]any)...)
	}
	return nil
}

// An execution that splices fails exactly where the plain one does: past MaxOutput, and past the range budget's
// steps, with the items it splices counted as if executed.
func TestShrinkLimits(t *testing.T) {
	mib := strings.Repeat("x", 1<<20)
	tests := []struct {
		name, body string
		data       func(items []string) map[string]any
		items      int
		last       string // the item after the first items-1 of the recorded list
	}{
		{"output fits", "{{range .l}}{{.}}{{end}}", func(l []string) map[string]any { return map[string]any{"l": l} }, 16, mib},
		{"output one byte over", "{{range .l}}{{.}}{{end}}", func(l []string) map[string]any { return map[string]any{"l": l} }, 16, mib + "x"},
		{"steps", "{{range .l}}{{range $.w}}{{end}}{{end}}", func(l []string) map[string]any {
			return map[string]any{"l": l, "w": make([]string, MaxSteps/4)}
		}, 4, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, diags := Parse(block(tt.body, false), Consts{})
			if len(diags) > 0 {
				t.Fatal(diags)
			}
			items := make([]string, tt.items)
			for i := range items {
				items[i] = mib
			}
			sh := b.Shrink("l", tt.data(items[:len(items)-1]), Env{})
			if sh == nil {
				t.Fatal("no Shrink")
			}
			// The recording holds items-1 items; the execution splices them all and adds one.
			longer := tt.data(append(items[:len(items)-1:len(items)-1], tt.last))
			want, wantErr := b.Execute(longer, Env{})
			got, gotErr := sh.Execute(longer, Env{})
			if (gotErr != nil) != (wantErr != nil) || got.String() != want {
				t.Fatalf("got %d bytes (%v), want %d bytes (%v)", len(got.String()), gotErr, len(want), wantErr)
			}
			if tt.name != "output fits" && wantErr == nil {
				t.Errorf("the plain execution did not fail: the test does not test the limit")
			}
		})
	}
}

// FuzzShrink: whatever the body and the items, an execution that splices gives the bytes of the plain execution and
// fails where it fails: a body the splice-point conditions let through by mistake shows here. Seeded from
// TestSplicePoint's and TestShrinkExact's bodies.
func FuzzShrink(f *testing.F) {
	for i, body := range shrinkBodies {
		f.Add(body, "a\x00b\x00\n<x>\x00", "# h", uint8(i))
	}
	f.Add("{{if .l}}{{range $i, $e := $.l}}{{$i}}{{$e}}{{else}}-{{end}}{{end}}{{len .l}}", "x\x00y", "z", uint8(0))
	f.Fuzz(func(t *testing.T, body, items, last string, trust uint8) {
		if len(body) > 500 || len(items) > 500 || strings.Count(items, "\x00") > 8 {
			return // small inputs: each is executed twice per item
		}
		b, diags := Parse(block(body, false), Consts{Markers: []string{"<x>"}})
		if len(diags) > 0 {
			return
		}
		strs := strings.Split(items, "\x00")
		var list, tail any
		switch trust % 3 {
		case 0:
			list, tail = strs, []string{last}
		default:
			l := make([]any, len(strs))
			for i, s := range strs {
				l[i] = Untrusted(s)
				if trust%3 == 2 {
					l[i] = Markdown(s)
				}
			}
			list, tail = l, []any{Untrusted(last)}
			if trust%3 == 2 {
				tail = []any{Markdown(last)}
			}
		}
		dropped := 0
		env := Env{Dropped: func(string) (int, error) { return dropped, nil }, Ref: func(string) (string, error) { return "## R", nil },
			Title: func(string) (string, error) { return "R", nil }}
		data := map[string]any{"l": list, "w": []string{"w1", "w2"}, "x": Untrusted(last)}
		sh := b.Shrink("l", data, env)
		if sh == nil {
			return
		}
		if got, _ := b.Execute(data, env); got != sh.Output() {
			t.Fatalf("recorded %q, executed %q", sh.Output(), got)
		}
		for m := range len(strs) + 1 {
			shorter := map[string]any{"l": concat(list, m, tail), "w": data["w"], "x": data["x"]}
			dropped = len(strs) - m
			want, wantErr := b.Execute(shorter, env)
			got, gotErr := sh.Execute(shorter, env)
			if (gotErr != nil) != (wantErr != nil) || got.String() != want {
				t.Fatalf("first %d items: got %q (%v), want %q (%v)", m, got, gotErr, want, wantErr)
			}
		}
	})
}
