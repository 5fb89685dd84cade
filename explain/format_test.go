package explain_test

import (
	"encoding"
	"flag"
	"testing"

	"github.com/promptc/promptc/explain"
)

var (
	_ flag.Value               = new(explain.Format)
	_ encoding.TextUnmarshaler = new(explain.Format)
)

func TestFormatSet(t *testing.T) {
	for _, tt := range []struct {
		in      string
		want    explain.Format
		wantErr string
	}{
		{in: "text", want: explain.Text},
		{in: "json", want: explain.JSON},
		{in: "markdown", wantErr: `must be text or json, not "markdown"`},
		{in: "Text", wantErr: `must be text or json, not "Text"`},
		{in: "", wantErr: `must be text or json, not ""`},
	} {
		f := explain.JSON
		err := f.Set(tt.in)
		switch {
		case tt.wantErr != "" && (err == nil || err.Error() != tt.wantErr || f != explain.JSON):
			t.Errorf("Set(%q) = %v, value %v; want error %s, value unchanged", tt.in, err, f, tt.wantErr)
		case tt.wantErr == "" && (err != nil || f != tt.want || f.String() != tt.in):
			t.Errorf("Set(%q) = %v, value %v; want %v", tt.in, err, f, tt.want)
		}
	}
	if got := explain.Format(5).String(); got != "Format(5)" {
		t.Errorf("Format(5).String() = %q", got)
	}
}
