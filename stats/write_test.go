package stats_test

import (
	"bytes"
	"testing"

	"github.com/promptc/promptc/report"
	"github.com/promptc/promptc/stats"
)

// A stats report is written as text or json and refuses markdown rather than print something else.
func TestWriteByFormat(t *testing.T) {
	var md bytes.Buffer
	r := &stats.Report{}
	if err := r.Write(&md, report.Markdown); err == nil || md.Len() > 0 {
		t.Errorf("Report.Write(Markdown) = %v, wrote %q; want an error and nothing written", err, md.String())
	}
	for _, f := range []report.Format{report.Text, report.JSON} {
		var got, want bytes.Buffer
		if err := r.Write(&got, f); err != nil {
			t.Fatalf("Write(%s) = %v", f, err)
		}
		if f == report.Text {
			_ = r.WriteText(&want)
		} else {
			_ = r.WriteJSON(&want)
		}
		if got.String() != want.String() {
			t.Errorf("Write(%s) = %q, want %q", f, got.String(), want.String())
		}
	}
}
