package values

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/promptc/promptc/blocks"
)

var limitTextTests = []struct {
	name     string
	maxRunes int
	notice   bool
	in       string
	want     string
}{
	{name: "no limit", maxRunes: 0, in: "abcdef", want: "abcdef"},
	{name: "empty", maxRunes: 3, in: "", want: ""},
	{name: "under", maxRunes: 5, in: "abc", want: "abc"},
	{name: "exact", maxRunes: 3, in: "abc", want: "abc"},
	{name: "one over", maxRunes: 3, in: "abcd", want: "abc…"},
	{name: "far over", maxRunes: 1, in: "abcdefgh", want: "a…"},
	{name: "multibyte exact", maxRunes: 2, in: "日本", want: "日本"},
	{name: "multibyte over", maxRunes: 2, in: "日本語", want: "日本…"},
	{name: "four-byte runes", maxRunes: 1, in: "🙂🙂", want: "🙂…"},
	{name: "mixed widths", maxRunes: 3, in: "aé日🙂", want: "aé日…"},
	{name: "runes not graphemes", maxRunes: 1, in: "e\u0301", want: "e…"},
	{name: "ellipsis in value", maxRunes: 1, in: "……", want: "……"},
	{name: "invalid bytes are runes", maxRunes: 2, in: "\xff\xfe\xfd", want: "\xff\xfe…"},
	{name: "notice", maxRunes: 3, notice: true, in: "abcd", want: "(too long)"},
	{name: "notice multibyte", maxRunes: 2, notice: true, in: "日本語", want: "(too long)"},
	{name: "notice not needed", maxRunes: 3, notice: true, in: "abc", want: "abc"},
	{name: "notice without limit", maxRunes: 0, notice: true, in: "abcd", want: "abcd"},
}

func textVar(maxRunes int, notice bool) *blocks.Var {
	v := &blocks.Var{Name: "x", Type: blocks.TypeText, MaxRunes: maxRunes}
	if notice {
		v.Overflow, v.Notice = blocks.OverflowNotice, "(too long)"
	}
	return v
}

