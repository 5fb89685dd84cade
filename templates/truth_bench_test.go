package templates

import (
	"strings"
	"testing"
)

// BenchmarkConditions measures the tests a body makes most: if of a value, eq of a value and a literal, with of a
// record. rewriteTruth adds a call to the if and the with, and eq is promptc's own rather than text/template's; this
// shows what that costs per test.
func BenchmarkConditions(b *testing.B) {
	for _, tt := range []struct{ name, body string }{
		{"if", `{{if .u}}a{{end}}`},
		{"if plain", `{{if .flag}}a{{end}}`},
		{"eq", `{{if eq .u "x"}}b{{end}}`},
		{"with record", `{{with .rec}}{{.url}}{{end}}`},
		{"and", `{{if and .u .flag}}c{{end}}`},
	} {
		b.Run(tt.name, func(b *testing.B) {
			c := Consts{Plain: map[string]bool{"flag": true}, Scalars: map[string]bool{"u": true, "flag": true}}
			body, diags := Parse(block(strings.Repeat(tt.body, 100), false), c)
			if len(diags) > 0 {
				b.Fatal(diags)
			}
			data := map[string]any{"u": Untrusted("x"), "flag": true, "rec": map[string]any{"url": Untrusted("u"), "n": 0}}
			b.ReportAllocs()
			for b.Loop() {
				if _, d := body.Execute(data, Env{}); d != nil {
					b.Fatal(d)
				}
			}
		})
	}
}
