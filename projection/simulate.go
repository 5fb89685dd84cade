package projection

import (
	"crypto/sha256"
	"fmt"
	"io"
	"strings"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/guard"
)

// Session is one conversation to replay: a runbook, its turns' messages in order, and the assistant's replies.
type Session struct {
	// Name names the session in reports (a fixture's name).
	Name    string
	Runbook *assemble.Artifact
	Turns   []string
	// Replies[i] answers Turns[i]; a missing or empty reply is Placeholder.
	Replies []string
}

// Placeholder is the assistant's reply to a turn whose fixture gives none.
const Placeholder = "(The assistant's reply to this turn.)"

func (s Session) reply(i int) string {
	if i < len(s.Replies) && s.Replies[i] != "" {
		return s.Replies[i]
	}
	return Placeholder
}

// Usage is what one request (or, as a total, several) costs under a model's cache rules. CacheReadTokens,
// CacheWriteTokens and UncachedTokens add up to InputTokens.
type Usage struct {
	// Session and Turn name the request (empty and 0 in a total).
	Session          string `json:"session,omitempty"`
	Turn             int    `json:"turn,omitempty"`
	InputTokens      int    `json:"input_tokens"`
	CacheReadTokens  int    `json:"cache_read_tokens"`
	CacheWriteTokens int    `json:"cache_write_tokens"`
	UncachedTokens   int    `json:"uncached_tokens"`
	// HitRate is CacheReadTokens ÷ InputTokens.
	HitRate float64 `json:"hit_rate"`
	// RelativeCost is the request's input cost ÷ the cost of the same input sent uncached.
	RelativeCost float64 `json:"relative_cost"`
}

func (u *Usage) add(v Usage) {
	u.InputTokens += v.InputTokens
	u.CacheReadTokens += v.CacheReadTokens
	u.CacheWriteTokens += v.CacheWriteTokens
	u.UncachedTokens += v.UncachedTokens
}

func (u *Usage) rates(m Model, read float64) {
	if u.InputTokens == 0 {
		u.HitRate, u.RelativeCost = 0, 0
		return
	}
	in := float64(u.InputTokens)
	u.HitRate = round4(float64(u.CacheReadTokens) / in)
	u.RelativeCost = round4((float64(u.CacheReadTokens)*read + float64(u.CacheWriteTokens)*m.CacheWrite + float64(u.UncachedTokens)) / in)
}

// round4 rounds to four decimals, so that reports (and JSON) print the same digits on every machine.
func round4(f float64) float64 {
	return float64(int64(f*10000+0.5)) / 10000
}

// Layout is one way of laying out the sessions' requests, and what each request costs.
type Layout struct {
	// Name is "promptc", "volatile-first" or "rewrite".
	Name  string  `json:"name"`
	Turns []Usage `json:"turns"`
	Total Usage   `json:"total"`
}

// Simulation compares promptc's layout of a set of sessions with two naive ones under one model's cache rules.
type Simulation struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
	// Cache is "explicit" (markers), "automatic" (prefix matching) or "implicit" (DashScope without markers).
	Cache    string   `json:"cache"`
	Encoding string   `json:"encoding"`
	Layouts  []Layout `json:"layouts"`
}

// Layout names.
const (
	LayoutPromptc       = "promptc"
	LayoutVolatileFirst = "volatile-first"
	LayoutRewrite       = "rewrite"
)

// Simulate replays the sessions, in order, as requests to opt's model, and counts for each request the tokens read
// from the provider's cache, written to it and sent uncached, under the model's rules (Model): explicit markers
// with their lookback, or automatic prefix matching in steps. The cache is shared by all the requests of a layout,
// in order (so a second session reads the prefix a first one wrote), and never expires. Three layouts are compared:
//
//   - promptc: the request Project builds: the runbook's segments, the history so far, the turn last;
//   - volatile-first: the turn's message placed before the runbook in the system prompt, as in a prompt that
//     starts with the date and the user's message, the history after it, and a fixed final user message;
//   - rewrite: the runbook, then no history but one user message holding a fresh summary of the conversation so far
//     (its first line names the turns it sums up, so it differs every turn) followed by the turn.
//
// The naive layouts send the runbook as one system text and, where the provider takes markers, place one as a
// client without segments does: automatic caching's, on the request's last part.
//
// Token counts are estimates (o200k_base, the encoding reported); so are the provider's prices (Model's
// multiples of the input price).
func Simulate(sessions []Session, opt Options) (*Simulation, error) {
	if opt.Counter == nil {
		c, err := guard.NewCounter(guard.O200k)
		if err != nil {
			return nil, err
		}
		opt.Counter = c
	}
	m := opt.Model
	sim := &Simulation{Provider: m.Provider.String(), Model: m.Name, Encoding: opt.Counter.Encoding()}
	switch {
	case m.Matching == Prefix:
		sim.Cache = "automatic"
	case opt.Implicit:
		sim.Cache = "implicit"
	default:
		sim.Cache = "explicit"
	}
	for _, name := range []string{LayoutPromptc, LayoutVolatileFirst, LayoutRewrite} {
		c := newCache(m, opt.Implicit)
		l := Layout{Name: name}
		for _, s := range sessions {
			if s.Runbook == nil {
				return nil, fmt.Errorf("projection: session %q has no runbook", s.Name)
			}
			for k := range s.Turns {
				pr, err := project(layoutInput(name, s, k), opt, name != LayoutPromptc)
				if err != nil {
					return nil, fmt.Errorf("session %q, turn %d: %w", s.Name, k+1, err)
				}
				u := c.request(pr)
				u.Session, u.Turn = s.Name, k+1
				u.rates(m, c.read)
				l.Turns = append(l.Turns, u)
				l.Total.add(u)
			}
		}
		l.Total.rates(m, c.read)
		sim.Layouts = append(sim.Layouts, l)
	}
	return sim, nil
}

