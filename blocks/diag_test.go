package blocks_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/blocks"
)

// diagDump prints every field of each diagnostic, one per line, since String leaves out Severity and Suggestion.
func diagDump(ds blocks.Diagnostics) string {
	var b strings.Builder
	for _, d := range ds {
		subject := "nil"
		if d.Subject != nil {
			subject = d.Subject.String()
		}
		fmt.Fprintf(&b, "%s %s %q detail=%q fix=%q\n", d.Severity, subject, d.Summary, d.Detail, d.Suggestion)
	}
	return b.String()
}

// TestDiagnosticsSort: Sort orders by place, then summary, detail, severity and suggestion, and keeps exactly one of
// each distinct diagnostic, however many times and in whatever order it was reported.
func TestDiagnosticsSort(t *testing.T) {
	at := func(file string, line int) *blocks.Range {
		return &blocks.Range{
			Filename: file,
			Start:    blocks.Pos{Line: line, Column: 1, Byte: 10 * (line - 1)},
			End:      blocks.Pos{Line: line, Column: 4, Byte: 10*(line-1) + 3},
		}
	}
	d := blocks.Diagnostic{Summary: "bad", Subject: at("a.toml", 1)}
	detail, fix, warning, line2, fileB, nowhere, other := d, d, d, d, d, d, d
	detail.Detail = "why"
	fix.Suggestion = "do this"
	warning.Severity = blocks.SeverityWarning
	line2.Subject = at("a.toml", 2)
	fileB.Subject = at("b.toml", 1)
	nowhere.Subject = nil
	other.Summary = "worse"

	tests := []struct {
		name string
		in   blocks.Diagnostics
		want string
	}{
		{
			name: "none",
			in:   nil,
			want: "",
		},
		{
			name: "one",
			in:   blocks.Diagnostics{d},
			want: `error a.toml:1:1 "bad" detail="" fix=""` + "\n",
		},
		{
			name: "exact duplicates",
			in:   blocks.Diagnostics{d, d, d},
			want: `error a.toml:1:1 "bad" detail="" fix=""` + "\n",
		},
		{
			name: "duplicates apart",
			in:   blocks.Diagnostics{other, d, other, d, other},
			want: `error a.toml:1:1 "bad" detail="" fix=""` + "\n" +
				`error a.toml:1:1 "worse" detail="" fix=""` + "\n",
		},
		{
			name: "differs in detail",
			in:   blocks.Diagnostics{detail, d, detail, d},
			want: `error a.toml:1:1 "bad" detail="" fix=""` + "\n" +
				`error a.toml:1:1 "bad" detail="why" fix=""` + "\n",
		},
		{
			name: "differs in suggestion",
			in:   blocks.Diagnostics{fix, d, fix, d},
			want: `error a.toml:1:1 "bad" detail="" fix=""` + "\n" +
				`error a.toml:1:1 "bad" detail="" fix="do this"` + "\n",
		},
		{
			name: "differs in severity",
			in:   blocks.Diagnostics{warning, d, warning, d},
			want: `error a.toml:1:1 "bad" detail="" fix=""` + "\n" +
				`warning a.toml:1:1 "bad" detail="" fix=""` + "\n",
		},
		{
			name: "differs in subject line",
			in:   blocks.Diagnostics{line2, d, line2, d},
			want: `error a.toml:1:1 "bad" detail="" fix=""` + "\n" +
				`error a.toml:2:1 "bad" detail="" fix=""` + "\n",
		},
		{
			name: "differs in subject file",
			in:   blocks.Diagnostics{fileB, d, fileB, d},
			want: `error a.toml:1:1 "bad" detail="" fix=""` + "\n" +
				`error b.toml:1:1 "bad" detail="" fix=""` + "\n",
		},
		{
			name: "differs in having no subject",
			in:   blocks.Diagnostics{d, nowhere, d, nowhere},
			want: `error nil "bad" detail="" fix=""` + "\n" +
				`error a.toml:1:1 "bad" detail="" fix=""` + "\n",
		},
		{
			name: "near duplicates",
			in:   blocks.Diagnostics{detail, fix, warning, line2, fileB, nowhere, d},
			want: `error nil "bad" detail="" fix=""` + "\n" +
				`error a.toml:1:1 "bad" detail="" fix=""` + "\n" +
				`error a.toml:1:1 "bad" detail="" fix="do this"` + "\n" +
				`warning a.toml:1:1 "bad" detail="" fix=""` + "\n" +
				`error a.toml:1:1 "bad" detail="why" fix=""` + "\n" +
				`error a.toml:2:1 "bad" detail="" fix=""` + "\n" +
				`error b.toml:1:1 "bad" detail="" fix=""` + "\n",
		},
		{
			name: "near duplicates, each twice, shuffled",
			in: blocks.Diagnostics{
				fileB, d, warning, nowhere, detail, line2, fix,
				fix, nowhere, d, line2, warning, fileB, detail,
			},
			want: `error nil "bad" detail="" fix=""` + "\n" +
				`error a.toml:1:1 "bad" detail="" fix=""` + "\n" +
				`error a.toml:1:1 "bad" detail="" fix="do this"` + "\n" +
				`warning a.toml:1:1 "bad" detail="" fix=""` + "\n" +
				`error a.toml:1:1 "bad" detail="why" fix=""` + "\n" +
				`error a.toml:2:1 "bad" detail="" fix=""` + "\n" +
				`error b.toml:1:1 "bad" detail="" fix=""` + "\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := diagDump(tt.in.Sort()); got != tt.want {
				t.Errorf("Sort:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestLoadReportsRepeatedTaskOnce: a task listed more than once is one problem with the list, reported once at the
// tasks key, however many times the name repeats.
func TestLoadReportsRepeatedTaskOnce(t *testing.T) {
	tests := []struct {
		name  string
		tasks string
		want  string
	}{
		{
			name:  "twice",
			tasks: `["zz", "zz"]`,
			want:  `promptc.toml:2:1: task "zz" is listed twice` + "\n",
		},
		{
			name:  "three times",
			tasks: `["zz", "zz", "zz"]`,
			want:  `promptc.toml:2:1: task "zz" is listed twice` + "\n",
		},
		{
			name:  "two names twice",
			tasks: `["zz", "yy", "zz", "yy"]`,
			want: `promptc.toml:2:1: task "yy" is listed twice` + "\n" +
				`promptc.toml:2:1: task "zz" is listed twice` + "\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			manifest := "name = \"p\"\ntasks = " + tt.tasks + "\n\n[runbook]\norder = []\n"
			_, diags := blocks.Load(fstest.MapFS{"promptc.toml": {Data: []byte(manifest)}})
			if got := diags.String(); got != tt.want {
				t.Errorf("Load:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestDiagnosticsSortRangeEnds: two diagnostics that differ only in where their range ends, or in having a subject
// at all, are distinct, and duplicates of either are dropped even when the other stands between them.
func TestDiagnosticsSortRangeEnds(t *testing.T) {
	short := blocks.Diagnostic{Summary: "x", Subject: &blocks.Range{Filename: "a", Start: blocks.Pos{Line: 1, Column: 1}, End: blocks.Pos{Line: 1, Column: 2, Byte: 1}}}
	long := short
	long.Subject = &blocks.Range{Filename: "a", Start: blocks.Pos{Line: 1, Column: 1}, End: blocks.Pos{Line: 1, Column: 5, Byte: 4}}
	none := blocks.Diagnostic{Summary: "x"}
	empty := blocks.Diagnostic{Summary: "x", Subject: &blocks.Range{}}
	got := blocks.Diagnostics{short, long, short, long, none, empty, none, empty}.Sort()
	if len(got) != 4 {
		t.Errorf("Sort kept %d diagnostics, want 4:\n%s", len(got), diagDump(got))
	}
}

// TestDiagnosticsError: as an error, Diagnostics lists every problem, one per line with no final newline, each as
// String prints it; none is "no problems".
func TestDiagnosticsError(t *testing.T) {
	at := &blocks.Range{Filename: "blocks/a.toml", Start: blocks.Pos{Line: 3, Column: 7, Byte: 20}, End: blocks.Pos{Line: 3, Column: 9, Byte: 22}}
	tests := []struct {
		name  string
		diags blocks.Diagnostics
		want  string
	}{
		{name: "none", diags: nil, want: "no problems"},
		{name: "one", diags: blocks.Diagnostics{{Summary: "bad", Subject: at}}, want: "blocks/a.toml:3:7: bad"},
		{
			name: "three, with a detail, a warning and no subject",
			diags: blocks.Diagnostics{
				{Summary: "bad", Detail: "why", Subject: at},
				{Summary: "odd", Severity: blocks.SeverityWarning, Subject: at},
				{Summary: "no place"},
			},
			want: "blocks/a.toml:3:7: bad; why\nblocks/a.toml:3:7: odd\nno place",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.diags.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
			if got := fmt.Sprint(tt.diags.Err()); len(tt.diags) > 0 && got != tt.want {
				t.Errorf("fmt.Sprint(Err()) = %q, want %q", got, tt.want)
			}
		})
	}
}
