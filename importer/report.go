package importer

import (
	"fmt"
	"io"
	"strings"

	"github.com/promptc/promptc/internal/plural"
)

// Counts is what promptc import says of the project after "wrote a new project in DIR": ": 2 tasks, 9 blocks (3
// shared)".
func (r *Result) Counts() string {
	return fmt.Sprintf(": %s, %s (%d shared)", plural.Count(len(r.Tasks), "task"), plural.Count(r.Blocks, "block"), r.Shared)
}

// NextSteps is what promptc import prints after the files it wrote: whether every runbook reproduces its file byte
// for byte (or how many normalisations WriteNormalisations lists), then the commands to try, run as inv ("promptc"
// or "promptc -C DIR").
func (r *Result) NextSteps(inv string) string {
	var b strings.Builder
	if n := len(r.Normalisations); n == 0 {
		b.WriteString("Every runbook reproduces its file byte for byte.\n")
	} else {
		fmt.Fprintf(&b, "The runbooks reproduce their files but for %s, printed on stderr.\n", plural.Count(n, "normalisation"))
	}
	fmt.Fprintf(&b, "\nNext, try:\n  %s render --task %s\n  %s check\n", inv, r.Tasks[0], inv)
	return b.String()
}

// WriteNormalisations writes each normalisation on a line of its own, as FILE:LINE: what (promptc import's
// standard error).
func (r *Result) WriteNormalisations(w io.Writer) error {
	var b strings.Builder
	for _, n := range r.Normalisations {
		b.WriteString(n.String() + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
