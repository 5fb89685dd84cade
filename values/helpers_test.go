package values_test

import (
	"github.com/promptc/promptc/internal/testenv"
)

// The helpers of blocks' load tests (blocks/load_test.go), for the tests of the type check that moved here with it.

// archive and with build in-memory projects from txtar-like texts (internal/testenv).
var archive, with = testenv.Archive, testenv.With

// base is testenv.Base, a valid project the cases below break in one place each.
const base = testenv.Base

// manifestWith is the base manifest with more variable declarations appended.
func manifestWith(vars string) string {
	return "-- promptc.toml --\nname = \"acme\"\ntasks = [\"issue\", \"chat\"]\n\n[runbook]\norder = [\"intro\"]\n\n[turn]\norder = [\"ask\"]\n" + vars
}
