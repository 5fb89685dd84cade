package guard_test

import (
	"bytes"
	"testing"

	"github.com/promptc/promptc/guard"
	"github.com/promptc/promptc/report"
)

// The lint writers take text and json and refuse markdown rather than print something else.
func TestWriteByFormat(t *testing.T) {
	var text, asText bytes.Buffer
	if err := guard.WriteFindings(&text, nil); err != nil {
		t.Fatal(err)
	}
	if err := guard.WriteFindingsAs(&asText, report.Text, nil); err != nil || asText.String() != text.String() {
		t.Errorf("WriteFindingsAs(Text) = %v, %q; want %q", err, asText.String(), text.String())
	}
	var js, asJS bytes.Buffer
	_ = guard.WriteFindingsJSON(&js, nil)
	if err := guard.WriteFindingsAs(&asJS, report.JSON, nil); err != nil || asJS.String() != js.String() {
		t.Errorf("WriteFindingsAs(JSON) = %v, %q; want %q", err, asJS.String(), js.String())
	}
	var md bytes.Buffer
	if err := guard.WriteFindingsAs(&md, report.Markdown, nil); err == nil || md.Len() > 0 {
		t.Errorf("WriteFindingsAs(Markdown) = %v, wrote %q; want an error and nothing written", err, md.String())
	}
}
