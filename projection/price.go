package projection

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/tokens"
)

// Traffic is one task's production traffic: requests a day on one model (a [traffic] entry of promptc.toml, or
// what usage logs show: docs/usage.md#the-price-of-a-change).
type Traffic struct {
	Task           string  `json:"task"`
	Model          string  `json:"model"`
	RequestsPerDay float64 `json:"requests_per_day"`
	// Range is where a [traffic] entry is written (zero for traffic read from logs).
	Range source.Range `json:"-"`
}

// ManifestTraffic returns p's [traffic] entries, in task order.
func ManifestTraffic(p *blocks.Project) []Traffic {
	var out []Traffic
	for _, t := range p.Traffic {
		out = append(out, Traffic{Task: t.Task, Model: t.Model, RequestsPerDay: float64(t.RequestsPerDay), Range: t.Range})
	}
	return out
}

// Unit names what a ChangePrice's figures count: US dollars where the model table has a dated input price, else
// input-price units (the cost of one uncached input token).
const (
	UnitUSD        = "USD"
	UnitInputPrice = "input-price units"
)

// ChangePrice is what a change costs in production for one task on one model: the steady-state input cost per
// request before and after (promptc simulate's replay of the task's fixtures under the model's rules, promptc's
// layout), the difference per day at the task's traffic, and the one-time re-write of the stable prefix the change
// invalidates. Figures are in Unit, rounded to six decimals.
type ChangePrice struct {
	Task           string  `json:"task"`
	Provider       string  `json:"provider"`
	Model          string  `json:"model"`
	RequestsPerDay float64 `json:"requests_per_day"`
	// Unit is UnitUSD or UnitInputPrice; InputPricePerMTok, PriceSource and PriceChecked cite the price (USD).
	Unit              string  `json:"unit"`
	InputPricePerMTok float64 `json:"input_price_per_mtok,omitempty"`
	PriceSource       string  `json:"price_source,omitempty"`
	PriceChecked      string  `json:"price_checked,omitempty"`
	// BeforePerRequest and AfterPerRequest are the mean input cost of a replayed request; PerDay is their
	// difference times RequestsPerDay.
	BeforePerRequest float64 `json:"before_per_request"`
	AfterPerRequest  float64 `json:"after_per_request"`
	PerDay           float64 `json:"per_day"`
	// OneTimeTokens is the cached prefix the change invalidates (the most of any of the task's runbooks: the
	// cache entry its requests share; 0 when the replay before the change caches nothing); OneTime is what
	// re-writing it once costs over reading it.
	OneTimeTokens int     `json:"one_time_tokens"`
	OneTime       float64 `json:"one_time"`
	// Requests is how many requests the replay holds (0: no fixture replays the task, and the steady state is 0).
	Requests int `json:"requests"`
}

// PriceChange prices the change from before to after for each traffic entry. invalidated gives, per task, the
// cached prefix tokens the change invalidates (guard's report: the most over the task's runbooks). A traffic
// entry whose task either side lacks is priced on the side that has it (the other costs 0); an unknown model is a
// source.Diagnostics at the entry when it has a Range.
func PriceChange(before, after *assemble.Program, invalidated map[string]int, traffic []Traffic, cat *Catalog, counter *tokens.Counter) ([]ChangePrice, error) {
	if counter == nil {
		counter = tokens.New(tokens.O200k)
	}
	var out []ChangePrice
	var diags source.Diagnostics
	for _, t := range traffic {
		m, err := cat.Find(t.Model)
		if err != nil {
			if t.Range.Filename != "" {
				diags.Errorf(t.Range, "[traffic] %s: %v", t.Task, err)
				continue
			}
			return nil, fmt.Errorf("traffic of task %s: %w", t.Task, err)
		}
		cp := ChangePrice{Task: t.Task, Provider: m.Provider.String(), Model: m.Name, RequestsPerDay: t.RequestsPerDay, Unit: UnitInputPrice}
		b, _, cached, err := perRequest(before, t.Task, m, counter)
		if err != nil {
			return nil, err
		}
		a, n, _, err := perRequest(after, t.Task, m, counter)
		if err != nil {
			return nil, err
		}
		cp.Requests = n
		if cached {
			// Where the replay before the change cached nothing (a prefix under the model's minimum), there is
			// nothing to re-write.
			cp.OneTimeTokens = invalidated[t.Task]
		}
		oneTime := float64(cp.OneTimeTokens) * max(m.WritePrice(TTLDefault)-m.CacheRead, 0)
		scale := 1.0
		if m.InputPricePerMTok > 0 {
			cp.Unit, cp.InputPricePerMTok, cp.PriceSource, cp.PriceChecked = UnitUSD, m.InputPricePerMTok, m.PriceSource, m.PriceChecked
			scale = m.InputPricePerMTok / 1e6
		}
		cp.BeforePerRequest, cp.AfterPerRequest = round6(b*scale), round6(a*scale)
		cp.PerDay = round6((a - b) * scale * t.RequestsPerDay)
		cp.OneTime = round6(oneTime * scale)
		out = append(out, cp)
	}
	if len(diags) > 0 {
		return nil, diags
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Task < out[j].Task })
	return out, nil
}

