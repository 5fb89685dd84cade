package blocks_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/promptc/promptc/blocks"
)

// truthTable is what a condition gives for every truth value of vars, as a string of 0s and 1s, vars[0] the
// lowest bit.
func truthTable(c *blocks.Cond, vars []string) string {
	var b strings.Builder
	for bits := 0; bits < 1<<len(vars); bits++ {
		holds := c.Holds(func(name string) bool {
			i := slices.Index(vars, name)
			return i >= 0 && bits&(1<<i) != 0
		})
		if holds {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	return b.String()
}

// TestParseCond: the grammar of docs/reference.md#gates-and-when: ! before && before ||, parentheses, spaces; the
// canonical form, the variables in source order, and the truth table over a, b, c.
func TestParseCond(t *testing.T) {
	abc := []string{"a", "b", "c"}
	tests := []struct {
		in, canon, vars, table string
	}{
		{"a", "a", "a", "01010101"},
		{"!a", "!a", "a", "10101010"},
		{"!!a", "!!a", "a", "01010101"},
		{"a && b", "a && b", "a b", "00010001"},
		{"a||b", "a || b", "a b", "01110111"},
		{"a && b || c", "a && b || c", "a b c", "00011111"},
		{"a || b && c", "a || b && c", "a b c", "01010111"},
		{"(a || b) && c", "(a || b) && c", "a b c", "00000111"},
		{"!(a || b)", "!(a || b)", "a b", "10001000"},
		{"!a && !b", "!a && !b", "a b", "10001000"},
		{"((a))", "a", "a", "01010101"},
		{" \ta && ( b||!c ) ", "a && (b || !c)", "a b c", "01010001"},
		{"a && a", "a && a", "a a", "01010101"},
		{"x_1 || y2", "x_1 || y2", "x_1 y2", "00000000"},
		{"a && b && c", "a && b && c", "a b c", "00000001"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			c, err := blocks.ParseCond(tt.in)
			if err != nil {
				t.Fatalf("ParseCond(%q): %v", tt.in, err)
			}
			if got := c.String(); got != tt.canon {
				t.Errorf("String = %q, want %q", got, tt.canon)
			}
			var vars []string
			for _, v := range c.Vars() {
				vars = append(vars, v.Name)
				if got := tt.in[v.Off:v.End]; got != v.Name {
					t.Errorf("variable %q spans %q", v.Name, got)
				}
			}
			if got := strings.Join(vars, " "); got != tt.vars {
				t.Errorf("Vars = %q, want %q", got, tt.vars)
			}
			if got := truthTable(c, abc); got != tt.table {
				t.Errorf("truth table = %s, want %s", got, tt.table)
			}
			again, err := blocks.ParseCond(c.String())
			if err != nil || truthTable(again, abc) != tt.table || again.String() != tt.canon {
				t.Errorf("the canonical form %q does not read back the same: %v", c.String(), err)
			}
		})
	}
}

// TestParseCondErrors: a when string that does not parse is an error at the bytes that are wrong, saying what to
// write instead.
func TestParseCondErrors(t *testing.T) {
	tests := []struct{ in, at, want string }{
		{"", "[0,0)", `when is empty: name a variable ("name"), or a condition of variables ("a && !b"), or remove when`},
		{"a ||", "[4,4)", `when ends where a variable should follow: remove the "||" at the end, or add a variable after it`},
		{"a and b", "[2,5)", `when: expected && or || after "a", not "and"; write && for "and"`},
		{"a or b", "[2,4)", `when: expected && or || after "a", not "or"; write || for "or"`},
		{"not a", "[4,5)", `when: expected && or || after "not", not "a"; write ! for "not"`},
		{"a & b", "[2,3)", `when: expected && or || after "a", not "&"; write &&`},
		{"(a", "[0,1)", `when has a "(" that is never closed: add ")"`},
		{"(a b)", "[3,4)", `when: expected ")" or && or || after "a", not "b"`},
		{"a)", "[1,2)", `when has a ")" that closes no "("`},
		{"()", "[1,2)", `when: expected a variable name, not ")"`},
		{"Leader", "[0,6)", `when: "Leader" is not a variable name: names match [a-z][a-z0-9_]*`},
		{"a && 9x", "[5,7)", `when: "9x" is not a variable name: names match [a-z][a-z0-9_]*`},
		{"is-leader", "[0,9)", `when: "is-leader" is not a variable name: names match [a-z][a-z0-9_]*`},
		{"a == b", "[2,4)", `when: expected && or || after "a", not "=="; when tests whether variables are truthy, so write the variable alone, or compare in the body ({{if eq .x "v"}})`},
		{"!", "[1,1)", `when ends where a variable should follow: add a variable after the "!"`},
		{"a && é", "[5,7)", `when: expected a variable name, not "é"`},
		{strings.Repeat("(", 65) + "a" + strings.Repeat(")", 65), "[64,65)", "when nests more than 64 parentheses and negations deep: write the condition more simply"},
		{strings.Repeat("!", 100) + "a", "[64,65)", "when nests more than 64 parentheses and negations deep: write the condition more simply"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			c, err := blocks.ParseCond(tt.in)
			if err == nil {
				t.Fatalf("ParseCond(%q) = %v, want an error", tt.in, c)
			}
			if got := fmt.Sprintf("[%d,%d)", err.Off, err.End); got != tt.at || err.Msg != tt.want {
				t.Errorf("ParseCond(%q) error at %s: %s\nwant at %s: %s", tt.in, got, err.Msg, tt.at, tt.want)
			}
		})
	}
	// Deep nesting within the bound parses.
	if _, err := blocks.ParseCond(strings.Repeat("(", 63) + "a" + strings.Repeat(")", 63)); err != nil {
		t.Errorf("63 parentheses: %v", err)
	}
}

