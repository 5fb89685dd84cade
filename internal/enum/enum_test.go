package enum_test

import (
	"slices"
	"testing"

	"github.com/promptc/promptc/internal/enum"
)

type color uint8

// The four shapes of the sets promptc declares: the manifest's (a did-you-mean), a flag's (a hint listing the
// names), a reserved zero value with a default spelling, and a flag's "must be" sentence.
var (
	plain   = enum.New[color]("color", "color", "red", "green", "blue")
	hinted  = enum.New[color]("color", "color", "red", "green", "blue").Hint(": use " + enum.OrList([]string{"red", "green", "blue"}))
	quiet   = enum.New[color]("color", "color", "red", "green", "blue").Quiet()
	reserve = enum.New[color]("color", "cache mode", "", "red", "green").Default("default")
	must    = enum.New[color]("color", "color", "red", "green", "blue").MustBe()
)

// TestErrors: the error for a name outside the set, byte for byte, in each style; the CLI scripts check these
// messages as the types word them.
func TestErrors(t *testing.T) {
	tests := []struct {
		set   *enum.Set[color]
		among []color
		name  string
		want  string
	}{
		{plain, nil, "gren", `unknown color "gren" (did you mean "green"?)`},
		{plain, nil, "purple", `unknown color "purple"`},
		{hinted, nil, "rde", `unknown color "rde" (did you mean "red"?): use red, green or blue`},
		{hinted, nil, "x", `unknown color "x": use red, green or blue`},
		{quiet, nil, "gren", `unknown color "gren"`},
		{reserve, nil, "", `unknown cache mode ""`},
		{reserve, nil, "default", `unknown cache mode "default"`},
		{reserve, nil, "rd", `unknown cache mode "rd" (did you mean "red"?)`},
		{must, nil, "gren", `must be red, green or blue, not "gren"`},
		{must, []color{0, 2}, "green", `must be red or blue, not "green"`},
		{must, []color{2}, "red", `must be blue, not "red"`},
		{plain, []color{1}, "red", `unknown color "red"`},
	}
	for _, tt := range tests {
		_, err := tt.set.ParseAmong(tt.name, tt.among)
		if err == nil || err.Error() != tt.want {
			t.Errorf("ParseAmong(%q, %v) = %v, want %s", tt.name, tt.among, err, tt.want)
		}
	}
}

// TestSpelling: String, Marshal and Names, with a reserved value and values outside the set.
func TestSpelling(t *testing.T) {
	if got := plain.String(1); got != "green" {
		t.Errorf("String(1) = %q", got)
	}
	if got := plain.String(7); got != "color(7)" {
		t.Errorf("String(7) = %q", got)
	}
	if _, err := plain.Marshal(7); err == nil || err.Error() != "invalid color 7" {
		t.Errorf("Marshal(7) = %v", err)
	}
	if got := reserve.String(0); got != "default" {
		t.Errorf("String of the reserved zero = %q, want default", got)
	}
	if b, err := reserve.Marshal(0); string(b) != "default" || err != nil {
		t.Errorf("Marshal of the reserved zero = %q, %v", b, err)
	}
	if got := reserve.Names(); !slices.Equal(got, []string{"red", "green"}) {
		t.Errorf("Names() = %q", got)
	}
	if got := reserve.Values(); !slices.Equal(got, []color{1, 2}) {
		t.Errorf("Values() = %v", got)
	}
	noDefault := enum.New[color]("Status", "status", "", "changed")
	if got := noDefault.String(0); got != "Status(0)" {
		t.Errorf("String of an unnamed zero = %q", got)
	}
	if _, err := noDefault.Marshal(0); err == nil {
		t.Errorf("Marshal of an unnamed zero: no error")
	}
	if got := enum.OrList(nil) + "|" + enum.OrList([]string{"a"}) + "|" + enum.OrList([]string{"a", "b"}) + "|" + enum.OrList([]string{"a", "b", "c"}); got != "|a|a or b|a, b or c" {
		t.Errorf("OrList = %q", got)
	}
}

// FuzzSet: any text parses exactly when it is one of the names, to the value spelt so; a failed Set leaves its
// destination as it was; every value with a name marshals to a text that parses back to it.
func FuzzSet(f *testing.F) {
	for _, s := range []string{"", "red", "gren", "default", "blue ", "RED", "\xff"} {
		f.Add(s)
	}
	sets := []*enum.Set[color]{plain, hinted, quiet, reserve, must}
	f.Fuzz(func(t *testing.T, name string) {
		for _, s := range sets {
			v, err := s.Parse(name)
			i := slices.Index(s.Names(), name)
			if (err == nil) != (i >= 0) {
				t.Fatalf("Parse(%q) = %v, %v; names %q", name, v, err, s.Names())
			}
			if err == nil && s.String(v) != name {
				t.Fatalf("Parse(%q) = %v, which String spells %q", name, v, s.String(v))
			}
			dst := color(200)
			if err := s.Set(&dst, name); (err != nil) != (dst == 200) {
				t.Fatalf("Set(%q) = %v, and left %d", name, err, dst)
			}
			for _, v := range s.Values() {
				b, err := s.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				if back, err := s.Parse(string(b)); err != nil || back != v {
					t.Fatalf("%d marshals to %q, which parses to %d, %v", v, b, back, err)
				}
			}
		}
	})
}
