package blocks_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/promptc/promptc/blocks"
)

func TestCheckTask(t *testing.T) {
	tasks := []string{"issue", "chat"}
	tests := []struct {
		name, task, want string
	}{
		{name: "known", task: "chat", want: ""},
		{name: "close", task: "isue", want: `unknown task "isue" (did you mean "issue"?); the tasks are: issue, chat`},
		{name: "far", task: "review", want: `unknown task "review"; the tasks are: issue, chat`},
		{name: "empty", task: "", want: `unknown task ""; the tasks are: issue, chat`},
		{name: "quoted", task: "a\"b\n", want: `unknown task "a\"b\n"; the tasks are: issue, chat`},
		// Two edits away is suggested, three is not.
		{name: "two edits", task: "iss", want: `unknown task "iss" (did you mean "issue"?); the tasks are: issue, chat`},
		{name: "three edits", task: "is", want: `unknown task "is"; the tasks are: issue, chat`},
		// Names are case-sensitive: another case is unknown, with the task suggested.
		{name: "case", task: "Chat", want: `unknown task "Chat" (did you mean "chat"?); the tasks are: issue, chat`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := blocks.CheckTask(tt.task, tasks)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("CheckTask(%q) = %v, want nil", tt.task, err)
				}
				return
			}
			var ut *blocks.UnknownTaskError
			if !errors.As(err, &ut) || ut.Task != tt.task {
				t.Fatalf("CheckTask(%q) = %#v, want an *UnknownTaskError for it", tt.task, err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("CheckTask(%q):\n got %s\nwant %s", tt.task, got, tt.want)
			}
		})
	}
}

// An unknown task names the closest task and lists them all, as every command reports it.
func ExampleCheckTask() {
	tasks := []string{"issue", "chat"}
	fmt.Println(blocks.CheckTask("chat", tasks))
	fmt.Println(blocks.CheckTask("isue", tasks))
	// Output:
	// <nil>
	// unknown task "isue" (did you mean "issue"?); the tasks are: issue, chat
}
