//go:build unix

package main

import (
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdMkfifo makes named pipes (FIFOs), which txtar archives cannot hold:
//
//	mkfifo blocks/x.toml
func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: mkfifo file...")
	}
	for _, name := range args {
		ts.Check(syscall.Mkfifo(ts.MkAbs(name), 0o644))
	}
}
