package source_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/promptc/promptc/source"
)

// diagDump prints every field of each diagnostic, one per line, since String leaves out Severity and Suggestion.
func diagDump(ds source.Diagnostics) string {
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
	at := func(file string, line int) *source.Range {
		return &source.Range{
			Filename: file,
			Start:    source.Pos{Line: line, Column: 1, Byte: 10 * (line - 1)},
			End:      source.Pos{Line: line, Column: 4, Byte: 10*(line-1) + 3},
		}
	}
	d := source.Diagnostic{Summary: "bad", Subject: at("a.toml", 1)}
	detail, fix, warning, line2, fileB, nowhere, other := d, d, d, d, d, d, d
	detail.Detail = "why"
	fix.Suggestion = "do this"
	warning.Severity = source.SeverityWarning
	line2.Subject = at("a.toml", 2)
	fileB.Subject = at("b.toml", 1)
	nowhere.Subject = nil
	other.Summary = "worse"

	tests := []struct {
		name string
		in   source.Diagnostics
		want string
	}{
		{
			name: "none",
			in:   nil,
			want: "",
		},
		{
			name: "one",
			in:   source.Diagnostics{d},
			want: `error a.toml:1:1 "bad" detail="" fix=""` + "\n",
		},
		{
			name: "exact duplicates",
			in:   source.Diagnostics{d, d, d},
			want: `error a.toml:1:1 "bad" detail="" fix=""` + "\n",
		},
		{
			name: "duplicates apart",
			in:   source.Diagnostics{other, d, other, d, other},
			want: `error a.toml:1:1 "bad" detail="" fix=""` + "\n" +
				`error a.toml:1:1 "worse" detail="" fix=""` + "\n",
		},
		{
			name: "differs in detail",
			in:   source.Diagnostics{detail, d, detail, d},
			want: `error a.toml:1:1 "bad" detail="" fix=""` + "\n" +
				`error a.toml:1:1 "bad" detail="why" fix=""` + "\n",
		},
		{
			name: "differs in suggestion",
			in:   source.Diagnostics{fix, d, fix, d},
			want: `error a.toml:1:1 "bad" detail="" fix=""` + "\n" +
				`error a.toml:1:1 "bad" detail="" fix="do this"` + "\n",
		},
		{
			name: "differs in severity",
			in:   source.Diagnostics{warning, d, warning, d},
			want: `error a.toml:1:1 "bad" detail="" fix=""` + "\n" +
				`warning a.toml:1:1 "bad" detail="" fix=""` + "\n",
		},
		{
			name: "differs in subject line",
			in:   source.Diagnostics{line2, d, line2, d},
			want: `error a.toml:1:1 "bad" detail="" fix=""` + "\n" +
				`error a.toml:2:1 "bad" detail="" fix=""` + "\n",
		},
		{
			name: "differs in subject file",
			in:   source.Diagnostics{fileB, d, fileB, d},
			want: `error a.toml:1:1 "bad" detail="" fix=""` + "\n" +
				`error b.toml:1:1 "bad" detail="" fix=""` + "\n",
		},
		{
			name: "differs in having no subject",
			in:   source.Diagnostics{d, nowhere, d, nowhere},
			want: `error nil "bad" detail="" fix=""` + "\n" +
				`error a.toml:1:1 "bad" detail="" fix=""` + "\n",
		},
		{
			name: "near duplicates",
			in:   source.Diagnostics{detail, fix, warning, line2, fileB, nowhere, d},
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
			in: source.Diagnostics{
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

// TestDiagnosticsSortRangeEnds: two diagnostics that differ only in where their range ends, or in having a subject
// at all, are distinct, and duplicates of either are dropped even when the other stands between them.
func TestDiagnosticsSortRangeEnds(t *testing.T) {
	short := source.Diagnostic{Summary: "x", Subject: &source.Range{Filename: "a", Start: source.Pos{Line: 1, Column: 1}, End: source.Pos{Line: 1, Column: 2, Byte: 1}}}
	long := short
	long.Subject = &source.Range{Filename: "a", Start: source.Pos{Line: 1, Column: 1}, End: source.Pos{Line: 1, Column: 5, Byte: 4}}
	none := source.Diagnostic{Summary: "x"}
	empty := source.Diagnostic{Summary: "x", Subject: &source.Range{}}
	got := source.Diagnostics{short, long, short, long, none, empty, none, empty}.Sort()
	if len(got) != 4 {
		t.Errorf("Sort kept %d diagnostics, want 4:\n%s", len(got), diagDump(got))
	}
}

// TestDiagnosticsError: as an error, Diagnostics lists every problem, one per line with no final newline, each as
// String prints it; none is "no problems".
func TestDiagnosticsError(t *testing.T) {
	at := &source.Range{Filename: "blocks/a.toml", Start: source.Pos{Line: 3, Column: 7, Byte: 20}, End: source.Pos{Line: 3, Column: 9, Byte: 22}}
	tests := []struct {
		name  string
		diags source.Diagnostics
		want  string
	}{
		{name: "none", diags: nil, want: "no problems"},
		{name: "one", diags: source.Diagnostics{{Summary: "bad", Subject: at}}, want: "blocks/a.toml:3:7: bad"},
		{
			name: "three, with a detail, a warning and no subject",
			diags: source.Diagnostics{
				{Summary: "bad", Detail: "why", Subject: at},
				{Summary: "odd", Severity: source.SeverityWarning, Subject: at},
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
