//go:build !unix

package main

import "github.com/rogpeppe/go-internal/testscript"

// cmdMkfifo skips the script: there are no named pipes to make here.
func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	ts.Skip("no named pipes on this system")
}