// layoutInput is the request of turn k (from 0) of session s under a layout.
func layoutInput(layout string, s Session, k int) Input {
	var history []Message
	for i := 0; i < k; i++ {
		history = append(history, Message{Role: User, Content: s.Turns[i]}, Message{Role: Assistant, Content: s.reply(i)})
	}
	switch layout {
	case LayoutVolatileFirst:
		rb := &assemble.Artifact{Text: s.Turns[k] + "\n\n" + s.Runbook.Text}
		return Input{Runbook: rb, History: history, Turn: "Go on with the task described above."}
	case LayoutRewrite:
		var b strings.Builder
		if k > 0 {
			fmt.Fprintf(&b, "Summary of the conversation so far (turns 1 to %d):\n\n", k)
			for i := 0; i < k; i++ {
				fmt.Fprintf(&b, "The user wrote:\n%s\nThe assistant replied:\n%s\n\n", s.Turns[i], s.reply(i))
			}
			b.WriteString("This turn:\n\n")
		}
		b.WriteString(s.Turns[k])
		return Input{Runbook: &assemble.Artifact{Text: s.Runbook.Text}, Turn: b.String()}
	}
	return Input{Runbook: s.Runbook, History: history, Turn: s.Turns[k]}
}

// cache is a provider's prompt cache as the simulation sees it: the prefixes written so far, each known by the
// hash of its parts.
type cache struct {
	m        Model
	explicit bool
	min      int
	read     float64
	entries  map[[32]byte]bool
}

func newCache(m Model, implicit bool) *cache {
	c := &cache{m: m, explicit: m.Matching != Prefix && !implicit, min: m.MinCacheTokens, read: m.CacheRead, entries: map[[32]byte]bool{}}
	if implicit && m.Matching != Prefix {
		c.min, c.read = m.ImplicitMinCacheTokens, m.ImplicitCacheRead
	}
	return c
}

// request counts one request and adds what it writes to the cache.
func (c *cache) request(pr *Projection) Usage {
	hashes := make([][32]byte, len(pr.Parts))
	var h [32]byte
	sum := sha256.New()
	for i, p := range pr.Parts {
		sum.Reset()
		sum.Write(h[:])
		fmt.Fprintf(sum, "%d\x00%s\x00%d\x00", p.Kind, p.Role, p.Message)
		io.WriteString(sum, p.Text)
		sum.Sum(h[:0])
		hashes[i] = h
	}
	u := Usage{InputTokens: pr.Tokens}
	if c.explicit {
		c.explicitRequest(pr, hashes, &u)
	} else {
		c.prefixRequest(pr, hashes, &u)
	}
	u.UncachedTokens = u.InputTokens - u.CacheReadTokens - u.CacheWriteTokens
	return u
}

// explicitRequest: each marker reads the longest prefix cached at it or at one of the Lookback parts before it;
// the prefix up to the last marker that reaches the minimum is written, less what was read.
func (c *cache) explicitRequest(pr *Projection, hashes [][32]byte, u *Usage) {
	last := -1
	for _, i := range pr.Markers() {
		for j := i; j >= 0 && j >= i-c.m.Lookback; j-- {
			if c.entries[hashes[j]] {
				u.CacheReadTokens = max(u.CacheReadTokens, pr.Parts[j].Prefix)
				break
			}
		}
		if pr.Parts[i].Prefix >= c.min {
			last = i
		}
	}
	if last >= 0 && pr.Parts[last].Prefix > u.CacheReadTokens {
		u.CacheWriteTokens = pr.Parts[last].Prefix - u.CacheReadTokens
	}
	for _, i := range pr.Markers() {
		if pr.Parts[i].Prefix >= c.min {
			c.entries[hashes[i]] = true
		}
	}
}

// prefixRequest: the longest run of leading parts some earlier request also began with is read, from the minimum
// on, in steps; every prefix of the request is cached for later ones. Matching whole parts (messages) makes the
// count a lower bound: a provider may also match the start of the first part that differs.
func (c *cache) prefixRequest(pr *Projection, hashes [][32]byte, u *Usage) {
	shared := 0
	for j := range hashes {
		if !c.entries[hashes[j]] {
			break
		}
		shared = pr.Parts[j].Prefix
	}
	if shared >= c.min && c.min > 0 {
		step := max(c.m.Step, 1)
		u.CacheReadTokens = c.min + (shared-c.min)/step*step
	}
	for _, h := range hashes {
		c.entries[h] = true
	}
}
