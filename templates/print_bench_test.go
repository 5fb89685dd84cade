package templates

import (
	"strings"
	"testing"
)

// BenchmarkPrint measures what printing a value costs: an action printing a plain (trusted) value, which skips the
// printer, against one printing an untrusted value of the same text, which escapes it
// (docs/decisions.md#printing-values-fast-without-weakening-the-escaping). The target: a function call on a value
// costs no more than printing the value twice; the printer is that call.
func BenchmarkPrint(b *testing.B) {
	body := strings.Repeat("x {{.v}} ", 100)
	for _, tt := range []struct {
		name    string
		plain   bool
		v       any
		printed bool // the value's record made (SetPrinted), as assemble makes it
	}{
		{"plain", true, "a value of some forty bytes, all plain.", false},
		{"untrusted", false, Untrusted("a value of some forty bytes, all plain."), false},
		{"background", false, Background("a value of some forty bytes, all plain."), false},
		{"untrusted/printed", false, Untrusted("a value of some forty bytes, all plain."), true},
		{"background/printed", false, Background("a value of some forty bytes, all plain."), true},
	} {
		b.Run(tt.name, func(b *testing.B) {
			c := Consts{Plain: map[string]bool{"v": tt.plain}}
			body, diags := Parse(block(body, false), c)
			if len(diags) > 0 {
				b.Fatal(diags)
			}
			data := map[string]any{"v": tt.v}
			if tt.printed {
				SetPrinted(data, "v", tt.v, nil)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, d := body.Execute(data, Env{}); d != nil {
					b.Fatal(d)
				}
			}
		})
	}
}
