package report_test

import (
	"encoding"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/promptc/promptc/report"
)

var (
	_ flag.Value               = new(report.Format)
	_ flag.Value               = new(report.FormatChoice)
	_ encoding.TextUnmarshaler = new(report.Format)
	_ encoding.TextUnmarshaler = new(report.FormatChoice)
)

func TestFormatSet(t *testing.T) {
	tests := []struct {
		in      string
		want    report.Format
		wantErr string
	}{
		{in: "text", want: report.Text},
		{in: "markdown", want: report.Markdown},
		{in: "json", want: report.JSON},
		{in: "yaml", wantErr: `must be text, markdown or json, not "yaml"`},
		{in: "JSON", wantErr: `must be text, markdown or json, not "JSON"`},
		{in: "", wantErr: `must be text, markdown or json, not ""`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			f := report.Markdown
			err := f.UnmarshalText([]byte(tt.in))
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr || f != report.Markdown {
					t.Fatalf("UnmarshalText(%q) = %v, value %v; want error %s, value unchanged", tt.in, err, f, tt.wantErr)
				}
				return
			}
			if err != nil || f != tt.want || f.String() != tt.in {
				t.Fatalf("UnmarshalText(%q) = %v, value %v", tt.in, err, f)
			}
		})
	}
	if got := report.Format(7).String(); got != "Format(7)" {
		t.Errorf("Format(7).String() = %q", got)
	}
}

// A FormatChoice refuses a format its report is not written in, though Format knows it, and names only its choices.
func TestFormatChoice(t *testing.T) {
	c := report.Formats(report.Text, report.JSON)
	if c.Format != report.Text || c.String() != "text" {
		t.Fatalf("default = %v, want text, the first choice", c.Format)
	}
	if err := c.Set("json"); err != nil || c.Format != report.JSON {
		t.Fatalf("Set(json) = %v, value %v", err, c.Format)
	}
	for _, bad := range []string{"markdown", "yaml"} {
		err := c.Set(bad)
		want := fmt.Sprintf("must be text or json, not %q", bad)
		if err == nil || err.Error() != want || c.Format != report.JSON {
			t.Errorf("Set(%s) = %v, value %v; want %s, value unchanged", bad, err, c.Format, want)
		}
	}
	one := report.Formats(report.JSON)
	if err := one.Set("text"); err == nil || err.Error() != `must be json, not "text"` {
		t.Errorf("one choice: Set(text) = %v", err)
	}
	if got := fmt.Sprint(c.Names(), report.Formats(report.AllFormats...).Names()); got != "[text json] [text markdown json]" {
		t.Errorf("Names() = %s", got)
	}
	// Choices is a copy: changing it does not widen the set.
	ch := c.Choices()
	ch[0] = report.Markdown
	if err := c.Set("markdown"); err == nil {
		t.Errorf("Set(markdown) after editing Choices' result = nil, want an error")
	}
}

// A FormatChoice is the value of a --format flag that takes only the formats its report is written in.
func ExampleFormats() {
	fs := flag.NewFlagSet("lint", flag.ContinueOnError)
	fs.SetOutput(os.Stdout)
	format := report.Formats(report.Text, report.JSON)
	fs.Var(format, "format", "output FORMAT: text or json")
	fmt.Println(fs.Parse([]string{"--format", "json"}), format.Format == report.JSON)
	fmt.Println(format.Set("markdown"))
	// Output:
	// <nil> true
	// must be text or json, not "markdown"
}
