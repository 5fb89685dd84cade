package assemble_test

import (
	"testing"

	"github.com/promptc/promptc/assemble"
)

// The command an OutDirError suggests for golden/ is the caller's invocation, so that a user who ran promptc -C DIR
// can paste it; the other messages name no command.
func TestOutDirErrorInvocation(t *testing.T) {
	tests := []struct {
		name string
		err  assemble.OutDirError
		want string
	}{
		{"golden default", assemble.OutDirError{Out: "--out golden", In: "golden"},
			"--out golden is in golden/, which belongs to the project's sources: golden/ is what check compares against; to rewrite it, run promptc check --update"},
		{"golden with -C", assemble.OutDirError{Out: "--out golden/x", In: "golden", Invocation: "promptc -C 'my dir'"},
			"--out golden/x is in golden/, which belongs to the project's sources: golden/ is what check compares against; to rewrite it, run promptc -C 'my dir' check --update"},
		{"blocks", assemble.OutDirError{Out: "--out blocks", In: "blocks", Invocation: "promptc -C p"},
			"--out blocks is in blocks/, which belongs to the project's sources: give it a directory of its own (the default is build/)"},
		{"root", assemble.OutDirError{Out: "--out .", Invocation: "promptc -C p"},
			"--out . is the project root: build would write artifacts among the sources; give it a directory of its own (the default is build/)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error():\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}
