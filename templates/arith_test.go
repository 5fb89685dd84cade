package templates

import (
	"testing"
)

// run parses body as block "b" and executes it with sprigData, for the tests of the arithmetic, set and map
// functions: the output, or the diagnostic as its text.
func run(t *testing.T, body string, data map[string]any) (string, string) {
	t.Helper()
	b, diags := Parse(block(body, false), testConsts)
	if len(diags) > 0 {
		return "", diags.Error()
	}
	got, diag := b.Execute(data, testEnv)
	if diag != nil {
		return got, diag.String()
	}
	return got, ""
}

// TestArithmetic: sprig's names and argument order, ints only, exact results at the edges of int64, and every
// overflow and division by zero an error naming the block, never a wrapped number.
func TestArithmetic(t *testing.T) {
	data := map[string]any{"n": 7, "big": 9223372036854775807, "small": -9223372036854775808, "s": Untrusted("12"), "labels": []any{Untrusted("a"), Untrusted("b")}, "zero": 0}
	tests := []struct{ name, body, want, wantErr string }{
		{name: "add", body: `{{add 1 2}}`, want: "3"},
		{name: "add variadic", body: `{{add 1 2 3 .n}}`, want: "13"},
		{name: "add one", body: `{{add .n}}`, want: "7"},
		{name: "add piped", body: `{{.n | add 1}}`, want: "8"},
		{name: "add len", body: `{{add (len .labels) 1}}`, want: "3"},
		{name: "sub sprig order", body: `{{sub 10 .n}}`, want: "3"},
		{name: "sub piped is sprig's", body: `{{.n | sub 10}}`, want: "3"},
		{name: "sub negative", body: `{{sub .n 10}}`, want: "-3"},
		{name: "mul", body: `{{mul 3 .n 2}}`, want: "42"},
		{name: "mul zero", body: `{{mul .big 0}}`, want: "0"},
		{name: "div truncates", body: `{{div .n 2}}`, want: "3"},
		{name: "div negative truncates toward zero", body: `{{div -7 2}}`, want: "-3"},
		{name: "mod", body: `{{mod .n 3}}`, want: "1"},
		{name: "mod sign of the dividend", body: `{{mod -7 3}}`, want: "-1"},
		{name: "mod min by -1", body: `{{mod .small -1}}`, want: "0"},
		{name: "max", body: `{{max 3 .n 5}}`, want: "7"},
		{name: "min", body: `{{min 3 .n -5}}`, want: "-5"},
		{name: "max one", body: `{{max .n}}`, want: "7"},
		{name: "add at the edge", body: `{{add .big 0}} {{add .small 0}}`, want: "9223372036854775807 -9223372036854775808"},
		{name: "sub to the edge", body: `{{sub .small -1}}`, want: "-9223372036854775807"},
		{name: "in a condition", body: `{{if gt (add .n 1) 7}}yes{{end}}`, want: "yes"},
		{name: "in a range", body: `{{range $i := 3}}{{add $i 1}}{{end}}`, want: "123"},

		{name: "add overflow", body: `{{add .big 1}}`, wantErr: `templates/t.md:1:3: block "b": add: 9223372036854775807 + 1 is out of the range of an int (-9223372036854775808 to 9223372036854775807)`},
		{name: "add overflow later", body: `{{add 1 .big}}`, wantErr: `templates/t.md:1:3: block "b": add: 1 + 9223372036854775807 is out of the range of an int (-9223372036854775808 to 9223372036854775807)`},
		{name: "add underflow", body: `{{add .small -1}}`, wantErr: `templates/t.md:1:3: block "b": add: -9223372036854775808 + -1 is out of the range of an int (-9223372036854775808 to 9223372036854775807)`},
		{name: "sub overflow", body: `{{sub .small 1}}`, wantErr: `templates/t.md:1:3: block "b": sub: -9223372036854775808 - 1 is out of the range of an int (-9223372036854775808 to 9223372036854775807)`},
		{name: "sub overflow of min", body: `{{sub 0 .small}}`, wantErr: `templates/t.md:1:3: block "b": sub: 0 - -9223372036854775808 is out of the range of an int (-9223372036854775808 to 9223372036854775807)`},
		{name: "mul overflow", body: `{{mul .big 2}}`, wantErr: `templates/t.md:1:3: block "b": mul: 9223372036854775807 * 2 is out of the range of an int (-9223372036854775808 to 9223372036854775807)`},
		{name: "mul min by -1", body: `{{mul .small -1}}`, wantErr: `templates/t.md:1:3: block "b": mul: -9223372036854775808 * -1 is out of the range of an int (-9223372036854775808 to 9223372036854775807)`},
		{name: "mul -1 by min", body: `{{mul -1 .small}}`, wantErr: `templates/t.md:1:3: block "b": mul: -1 * -9223372036854775808 is out of the range of an int (-9223372036854775808 to 9223372036854775807)`},
		{name: "div by zero", body: `{{div .n .zero}}`, wantErr: `templates/t.md:1:3: block "b": div: division by zero (7 / 0)`},
		{name: "div min by -1", body: `{{div .small -1}}`, wantErr: `templates/t.md:1:3: block "b": div: -9223372036854775808 / -1 is out of the range of an int (-9223372036854775808 to 9223372036854775807)`},
		{name: "mod by zero", body: `{{mod .n 0}}`, wantErr: `templates/t.md:1:3: block "b": mod: division by zero (7 % 0)`},
		{name: "a string of digits is text", body: `{{add .s 1}}`, wantErr: `templates/t.md:1:3: block "b": add takes ints, but argument 1 is text`},
		{name: "a float", body: `{{add 1 1.5}}`, wantErr: `templates/t.md:1:3: block "b": add takes ints, but argument 2 is a number`},
		{name: "a list", body: `{{max 1 .labels}}`, wantErr: `templates/t.md:1:3: block "b": max takes ints, but argument 2 is a list`},
		{name: "sub of one", body: `{{sub 1}}`, wantErr: `templates/t.md:1:3: block "b": at {{sub}}: wrong number of args for sub: want 2 got 1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := run(t, tt.body, data)
			if err != tt.wantErr || (tt.wantErr == "" && got != tt.want) {
				t.Errorf("%s = %q, error %q; want %q, error %q", tt.body, got, err, tt.want, tt.wantErr)
			}
		})
	}
}
