package guard

import (
	"fmt"
	"io"
)

// WriteFollowUp writes the command that acts on a failed check, as promptc check ends its report (after the text and
// any annotations): with no golden files yet, the command that writes golden/ (and, unless verbose, the one that
// prints every artifact instead of the summary); when an artifact differs from golden/, the command that accepts the
// change. It writes nothing when no artifact differs (a pass, or lint errors alone: no command accepts those).
// invocation is how the user runs promptc, repeated in the commands ("promptc -C examples/tracker"; "" for
// "promptc").
func (r *Result) WriteFollowUp(w io.Writer, invocation string, verbose bool) error {
	if invocation == "" {
		invocation = "promptc"
	}
	var err error
	switch {
	case !r.Changed():
	case r.NoGolden:
		more := ""
		if !verbose {
			more = fmt.Sprintf(" (%s check --verbose prints every artifact)", invocation)
		}
		_, err = fmt.Fprintf(w, "\nTo write golden/, run: %s check --update%s\n", invocation, more)
	default:
		_, err = fmt.Fprintf(w, "\nTo accept these changes, run: %s check --update\n", invocation)
	}
	return err
}