// perRequest is the mean input cost of a request of task's replay under m, in input tokens' worth, and how many
// requests the replay holds, and whether it caches anything.
func perRequest(prog *assemble.Program, task string, m Model, counter *tokens.Counter) (float64, int, bool, error) {
	if prog == nil || !containsTask(prog.Project.Tasks, task) {
		return 0, 0, false, nil
	}
	var sessions []Replay
	for _, f := range ReplayFixtures(prog.Project, task) {
		s, err := FixtureReplay(prog, task, f)
		if err != nil {
			return 0, 0, false, err
		}
		sessions = append(sessions, s)
	}
	if len(sessions) == 0 {
		return 0, 0, false, nil
	}
	sim, err := Simulate(sessions, Options{Model: m, Tools: prog.Project.ToolsFor(task), Counter: counter})
	if err != nil {
		return 0, 0, false, err
	}
	read := m.CacheRead
	if m.Mode(CacheDefault) == CacheImplicit {
		read = m.ImplicitCacheRead
	}
	for _, l := range sim.Layouts {
		if l.Name != LayoutPromptc || len(l.Turns) == 0 {
			continue
		}
		u := l.Total
		cost := float64(u.CacheReadTokens)*read + u.WriteCost + float64(u.UncachedTokens) + u.StorageCost
		return cost / float64(len(l.Turns)), len(l.Turns), u.CacheReadTokens+u.CacheWriteTokens > 0, nil
	}
	return 0, 0, false, nil
}

func containsTask(tasks []string, task string) bool {
	for _, t := range tasks {
		if t == task {
			return true
		}
	}
	return false
}

func round6(f float64) float64 {
	if f < 0 {
		return -round6(-f)
	}
	return float64(int64(f*1e6+0.5)) / 1e6
}

// Money formats v in the price's unit: "$0", "$0.000062" (six decimals under a cent, four under a dollar, two above) or "1,234.5 input-price
// units".
func (c ChangePrice) Money(v float64) string {
	if c.Unit == UnitUSD {
		sign := ""
		if v < 0 {
			sign, v = "-", -v
		}
		switch {
		case v == 0:
			return "$0"
		case v < 0.01:
			return fmt.Sprintf("%s$%.6f", sign, v)
		case v < 1:
			return fmt.Sprintf("%s$%.4f", sign, v)
		}
		return sign + "$" + thousands(fmt.Sprintf("%.2f", v))
	}
	return thousands(fmt.Sprintf("%.1f", v)) + " " + UnitInputPrice
}

// signed is Money with a + before a positive difference.
func (c ChangePrice) signed(v float64) string {
	if v > 0 {
		return "+" + c.Money(v)
	}
	return c.Money(v)
}

func thousands(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	out := b.String()
	if frac != "" {
		out += "." + frac
	}
	if neg {
		out = "-" + out
	}
	return out
}

// Line is the price as one line of a report: the task and model, the traffic, the cost per request before → after
// and its change per day, and the one-time re-write.
func (c ChangePrice) Line() string {
	day := fmt.Sprintf("%s a day at %s", c.signed(c.PerDay), plural.Count(int(c.RequestsPerDay), "request")+"/day")
	return fmt.Sprintf("task %s on %s %s: per request %s → %s; %s; one-time re-write %s (%s)",
		c.Task, c.Provider, c.Model, c.Money(c.BeforePerRequest), c.Money(c.AfterPerRequest), day,
		c.Money(c.OneTime), plural.Count(c.OneTimeTokens, "token"))
}

// WritePrices writes prices as a report section: a heading line and one line per price, each prefixed by bullet
// ("  " for text, "- " for markdown). It writes nothing for no prices.
func WritePrices(w io.Writer, prices []ChangePrice, bullet string) error {
	if len(prices) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("\nPrice of the change (input cost, promptc simulate's replay of each task's fixtures):\n")
	for _, c := range prices {
		b.WriteString(bullet + c.Line() + "\n")
	}
	for _, c := range prices {
		if c.Unit == UnitUSD {
			fmt.Fprintf(&b, "%s%s %s: $%s per million input tokens (%s, read %s)\n", bullet, c.Provider, c.Model,
				trimZeros(c.InputPricePerMTok), c.PriceSource, c.PriceChecked)
		}
	}
	_, err := io.WriteString(w, dedupe(b.String()))
	return err
}

func trimZeros(f float64) string {
	s := fmt.Sprintf("%.4f", f)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// dedupe drops repeated lines (one price line per model, however many tasks use it).
func dedupe(s string) string {
	seen := map[string]bool{}
	var out []string
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "\n" && l != "" && seen[l] {
			continue
		}
		seen[l] = true
		out = append(out, l)
	}
	return strings.Join(out, "")
}
