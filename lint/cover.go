package lint

import "fmt"

// uncoveredTasks reports each task that no fixture renders (docs/lint.md, uncovered-task). Such a task has no
// golden file, so promptc check cannot see its runbook change, and a ref that fails in it is found in production.
// A project with no fixture file renders every task through the implicit default fixture, so it has none.
func (l *linter) uncoveredTasks() {
	l.ran[UncoveredTask] = true
	for _, task := range l.p.Tasks {
		covered := false
		for _, f := range l.p.Fixtures {
			if f.AdmitsTask(task) {
				covered = true
				break
			}
		}
		if covered {
			continue
		}
		l.add(UncoveredTask, l.p.TaskRange(task), task,
			fmt.Sprintf("add a fixture whose tasks admit %q (a fixtures/%s.toml holding tasks = [%q]), or add %q to an existing fixture's tasks", task, task, task, task),
			"no fixture renders task %q, so no golden file guards it: check cannot see its runbook change, and a ref that fails in it is found in production", task)
	}
}
