package usage

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/tokens"
)

// Prediction compares a bucket's real hit rate with what promptc simulate predicts for the same task, provider
// and model, replaying the project's fixtures (projection.ReplayFixtures) with the runbook laid out as promptc
// project lays it out.
type Prediction struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Task     string `json:"task"`
	// Real and Predicted are hit rates; Below is set when Real is more than Tolerance under Predicted.
	Real      float64 `json:"real"`
	Predicted float64 `json:"predicted"`
	Below     bool    `json:"below"`
	// Turns compares turn by turn, for the turns the log names (the wrapper's "turn") that the fixtures replay.
	Turns []TurnPrediction `json:"turns,omitempty"`
	// Skipped says why no prediction was made ("" when one was).
	Skipped string `json:"skipped,omitempty"`
	// why is Skipped before its names are quoted, for each report format to quote them its way.
	why reason
}

// Tolerance is how far, as a hit rate, a real rate may fall under the prediction before Predict marks it Below: 1
// percentage point. The prediction counts o200k tokens where the provider counts with its own tokenizer, and a log
// sends what the fixtures only sketch, so that a rate a hair under the prediction says nothing.
const Tolerance = 0.01

// below reports whether real is more than Tolerance under predicted, compared in hundredths of a point (the four
// decimals rates are rounded to), so that a rate exactly 1.0 point under is not below, whatever the float64
// rounding of the difference.
func below(real, predicted float64) bool {
	bp := func(f float64) int64 { return int64(math.Round(f * 10000)) }
	return bp(predicted)-bp(real) > bp(Tolerance)
}

// reason is why a bucket was not predicted: a format with a %s for each name, and the names (from the log or the
// project).
type reason struct {
	format string
	names  []string
}

func (r reason) text(quote func(string) string) string {
	args := make([]any, len(r.names))
	for i, n := range r.names {
		args[i] = quote(n)
	}
	return fmt.Sprintf(r.format, args...)
}

// TurnPrediction is one turn's real and predicted hit rate: the requests of that turn number, over every session.
type TurnPrediction struct {
	Turn      int     `json:"turn"`
	Requests  int     `json:"requests"`
	Real      float64 `json:"real"`
	Predicted float64 `json:"predicted"`
	Below     bool    `json:"below"`
}

// Predict fills r.Predictions: for each bucket that names a task, the simulation of prog's fixtures for that task
// under the bucket's model (cat), compared with the real hit rate, in total and turn by turn. A bucket that
// cannot be simulated (no task, a task or model the project does not know, no fixture with turns) gets a
// Prediction saying why. counter counts tokens (nil: o200k_base).
func Predict(r *Report, prog *assemble.Program, cat *projection.Catalog, counter *tokens.Counter) error {
	if counter == nil {
		counter = tokens.New(tokens.O200k)
	}
	r.Predictions, r.Tolerance = nil, Tolerance
	// A task's replays are the same whatever the model: rendered once, for the first bucket of the task, however
	// many providers and models the log holds it under.
	replays := map[string][]projection.Replay{}
	for i := range r.Rows {
		row := &r.Rows[i]
		p := Prediction{Provider: row.Provider, Model: row.Model, Task: row.Task, Real: row.HitRate}
		sim, why, err := simulate(row, prog, cat, counter, replays)
		if err != nil {
			return err
		}
		if why.format != "" {
			p.Skipped, p.why = why.text(strconv.Quote), why
			r.Predictions = append(r.Predictions, p)
			continue
		}
		i := slices.IndexFunc(sim.Layouts, func(l projection.Layout) bool { return l.Name == projection.LayoutPromptc })
		if i < 0 {
			return fmt.Errorf("usage: the simulation has no %s layout", projection.LayoutPromptc)
		}
		layout := sim.Layouts[i]
		p.Predicted = layout.Total.HitRate
		p.Below = below(p.Real, p.Predicted)
		perTurn := map[int]*Counts{}
		for _, u := range layout.Turns {
			c := perTurn[u.Turn]
			if c == nil {
				c = &Counts{}
				perTurn[u.Turn] = c
			}
			c.InputTokens += u.InputTokens
			c.CacheReadTokens += u.CacheReadTokens
		}
		turns := make([]int, 0, len(row.Turns))
		for n := range row.Turns {
			if perTurn[n] != nil {
				turns = append(turns, n)
			}
		}
		slices.Sort(turns)
		for _, n := range turns {
			real := row.Turns[n]
			tp := TurnPrediction{Turn: n, Requests: real.Requests, Real: real.HitRate(), Predicted: perTurn[n].HitRate()}
			tp.Below = below(tp.Real, tp.Predicted)
			p.Turns = append(p.Turns, tp)
		}
		r.Predictions = append(r.Predictions, p)
	}
	return nil
}

