package templates

import (
	"strconv"
	"strings"

	"github.com/promptc/promptc/blocks"
)

// OmittedLine is the final item of list variable v when n of its items were dropped, as Prepare writes it (its
// omitted text with "{n}" replaced by n, escaped and neutralised like every item), or "" when v has no omitted
// text or n is 0. The turn budget, which drops more items after the limits, writes the line again with its count.
func OmittedLine(v *blocks.Var, n int, markers []string) string {
	if v.Omitted == "" || n <= 0 {
		return ""
	}
	return finish(v, strings.ReplaceAll(v.Omitted, "{n}", strconv.Itoa(n)), markers)
}