func TestLimitText(t *testing.T) {
	for _, tt := range limitTextTests {
		t.Run(tt.name, func(t *testing.T) {
			if got := LimitText(textVar(tt.maxRunes, tt.notice), tt.in); got != tt.want {
				t.Errorf("LimitText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	t.Run("nil var", func(t *testing.T) {
		if got := LimitText(nil, "abc"); got != "abc" {
			t.Errorf("LimitText(nil, %q) = %q", "abc", got)
		}
	})
}

type listLimits struct {
	itemMaxRunes int
	maxItems     int
	maxBytes     int
	pinFirst     bool
	omitted      string
}

func (l listLimits) v() *blocks.Var {
	return &blocks.Var{Name: "x", Type: blocks.TypeList, ItemMaxRunes: l.itemMaxRunes, MaxItems: l.maxItems,
		MaxBytes: l.maxBytes, PinFirst: l.pinFirst, Omitted: l.omitted}
}

var limitListTests = []struct {
	name   string
	limits listLimits
	in     []string
	want   []string
}{
	{name: "no limits", in: []string{"a", "b"}, want: []string{"a", "b"}},
	{name: "nil", limits: listLimits{maxItems: 1, omitted: "({n})"}, in: nil, want: []string{}},
	{name: "empty", limits: listLimits{maxBytes: 1, pinFirst: true, omitted: "({n})"}, in: []string{}, want: []string{}},
	{name: "item cut", limits: listLimits{itemMaxRunes: 2}, in: []string{"abc", "de", "日本語", ""},
		want: []string{"ab…", "de", "日本…", ""}},
	{name: "cut is not a drop", limits: listLimits{itemMaxRunes: 1, omitted: "x{n}"}, in: []string{"ab"},
		want: []string{"a…"}},
	{name: "max items", limits: listLimits{maxItems: 2}, in: []string{"a", "b", "c"}, want: []string{"a", "b"}},
	{name: "max items not reached", limits: listLimits{maxItems: 3, omitted: "({n})"}, in: []string{"a", "b", "c"},
		want: []string{"a", "b", "c"}},
	{name: "max items omitted", limits: listLimits{maxItems: 2, omitted: "({n} more)"},
		in: []string{"a", "b", "c", "d"}, want: []string{"a", "b", "(2 more)"}},
	{name: "max bytes", limits: listLimits{maxBytes: 5}, in: []string{"ab", "cd", "ef"}, want: []string{"ab", "cd"}},
	{name: "max bytes exact fit", limits: listLimits{maxBytes: 6, omitted: "({n})"}, in: []string{"ab", "cd", "ef"},
		want: []string{"ab", "cd", "ef"}},
	{name: "max bytes no skipping ahead", limits: listLimits{maxBytes: 5, omitted: "{n} omitted"},
		in: []string{"ab", "cdef", "g"}, want: []string{"ab", "2 omitted"}},
	{name: "max bytes counts UTF-8 bytes", limits: listLimits{maxBytes: 6}, in: []string{"日本", "a"},
		want: []string{"日本"}},
	{name: "empty items weigh nothing", limits: listLimits{maxBytes: 1, omitted: "({n})"},
		in: []string{"", "", "ab", ""}, want: []string{"", "", "(2)"}},
	{name: "first over without pin", limits: listLimits{maxBytes: 3}, in: []string{"abcd", "e"}, want: []string{}},
	{name: "first over without pin omitted", limits: listLimits{maxBytes: 3, omitted: "({n})"},
		in: []string{"abcd", "e"}, want: []string{"(2)"}},
	{name: "pin first alone over", limits: listLimits{maxBytes: 3, pinFirst: true}, in: []string{"abcd", "e"},
		want: []string{"abcd"}},
	{name: "pin first alone over omitted", limits: listLimits{maxBytes: 3, pinFirst: true, omitted: "({n})"},
		in: []string{"abcd", "e", "f"}, want: []string{"abcd", "(2)"}},
	{name: "pin first fits", limits: listLimits{maxBytes: 3, pinFirst: true}, in: []string{"ab", "c", "d"},
		want: []string{"ab", "c"}},
	{name: "pin first single item", limits: listLimits{maxBytes: 1, pinFirst: true, omitted: "({n})"},
		in: []string{"abc"}, want: []string{"abc"}},
	{name: "pin without max bytes", limits: listLimits{pinFirst: true}, in: []string{"a", "b"},
		want: []string{"a", "b"}},
	{name: "cut before bytes", limits: listLimits{itemMaxRunes: 2, maxBytes: 10, omitted: "({n})"},
		in: []string{"abcdefghijk", "x"}, want: []string{"ab…", "x"}},
	{name: "items before bytes", limits: listLimits{maxItems: 1, maxBytes: 1, omitted: "({n})"},
		in: []string{"ab", "c"}, want: []string{"(2)"}},
	{name: "n counts items and bytes drops", limits: listLimits{maxItems: 3, maxBytes: 4,
		omitted: "({n} more comments omitted)"}, in: []string{"aa", "bb", "cc", "dd", "ee"},
		want: []string{"aa", "bb", "(3 more comments omitted)"}},
	{name: "every {n} replaced", limits: listLimits{maxItems: 1, omitted: "{n}/{n} {N} {n"},
		in: []string{"a", "b", "c"}, want: []string{"a", "2/2 {N} {n"}},
	{name: "omitted without {n}", limits: listLimits{maxItems: 1, omitted: "(more omitted)"},
		in: []string{"a", "b"}, want: []string{"a", "(more omitted)"}},
	{name: "n of many", limits: listLimits{maxItems: 1, omitted: "{n}"}, in: make([]string, 12),
		want: []string{"", "11"}},
	{name: "everything", limits: listLimits{itemMaxRunes: 3, maxItems: 4, maxBytes: 12, pinFirst: true,
		omitted: "+{n}"}, in: []string{"日本語です", "ab", "abcdef", "c", "d", "e"},
		// cut: "日本語…" (12 bytes), "ab", "abc…" (6), "c", "d", "e"; first 4 kept (2 dropped);
		// the pinned first item fills the 12 bytes, so "ab" does not fit (3 more dropped).
		want: []string{"日本語…", "+5"}},
}

func TestLimitList(t *testing.T) {
	for _, tt := range limitListTests {
		t.Run(tt.name, func(t *testing.T) {
			in := slices.Clone(tt.in)
			got := LimitList(tt.limits.v(), in)
			if got == nil || !slices.Equal(got, tt.want) {
				t.Errorf("LimitList(%q) = %#v, want %#v", tt.in, got, tt.want)
			}
			if !slices.Equal(in, tt.in) {
				t.Errorf("LimitList modified its input: %q, was %q", in, tt.in)
			}
		})
	}
	t.Run("result does not alias input", func(t *testing.T) {
		in := []string{"a", "b"}
		got := LimitList(&blocks.Var{}, in)
		got[0] = "z"
		if in[0] != "a" {
			t.Errorf("changing the result changed the input: %q", in)
		}
	})
	t.Run("nil var", func(t *testing.T) {
		if got := LimitList(nil, []string{"a"}); !slices.Equal(got, []string{"a"}) {
			t.Errorf("LimitList(nil, [a]) = %q", got)
		}
	})
}

func FuzzLimitText(f *testing.F) {
	for _, tt := range limitTextTests {
		f.Add(tt.in, tt.maxRunes, tt.notice)
	}
	f.Fuzz(func(t *testing.T, in string, maxRunes int, notice bool) {
		v := textVar(maxRunes, notice)
		out := LimitText(v, in)
		n := utf8.RuneCountInString(in)
		switch {
		case maxRunes <= 0 || n <= maxRunes:
			if out != in {
				t.Fatalf("LimitText(%q, %d) = %q, want it unchanged", in, maxRunes, out)
			}
		case notice:
			if out != v.Notice {
				t.Fatalf("LimitText(%q, %d) = %q, want the notice", in, maxRunes, out)
			}
		default:
			if got := utf8.RuneCountInString(out); got != maxRunes+1 {
				t.Fatalf("LimitText(%q, %d) = %q: %d runes, want %d", in, maxRunes, out, got, maxRunes+1)
			}
			head, ok := strings.CutSuffix(out, "…")
			if !ok || !strings.HasPrefix(in, head) {
				t.Fatalf("LimitText(%q, %d) = %q: not a prefix followed by …", in, maxRunes, out)
			}
		}
	})
}

// fuzzList encodes a list for the fuzzer as its items joined by "\x1f"; "" is the empty list.
func fuzzList(items []string) string { return strings.Join(items, "\x1f") }

func FuzzLimitList(f *testing.F) {
	for _, tt := range limitListTests {
		l := tt.limits
		f.Add(fuzzList(tt.in), l.itemMaxRunes, l.maxItems, l.maxBytes, l.pinFirst, l.omitted)
	}
	f.Fuzz(func(t *testing.T, list string, itemMaxRunes, maxItems, maxBytes int, pinFirst bool, omitted string) {
		var in []string
		if list != "" {
			in = strings.Split(list, "\x1f")
		}
		if omitted != "" {
			// Items never hold the separator, so the omitted item cannot be mistaken for one of them.
			omitted = "\x1f" + omitted
		}
		orig := slices.Clone(in)
		l := listLimits{itemMaxRunes, maxItems, maxBytes, pinFirst, omitted}
		out := LimitList(l.v(), in)
		if !slices.Equal(in, orig) {
			t.Fatalf("LimitList modified its input: %q, was %q", in, orig)
		}
		if out == nil {
			t.Fatal("LimitList returned nil")
		}

		cut := make([]string, len(in))
		for i, it := range in {
			cut[i] = LimitText(textVar(itemMaxRunes, false), it)
		}
		// The admitted items are a prefix of the cut items; anything after them is the omitted item.
		kept := 0
		for kept < len(out) && kept < len(cut) && out[kept] == cut[kept] {
			kept++
		}
		dropped := len(in) - kept
		switch {
		case dropped > 0 && omitted != "":
			if len(out) != kept+1 {
				t.Fatalf("LimitList(%q, %+v) = %q: want %d items and the omitted one", in, l, out, kept)
			}
			if want := strings.ReplaceAll(omitted, "{n}", strconv.Itoa(dropped)); out[kept] != want {
				t.Fatalf("LimitList(%q, %+v) = %q: last item %q, want %q", in, l, out, out[kept], want)
			}
		case len(out) != kept:
			t.Fatalf("LimitList(%q, %+v) = %q: items that are not a prefix of %q", in, l, out, cut)
		}
		if maxItems > 0 && kept > maxItems {
			t.Fatalf("LimitList(%q, %+v) = %q: more than %d items kept", in, l, out, maxItems)
		}
		if maxItems > 0 && maxItems < len(in) && len(out) > maxItems+1 {
			t.Fatalf("LimitList(%q, %+v) = %q: more than %d items", in, l, out, maxItems+1)
		}
		if maxBytes > 0 {
			total := 0
			for _, it := range cut[:kept] {
				total += len(it)
			}
			if total > maxBytes && !(pinFirst && kept == 1) {
				t.Fatalf("LimitList(%q, %+v) = %q: %d bytes kept", in, l, out, total)
			}
			limit := len(cut)
			if maxItems > 0 {
				limit = min(limit, maxItems)
			}
			// Admission stops only at an item that does not fit.
			if kept < limit && total+len(cut[kept]) <= maxBytes && !(kept == 0 && pinFirst) {
				t.Fatalf("LimitList(%q, %+v) = %q: stopped before %q, which fits", in, l, out, cut[kept])
			}
			if kept == 0 && pinFirst && limit > 0 {
				t.Fatalf("LimitList(%q, %+v) = %q: pinned first item missing", in, l, out)
			}
		} else if maxItems > 0 && kept != min(len(in), maxItems) || maxItems <= 0 && kept != len(in) {
			t.Fatalf("LimitList(%q, %+v) = %q: %d items kept", in, l, out, kept)
		}
	})
}
