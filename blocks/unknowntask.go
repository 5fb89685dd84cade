package blocks

import (
	"fmt"
	"strings"

	"github.com/promptc/promptc/internal/suggest"
)

// UnknownTaskError is a task name that the manifest's tasks list does not hold, asked for by a command line, a
// request or a directive. Its message is the one every command prints for it: the name quoted, the closest task when
// one is within an edit distance of 2, then every task in manifest order, so that the user can pick one without
// opening promptc.toml:
//
//	unknown task "isue" (did you mean "issue"?); the tasks are: issue, chat
type UnknownTaskError struct {
	// Task is the name asked for; Tasks the manifest's tasks, in manifest order.
	Task  string
	Tasks []string
}

func (e *UnknownTaskError) Error() string {
	return fmt.Sprintf("unknown task %q%s; the tasks are: %s", e.Task, suggest.DidYouMean(e.Task, e.Tasks), strings.Join(e.Tasks, ", "))
}

// CheckTask returns nil when task is one of tasks, and an *UnknownTaskError otherwise.
func CheckTask(task string, tasks []string) error {
	for _, t := range tasks {
		if t == task {
			return nil
		}
	}
	return &UnknownTaskError{Task: task, Tasks: tasks}
}
