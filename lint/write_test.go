package lint_test

import (
	"bytes"
	"testing"

	"github.com/promptc/promptc/lint"
	"github.com/promptc/promptc/report"
)

// The lint writers take text and json and refuse markdown rather than print something else.
func TestWriteByFormat(t *testing.T) {
	var text, asText bytes.Buffer
	if err := lint.WriteText(&text, nil); err != nil {
		t.Fatal(err)
	}
	if err := lint.Write(&asText, report.Text, nil); err != nil || asText.String() != text.String() {
		t.Errorf("Write(Text) = %v, %q; want %q", err, asText.String(), text.String())
	}
	var js, asJS bytes.Buffer
	_ = lint.WriteJSON(&js, nil)
	if err := lint.Write(&asJS, report.JSON, nil); err != nil || asJS.String() != js.String() {
		t.Errorf("Write(JSON) = %v, %q; want %q", err, asJS.String(), js.String())
	}
	var md bytes.Buffer
	if err := lint.Write(&md, report.Markdown, nil); err == nil || md.Len() > 0 {
		t.Errorf("Write(Markdown) = %v, wrote %q; want an error and nothing written", err, md.String())
	}
}
