package guard_test

import (
	"bytes"
	"encoding"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/promptc/promptc/guard"
)

var (
	_ flag.Value               = new(guard.Format)
	_ flag.Value               = new(guard.FormatChoice)
	_ encoding.TextUnmarshaler = new(guard.Format)
	_ encoding.TextUnmarshaler = new(guard.FormatChoice)
)

func TestFormatSet(t *testing.T) {
	tests := []struct {
		in      string
		want    guard.Format
		wantErr string
	}{
		{in: "text", want: guard.Text},
		{in: "markdown", want: guard.Markdown},
		{in: "json", want: guard.JSON},
		{in: "yaml", wantErr: `must be text, markdown or json, not "yaml"`},
		{in: "JSON", wantErr: `must be text, markdown or json, not "JSON"`},
		{in: "", wantErr: `must be text, markdown or json, not ""`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			f := guard.Markdown
			err := f.UnmarshalText([]byte(tt.in))
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr || f != guard.Markdown {
					t.Fatalf("UnmarshalText(%q) = %v, value %v; want error %s, value unchanged", tt.in, err, f, tt.wantErr)
				}
				return
			}
			if err != nil || f != tt.want || f.String() != tt.in {
				t.Fatalf("UnmarshalText(%q) = %v, value %v", tt.in, err, f)
			}
		})
	}
	if got := guard.Format(7).String(); got != "Format(7)" {
		t.Errorf("Format(7).String() = %q", got)
	}
}

// A FormatChoice refuses a format its report is not written in, though Format knows it, and names only its choices.
func TestFormatChoice(t *testing.T) {
	c := guard.Formats(guard.Text, guard.JSON)
	if c.Format != guard.Text || c.String() != "text" {
		t.Fatalf("default = %v, want text, the first choice", c.Format)
	}
	if err := c.Set("json"); err != nil || c.Format != guard.JSON {
		t.Fatalf("Set(json) = %v, value %v", err, c.Format)
	}
	for _, bad := range []string{"markdown", "yaml"} {
		err := c.Set(bad)
		want := fmt.Sprintf("must be text or json, not %q", bad)
		if err == nil || err.Error() != want || c.Format != guard.JSON {
			t.Errorf("Set(%s) = %v, value %v; want %s, value unchanged", bad, err, c.Format, want)
		}
	}
	one := guard.Formats(guard.JSON)
	if err := one.Set("text"); err == nil || err.Error() != `must be json, not "text"` {
		t.Errorf("one choice: Set(text) = %v", err)
	}
	// Choices is a copy: changing it does not widen the set.
	ch := c.Choices()
	ch[0] = guard.Markdown
	if err := c.Set("markdown"); err == nil {
		t.Errorf("Set(markdown) after editing Choices' result = nil, want an error")
	}
}

// The lint and stats writers take text and json and refuse markdown rather than print something else.
func TestWriteByFormat(t *testing.T) {
	var text, asText bytes.Buffer
	if err := guard.WriteFindings(&text, nil); err != nil {
		t.Fatal(err)
	}
	if err := guard.WriteFindingsAs(&asText, guard.Text, nil); err != nil || asText.String() != text.String() {
		t.Errorf("WriteFindingsAs(Text) = %v, %q; want %q", err, asText.String(), text.String())
	}
	var js, asJS bytes.Buffer
	_ = guard.WriteFindingsJSON(&js, nil)
	if err := guard.WriteFindingsAs(&asJS, guard.JSON, nil); err != nil || asJS.String() != js.String() {
		t.Errorf("WriteFindingsAs(JSON) = %v, %q; want %q", err, asJS.String(), js.String())
	}
	var md bytes.Buffer
	if err := guard.WriteFindingsAs(&md, guard.Markdown, nil); err == nil || md.Len() > 0 {
		t.Errorf("WriteFindingsAs(Markdown) = %v, wrote %q; want an error and nothing written", err, md.String())
	}
	r := &guard.StatsReport{}
	md.Reset()
	if err := r.Write(&md, guard.Markdown); err == nil || md.Len() > 0 {
		t.Errorf("StatsReport.Write(Markdown) = %v, wrote %q; want an error and nothing written", err, md.String())
	}
}

// A FormatChoice is the value of a --format flag that takes only the formats its report is written in.
func ExampleFormats() {
	fs := flag.NewFlagSet("lint", flag.ContinueOnError)
	fs.SetOutput(os.Stdout)
	format := guard.Formats(guard.Text, guard.JSON)
	fs.Var(format, "format", "output FORMAT: text or json")
	fmt.Println(fs.Parse([]string{"--format", "json"}), format.Format == guard.JSON)
	fmt.Println(format.Set("markdown"))
	// Output:
	// <nil> true
	// must be text or json, not "markdown"
}
