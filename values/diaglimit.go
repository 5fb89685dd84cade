package values

import (
	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/source"
)

// MaxDiagnostics is how many problems ReadFile lists for one values file (docs/values.md#values-files): the
// first it finds, in the order of the file; one more diagnostic, placed at the first problem left out, counts the
// rest. A file of a million bad records is reported in a hundred lines, in memory and time that do not grow with
// what is left out.
const MaxDiagnostics = 100

// diagLimit collects at most max diagnostics and counts the ones past them.
type diagLimit struct {
	max   int
	diags source.Diagnostics
	taken int          // problems listed, or to be listed by whoever asked listed
	more  int          // problems found past max
	next  source.Range // where the first of them is
	// ask, when set, decides in place of max whether each problem is listed: a JSON text's problems are the
	// problems of the value that holds it, which its check counts and may leave unsaid (nestedCheck.decoded).
	ask func() bool
}

// listed reports whether the next problem is to be listed, and counts it either way: one that is, the caller puts
// into words and appends to diags; one that is not, the caller places with skipped.
func (l *diagLimit) listed() bool {
	if l.ask != nil {
		if l.ask() {
			return true
		}
		l.more++
		return false
	}
	if l.taken < l.max {
		l.taken++
		return true
	}
	l.more++
	return false
}

// skipped records rng as the place of the first problem left out, when the one just counted is that one.
func (l *diagLimit) skipped(rng source.Range) {
	if l.more == 1 {
		l.next = rng
	}
}

// errorf lists an error about rng, or counts it past the limit. The arguments are evaluated by the caller either
// way: a costly one waits for listed.
func (l *diagLimit) errorf(rng source.Range, format string, args ...any) {
	if l.listed() {
		l.diags.Errorf(rng, format, args...)
		return
	}
	l.skipped(rng)
}

// fatalf lists the error that ends the reading (a syntax error), whatever the limit: it is the last problem, and the
// one that says why nothing after it was read. With ask, it too is listed only if ask says so.
func (l *diagLimit) fatalf(rng source.Range, format string, args ...any) {
	if l.ask != nil && !l.ask() {
		l.more++
		return
	}
	l.diags.Errorf(rng, format, args...)
}

// result returns the diagnostics listed, sorted, and the one that counts the rest, last.
func (l *diagLimit) result(what string) source.Diagnostics {
	ds := l.diags.Sort()
	if l.more > 0 {
		ds.Errorf(l.next, "%d more %s not listed: promptc lists the first %d problems of %s; fix these and run it again", l.more, plural.Noun(l.more, "problem is", "problems are"), l.max, what)
	}
	return ds
}