// TestExclusive: two conditions are exclusive when no values make both hold, which two replacements of one block
// must be to admit the same task.
func TestExclusive(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"x", "!x", true},
		{"!x", "x", true},
		{"x", "x", false},
		{"x", "y", false},
		{"a && b", "!a", true},
		{"a && b", "!b || !a", true},
		{"a && b", "a || b", false},
		{"a || b", "!a && !b", true},
		{"(a || b) && c", "!c", true},
		{"a", "!!a", false},
		{"a && !a", "a", true}, // a condition that never holds excludes everything
	}
	for _, tt := range tests {
		a, err := blocks.ParseCond(tt.a)
		if err != nil {
			t.Fatal(err)
		}
		b, err := blocks.ParseCond(tt.b)
		if err != nil {
			t.Fatal(err)
		}
		if got := blocks.Exclusive(a, b); got != tt.want {
			t.Errorf("Exclusive(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	if blocks.Exclusive(nil, nil) {
		t.Error("two blocks without when are not exclusive")
	}
	// Over 12 variables the table is not built: the conditions are taken to overlap.
	var many []string
	for i := range 13 {
		many = append(many, fmt.Sprintf("v%d", i))
	}
	a, _ := blocks.ParseCond(strings.Join(many, " && "))
	b, _ := blocks.ParseCond("!v0")
	if blocks.Exclusive(a, b) {
		t.Error("13 variables: want the conditions taken to overlap")
	}
}

// FuzzParseCond: no when string makes the parser panic; one that parses reads back from its canonical form with the
// same meaning, and an error points inside the string.
func FuzzParseCond(f *testing.F) {
	for _, s := range []string{"a", "!a", "a && b || !c", "(a || b) && c", "a and b", "(a", "a)", "", "Leader", "a == b", "!!!a", "((a))", "a &&", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := blocks.ParseCond(s)
		if err != nil {
			if err.Off < 0 || err.End < err.Off || err.End > len(s) || err.Msg == "" {
				t.Fatalf("ParseCond(%q): error at [%d,%d): %q", s, err.Off, err.End, err.Msg)
			}
			return
		}
		vars := c.Names()
		if len(vars) > 8 {
			vars = vars[:8]
		}
		again, err2 := blocks.ParseCond(c.String())
		if err2 != nil {
			t.Fatalf("ParseCond(%q) = %q, which does not parse: %v", s, c.String(), err2)
		}
		if again.String() != c.String() || truthTable(again, vars) != truthTable(c, vars) {
			t.Fatalf("ParseCond(%q): canonical form %q reads back as %q", s, c.String(), again.String())
		}
		for _, v := range c.Vars() {
			if s[v.Off:v.End] != v.Name {
				t.Fatalf("ParseCond(%q): variable %q spans %q", s, v.Name, s[v.Off:v.End])
			}
		}
	})
}