// simulate replays row's task under row's model; why says why it cannot. replays holds each task's replays once
// rendered.
func simulate(row *Row, prog *assemble.Program, cat *projection.Catalog, counter *tokens.Counter,
	replays map[string][]projection.Replay) (*projection.Simulation, reason, error) {
	if row.Task == "" {
		return nil, reason{format: "the log names no task (the wrapper's \"task\")"}, nil
	}
	if !slices.Contains(prog.Project.Tasks, row.Task) {
		return nil, reason{"the project has no task %s", []string{row.Task}}, nil
	}
	rt, ok := ratesFor(cat, row.Provider, row.Model)
	if !ok {
		// The provider is one of provider.Names() (ParseLine refuses any other); the model is the log's.
		return nil, reason{"no model table row for " + row.Provider + " %s", []string{row.Model}}, nil
	}
	sessions, ok := replays[row.Task]
	if !ok {
		for _, f := range projection.ReplayFixtures(prog.Project, row.Task) {
			s, err := projection.FixtureReplay(prog, row.Task, f)
			if err != nil {
				return nil, reason{}, err
			}
			sessions = append(sessions, s)
		}
		replays[row.Task] = sessions
	}
	if len(sessions) == 0 {
		return nil, reason{"no fixture renders task %s with [[turn]] entries", []string{row.Task}}, nil
	}
	sim, err := projection.Simulate(sessions, projection.Options{Model: rt.Row, Counter: counter})
	if err != nil {
		return nil, reason{}, err
	}
	return sim, reason{}, nil
}

// writePredictions prints the predictions under the table, names quoted by quote, as a Markdown list when markdown
// is set.
func (r *Report) writePredictions(w io.Writer, quote func(string) string, markdown bool) error {
	if len(r.Predictions) == 0 {
		return nil
	}
	bullet, sub := "  ", "    "
	if markdown {
		bullet, sub = "- ", "  - "
	}
	_, err := fmt.Fprintf(w, "\nPrediction (promptc simulate, the project's fixtures; BELOW: more than %.1f point under it):\n", Tolerance*100)
	for _, p := range r.Predictions {
		name := fmt.Sprintf("%s %s, task %s", quote(p.Provider), quote(p.Model), quote(p.Task))
		if p.Task == "" {
			name = fmt.Sprintf("%s %s, no task", quote(p.Provider), quote(p.Model))
		}
		if p.Skipped != "" {
			why := p.Skipped
			if p.why.format != "" {
				why = p.why.text(func(s string) string {
					if markdown {
						return quote(s)
					}
					return strconv.Quote(s)
				})
			}
			fmt.Fprintf(w, "%s%s: not predicted: %s\n", bullet, name, why)
			continue
		}
		fmt.Fprintf(w, "%s%s: real %s, predicted %s%s\n", bullet, name, percent(p.Real), percent(p.Predicted), verdict(p.Below, p.Real, p.Predicted))
		for _, t := range p.Turns {
			fmt.Fprintf(w, "%sturn %d (%s): real %s, predicted %s%s\n", sub, t.Turn, plural.Count(t.Requests, "request"),
				percent(t.Real), percent(t.Predicted), verdict(t.Below, t.Real, t.Predicted))
		}
	}
	return err
}

func verdict(below bool, real, predicted float64) string {
	if !below {
		return ""
	}
	return fmt.Sprintf(": BELOW the prediction by %.1f points", (predicted-real)*100)
}
