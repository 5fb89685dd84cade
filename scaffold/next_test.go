package scaffold_test

import (
	"fmt"
	"testing"

	"github.com/promptc/promptc/scaffold"
)

func TestNextStepsAligns(t *testing.T) {
	got := scaffold.NextSteps("")
	want := "\nNext, try:\n" +
		"  promptc render --task review           # print a runbook\n" +
		"  promptc render --task review --turn 1  # print the message of turn 1\n" +
		"  promptc check                          # compare every artifact with golden/ (passes now)\n" +
		"  promptc lint                           # stability lints (clean now)\n"
	if got != want {
		t.Errorf("NextSteps(\"\"):\n got %q\nwant %q", got, want)
	}
}

// NextSteps repeats the invocation that reaches the new project in every command.
func ExampleNextSteps() {
	fmt.Print(scaffold.NextSteps("promptc -C proj"))
	// Output:
	// Next, try:
	//   promptc -C proj render --task review           # print a runbook
	//   promptc -C proj render --task review --turn 1  # print the message of turn 1
	//   promptc -C proj check                          # compare every artifact with golden/ (passes now)
	//   promptc -C proj lint                           # stability lints (clean now)
}
