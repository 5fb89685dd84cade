package blocks

import (
	"slices"

	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/source"
)

// Traffic is one entry of promptc.toml's [traffic]: how many requests a day a task serves, and on which model
// (docs/reference.md#traffic). Change reports price a change at it.
type Traffic struct {
	// Task is one of the manifest's tasks; RequestsPerDay (≥ 0) its requests a day; Model a model table row's name.
	Task           string
	RequestsPerDay int
	Model          string
	// Range is where the entry is written.
	Range source.Range
}

var trafficKeys = []key[*Traffic]{
	{name: "requests_per_day", kind: kindInt, min: 0, max: noMax, need: needText[*Traffic](`a [traffic] entry needs requests_per_day = N (requests a day, an integer ≥ 0)`),
		set: func(_ *tableReader, t *Traffic, v value) { t.RequestsPerDay = int(v.n) }},
	{name: "model", kind: kindString, need: needText[*Traffic](`a [traffic] entry needs model = "…" (a row of the model table, docs/providers.md)`),
		set: func(r *tableReader, t *Traffic, v value) {
			if v.str == "" {
				r.errorf("model", "model must not be empty: name a row of the model table (docs/providers.md)")
				return
			}
			t.Model = v.str
		}},
}

// setTraffic reads [traffic]: one inline table per task, in task-name order. A task the manifest does not list is an
// error with the closest task suggested; tasks are read before [traffic] (manifestKeys' order).
func setTraffic(r *tableReader, l *loader, v value) {
	tr := l.table(r.file, r.ix, "traffic", 0, "[traffic]", v.table)
	for _, task := range sortedKeys(v.table) {
		tr.known[task] = true
		m, ok := v.table[task].(map[string]any)
		if !ok {
			tr.errorf(task, "traffic.%s must be a table: %s = { requests_per_day = 1000, model = \"claude-sonnet-4-5\" }, not %s", task, task, DescribeValue(v.table[task]))
			continue
		}
		er := l.table(r.file, r.ix, "traffic."+task, 0, "[traffic."+task+"]", m)
		t := &Traffic{Task: task, Range: tr.keyRange(task)}
		if !slices.Contains(l.p.Tasks, task) && !l.badTasks[task] {
			tr.errorf(task, "[traffic] names task %q, which promptc.toml's tasks do not list%s", task, suggest.DidYouMean(task, l.p.Tasks))
			decode(er, t, trafficKeys)
			continue
		}
		decode(er, t, trafficKeys)
		l.p.Traffic = append(l.p.Traffic, t)
	}
}
