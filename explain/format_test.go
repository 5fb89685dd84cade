package explain_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/promptc/promptc/explain"
	"github.com/promptc/promptc/report"
)

// TestFormats: an explain report is written as text or json, and Write refuses a format it does not write rather
// than falling back to another one.
func TestFormats(t *testing.T) {
	if !slices.Equal(explain.Formats, []report.Format{report.Text, report.JSON}) {
		t.Errorf("Formats = %v, want text and json, text first (the flag's default)", explain.Formats)
	}
	c := report.Formats(explain.Formats...)
	if err := c.Set("markdown"); err == nil || err.Error() != `must be text or json, not "markdown"` {
		t.Errorf(`Set("markdown") = %v`, err)
	}
	var b bytes.Buffer
	err := (&explain.LineReport{}).Write(&b, report.Markdown)
	if err == nil || b.Len() > 0 {
		t.Errorf("LineReport.Write(markdown) = %v, wrote %q: want an error and nothing written", err, b.String())
	}
	err = (&explain.BlockReport{}).Write(&b, report.Markdown)
	if err == nil || b.Len() > 0 {
		t.Errorf("BlockReport.Write(markdown) = %v, wrote %q: want an error and nothing written", err, b.String())
	}
}
