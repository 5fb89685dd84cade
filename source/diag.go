package source

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Severity says whether a diagnostic stops the command (an error) or is reported and passes (a warning).
type Severity uint8

const (
	// SeverityError is the zero value: a diagnostic is an error unless it says otherwise.
	SeverityError Severity = iota
	SeverityWarning
)

var severityNames = []string{"error", "warning"}

// String returns the severity's name: "error" or "warning".
func (s Severity) String() string {
	if int(s) < len(severityNames) {
		return severityNames[s]
	}
	return "Severity(" + strconv.Itoa(int(s)) + ")"
}

// MarshalText writes the severity's name.
func (s Severity) MarshalText() ([]byte, error) {
	if int(s) < len(severityNames) {
		return []byte(severityNames[s]), nil
	}
	return nil, fmt.Errorf("invalid severity %d", s)
}

// UnmarshalText reads "error" or "warning".
func (s *Severity) UnmarshalText(b []byte) error {
	i := slices.Index(severityNames, string(b))
	if i < 0 {
		return fmt.Errorf("unknown severity %q (want \"error\" or \"warning\")", b)
	}
	*s = Severity(i)
	return nil
}

// Diagnostic is one problem, in the shape of hcl's: what went wrong (Summary, a sentence that usually says what to do
// as well), an optional Detail and Suggestion, and the Subject range of the source it is about. Every stage of
// promptc (loading, template parsing and analysis, value checks, rendering, lints) reports problems as diagnostics,
// and every writer (text, JSON, GitHub annotations) prints them.
type Diagnostic struct {
	Severity Severity
	Summary  string
	// Detail explains the problem further, when a sentence is not enough.
	Detail string
	// Suggestion is what to do about it, when it is not part of Summary (lint findings print it as "fix:").
	Suggestion string
	// Subject is where the problem is; nil for a problem with no source (a value passed through the Go API).
	Subject *Range
	// Cause marks a file that could not be read or parsed (the loader sets it): Sort puts it before every other
	// problem, since what is left may follow from the file's absence, and the user should read the cause first.
	Cause bool
}

// Range returns the subject, or the zero Range when there is none.
func (d Diagnostic) Range() Range {
	if d.Subject == nil {
		return Range{}
	}
	return *d.Subject
}

// String formats the diagnostic as path:line:col: summary, followed by the detail after "; " when there is one. A
// problem with no subject is just its text: "?:?:?: " would add nothing.
func (d Diagnostic) String() string {
	msg := d.Summary
	if d.Detail != "" {
		msg += "; " + d.Detail
	}
	if d.Subject == nil {
		return msg
	}
	return d.Subject.String() + ": " + msg
}

func (d Diagnostic) equal(o Diagnostic) bool {
	return d.Severity == o.Severity && d.Summary == o.Summary && d.Detail == o.Detail && d.Suggestion == o.Suggestion &&
		d.Range() == o.Range() && (d.Subject == nil) == (o.Subject == nil)
}

// Diagnostics is every problem found in one pass. A nil or empty Diagnostics means success.
type Diagnostics []Diagnostic

// Error lists every problem, one per line as String prints it, without a final newline: an error returned or logged
// as a whole (log.Fatal(diags), fmt.Errorf("…: %w", diags)) reports them all. An empty Diagnostics is "no problems".
func (ds Diagnostics) Error() string {
	if len(ds) == 0 {
		return "no problems"
	}
	return strings.TrimSuffix(ds.String(), "\n")
}

// Err returns ds as an error, or nil when there are no diagnostics.
func (ds Diagnostics) Err() error {
	if len(ds) == 0 {
		return nil
	}
	return ds
}

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	return slices.ContainsFunc(ds, func(d Diagnostic) bool { return d.Severity == SeverityError })
}

// Errorf appends an error about rng (the zero Range for none).
func (ds *Diagnostics) Errorf(rng Range, format string, args ...any) {
	*ds = append(*ds, Diagnostic{Summary: fmt.Sprintf(format, args...), Subject: rng.Ptr()})
}

// Sort orders the diagnostics by file, line, column and text, and drops exact duplicates, so that the report does
// not depend on the order in which checks ran. A file that could not be read or parsed comes first: whatever else
// is reported may follow from it.
func (ds Diagnostics) Sort() Diagnostics {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		if a.Cause != b.Cause {
			return cmpBool(b.Cause, a.Cause)
		}
		ra, rb := a.Range(), b.Range()
		if c := ra.Compare(rb); c != 0 {
			return c
		}
		if a.Subject == nil || b.Subject == nil {
			return cmpBool(a.Subject != nil, b.Subject != nil)
		}
		if c := cmp.Compare(ra.End.Byte, rb.End.Byte); c != 0 {
			return c
		}
		if c := cmp.Compare(ra.Start.Byte, rb.Start.Byte); c != 0 {
			return c
		}
		if c := strings.Compare(a.Summary, b.Summary); c != 0 {
			return c
		}
		if c := strings.Compare(a.Detail, b.Detail); c != 0 {
			return c
		}
		if c := cmp.Compare(int(a.Severity), int(b.Severity)); c != 0 {
			return c
		}
		return strings.Compare(a.Suggestion, b.Suggestion)
	})
	out := ds[:0]
	for i, d := range ds {
		if i > 0 && d.equal(ds[i-1]) {
			continue
		}
		out = append(out, d)
	}
	return out
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// String prints one diagnostic per line.
func (ds Diagnostics) String() string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	return b.String()
}
