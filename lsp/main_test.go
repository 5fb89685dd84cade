package lsp

import (
	"fmt"
	"os"
	"testing"
)

// coldLoads makes the servers the tests start load every change from nothing (Options.NoCache).
var coldLoads bool

// TestMain runs every test twice: with the cache that carries the work of one load over to the next, as the server
// runs, and with cold loads, which must give the same answers.
func TestMain(m *testing.M) {
	if code := m.Run(); code != 0 {
		fmt.Fprintln(os.Stderr, "the tests failed with the load cache (Options.NoCache unset)")
		os.Exit(code)
	}
	coldLoads = true
	if code := m.Run(); code != 0 {
		fmt.Fprintln(os.Stderr, "the tests failed with cold loads (Options.NoCache set)")
		os.Exit(code)
	}
	os.Exit(0)
}
