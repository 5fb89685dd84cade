package templates

import (
	"strconv"
	"strings"

	"github.com/promptc/promptc/blocks"
)

// OmittedLine is the final item of list variable v when n of its items were dropped, as Prepare writes it (its
// omitted text with "{n}" replaced by n, escaped and neutralised like every item), or "" when v has no omitted
// text or n is 0 (ok false). The turn budget, which drops more items after the limits, writes the line again with
// its count. The line is an item as Prepare makes it: a string for a trusted list, else a value of v's trust.
func OmittedLine(v *blocks.Var, n int, markers []string) (line any, ok bool) {
	if v.Omitted == "" || n <= 0 {
		return nil, false
	}
	return finish(v, strings.ReplaceAll(v.Omitted, "{n}", strconv.Itoa(n)), markers), true
}
