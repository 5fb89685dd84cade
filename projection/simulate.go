package projection

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/tokens"
)

// Replay is one conversation to replay: a runbook, its turns' messages in order, and the assistant's replies.
type Replay struct {
	// Name names the session in reports (a fixture's name).
	Name    string
	Runbook *assemble.Artifact
	Turns   []string
	// Replies[i] answers Turns[i]; a missing or empty reply is Placeholder.
	Replies []string
	// After[i] is the time between the request before Turns[i] and its own (a fixture's [[turn]] after); a missing
	// or zero one is DefaultGap.
	After []time.Duration
}

// Placeholder is the assistant's reply to a turn whose fixture gives none.
const Placeholder = "(The assistant's reply to this turn.)"

func (s Replay) reply(i int) string {
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
	// ExpiredTokens are the tokens an earlier request had cached that expired before this one, so that they are
	// billed again (in CacheWriteTokens where the provider bills writes, in UncachedTokens otherwise).
	ExpiredTokens int `json:"expired_tokens"`
	// LongTTLWriteTokens are the CacheWriteTokens written with the longer of two lifetimes in one request
	// (Anthropic's and Bedrock's 1h system markers beside the history's 5m one), billed at that lifetime's price.
	LongTTLWriteTokens int `json:"long_ttl_write_tokens,omitempty"`
	// StorageCost is what keeping an explicit cache costs (Gemini's cachedContents: tokens × hours × the storage
	// price), in input tokens' worth.
	StorageCost float64 `json:"storage_cost,omitempty"`
	// BeyondCapTokens are the tokens after the model's cache limit (Model.MaxCacheTokens: Amazon Nova caches at
	// most 20,000 tokens of a prompt) that the request would otherwise have read or written: they are in
	// UncachedTokens.
	BeyondCapTokens int `json:"beyond_cap_tokens,omitempty"`
	// WriteCost is the written tokens' price, in input tokens' worth (CacheWriteTokens at each lifetime's price).
	WriteCost float64 `json:"write_cost"`
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
	u.ExpiredTokens += v.ExpiredTokens
	u.LongTTLWriteTokens += v.LongTTLWriteTokens
	u.StorageCost += v.StorageCost
	u.BeyondCapTokens += v.BeyondCapTokens
	u.WriteCost += v.WriteCost
}

func (u *Usage) rates(m Model, read float64) {
	if u.InputTokens == 0 {
		u.HitRate, u.RelativeCost = 0, 0
		return
	}
	in := float64(u.InputTokens)
	u.HitRate = round4(float64(u.CacheReadTokens) / in)
	u.RelativeCost = round4((float64(u.CacheReadTokens)*read + u.WriteCost + float64(u.UncachedTokens) + u.StorageCost) / in)
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
	// Cache is the cache mode: "explicit" (markers), "automatic" (the provider finds the prefix) or "implicit".
	Cache string `json:"cache"`
	// TTL is the lifetime of the cache's entries in the layouts ("" where the provider offers no choice).
	TTL      string   `json:"ttl,omitempty"`
	Encoding string   `json:"encoding"`
	Layouts  []Layout `json:"layouts"`
	// Lifetimes costs promptc's layout under each lifetime the provider offers for the mode, in the model's order;
	// Cheapest names the least costly (the first of equals).
	Lifetimes []Lifetime `json:"lifetimes,omitempty"`
	Cheapest  string     `json:"cheapest,omitempty"`
	// Closest is set when nothing of promptc's layout was ever cached because no prefix reaches the model's
	// minimum: the prefix that comes closest, and by how much it falls short.
	Closest *Shortfall `json:"closest,omitempty"`
	// model is the model simulated, for WriteText.
	model Model
}

// Shortfall is the prefix closest to the model's minimum when none reaches it.
type Shortfall struct {
	// Where names the prefix: "system part 2 (task prefix)", "the history" or "the whole request".
	Where   string `json:"where"`
	Session string `json:"session"`
	Turn    int    `json:"turn"`
	Tokens  int    `json:"tokens"`
	Minimum int    `json:"minimum"`
	// Short is Minimum - Tokens.
	Short int `json:"short"`
}

// consider keeps the prefix of v nearest the minimum that a marker (or automatic caching) could end.
func (sf *Shortfall) consider(m Model, mode CacheMode, v *view, session string, turn int) {
	try := func(where string, i int) {
		if i < 0 || i >= v.Len() {
			return
		}
		if n := v.Prefix(i); n > sf.Tokens || sf.Where == "" {
			*sf = Shortfall{Where: where, Session: session, Turn: turn, Tokens: n}
		}
	}
	sys := 0
	for i := 0; i < v.Len() && v.At(i).Kind != MessagePart; i++ {
		if p := v.At(i); p.Kind == SystemPart {
			sys++
			try(fmt.Sprintf("system part %d (%s prefix)", sys, p.Scope), i)
		}
	}
	if mode == CacheExplicit && m.Provider != Gemini {
		try("the history", v.lastHistory)
	} else {
		try("the whole request", v.Len()-1)
	}
}

// Lifetime is promptc's layout of the sessions under one cache lifetime.
type Lifetime struct {
	TTL   string `json:"ttl"`
	Total Usage  `json:"total"`
}

// Layout names.
const (
	LayoutPromptc       = "promptc"
	LayoutVolatileFirst = "volatile-first"
	LayoutRewrite       = "rewrite"
	// LayoutTrimEveryTurn is promptc's layout with a history budget kept by a client that drops the oldest
	// messages at every turn, so that its cut, and the cached prefix after it, moves every turn (compared when
	// Options.MaxHistoryTokens is set).
	LayoutTrimEveryTurn = "trim-every-turn"
)

// DefaultGap is the time between two turns of a simulation where neither the fixture (a [[turn]]'s after) nor
// Options.Gap says.
const DefaultGap = 30 * time.Second

// Simulate replays the conversations (one Replay each, a fixture's session), in order, as requests to opt's model, and counts for each request the tokens read
// from the provider's cache, written to it and sent uncached, under the model's rules (Model): explicit markers
// with their lookback, or automatic prefix matching in steps. The cache is shared by all the requests of a layout,
// in order (so a second session reads the prefix a first one wrote). Three layouts are compared:
//
//   - promptc: the request New builds: the runbook's segments, the history so far, the turn last;
//   - volatile-first: the turn's message placed before the runbook in the system prompt, as in a prompt that
//     starts with the date and the user's message, the history after it, and a fixed final user message;
//   - rewrite: the runbook, then no history but one user message holding a fresh summary of the conversation so far
//     (its first line names the turns it sums up, so it differs every turn) followed by the turn.
//
// The naive layouts send the runbook as one system text and, where the provider takes markers, place one as a
// client without segments does: automatic caching's, on the request's last part.
//
// Token counts are estimates (o200k_base, the encoding reported); so are the provider's prices (Model's
// multiples of the input price). The work grows with the number of turns, not with its square: each message is
// counted and hashed once.
func Simulate(sessions []Replay, opt Options) (*Simulation, error) {
	if opt.Counter == nil {
		opt.Counter = tokens.New(tokens.O200k)
	}
	mode, err := resolve(opt)
	if err != nil {
		return nil, err
	}
	opt.Cache, opt.Implicit = mode, false
	m := opt.Model
	sim := &Simulation{Provider: m.Provider.String(), Model: m.Name, Cache: mode.String(), Encoding: opt.Counter.Encoding().String(), model: m}
	ttls := lifetimes(m, mode)
	if t := m.Lifetime(opt.TTL); t != TTLDefault && len(ttls) > 0 {
		sim.TTL = t.String()
	}
	for _, s := range sessions {
		if s.Runbook == nil {
			return nil, fmt.Errorf("projection: session %q has no runbook", s.Name)
		}
	}
	pw := &powers{}
	var sf Shortfall
	layouts := []string{LayoutPromptc, LayoutVolatileFirst, LayoutRewrite}
	if opt.MaxHistoryTokens > 0 {
		layouts = append(layouts, LayoutTrimEveryTurn)
	}
	for _, name := range layouts {
		var track *Shortfall
		if name == LayoutPromptc {
			track = &sf
		}
		l, err := replayLayout(name, sessions, opt, pw, track)
		if err != nil {
			return nil, err
		}
		sim.Layouts = append(sim.Layouts, l)
	}
	if t := sim.Layouts[0].Total; t.CacheReadTokens == 0 && t.CacheWriteTokens == 0 && sf.Where != "" {
		min := m.Minimum()
		if mode == CacheImplicit && m.Matching != Prefix {
			min = m.ImplicitMinCacheTokens
		}
		if sf.Tokens < min {
			sf.Minimum, sf.Short = min, min-sf.Tokens
			sim.Closest = &sf
		}
	}
	if len(ttls) > 1 {
		best := -1.0
		for _, t := range ttls {
			o := opt
			o.TTL = t
			l, err := replayLayout(LayoutPromptc, sessions, o, pw, nil)
			if err != nil {
				return nil, err
			}
			sim.Lifetimes = append(sim.Lifetimes, Lifetime{TTL: t.String(), Total: l.Total})
			if cost := l.Total.RelativeCost; best < 0 || cost < best {
				best, sim.Cheapest = cost, t.String()
			}
		}
	}
	return sim, nil
}

// lifetimes are the lifetimes m offers in mode.
func lifetimes(m Model, mode CacheMode) []TTL {
	if m.Provider == Gemini && mode != CacheExplicit {
		return nil // Gemini's lifetimes are its explicit cache's
	}
	var out []TTL
	for _, t := range m.TTLs {
		if m.Provider == OpenAI && (t == TTL30m) != (mode == CacheExplicit) {
			continue // explicit breakpoints live 30m; retention applies to automatic caching
		}
		out = append(out, t)
	}
	return out
}

// replayLayout replays the sessions under one layout, one cache for all of them, in order.
func replayLayout(name string, sessions []Replay, opt Options, pw *powers, sf *Shortfall) (Layout, error) {
	m := opt.Model
	c := newCache(m, opt.Cache, m.Lifetime(opt.TTL))
	l := Layout{Name: name}
	var now time.Duration
	first := true
	for _, s := range sessions {
		r := newReplay(name, s, opt, pw)
		for k := range s.Turns {
			if !first {
				now += s.gap(k, opt.Gap)
			}
			first = false
			v, err := r.request(k)
			if err != nil {
				return Layout{}, fmt.Errorf("session %q, turn %d: %w", s.Name, k+1, err)
			}
			naive := name == LayoutVolatileFirst || name == LayoutRewrite
			markers := placeMarkers(m, opt.Cache, naive, v, v.lastHistory)
			if sf != nil {
				sf.consider(m, opt.Cache, v, s.Name, k+1)
			}
			u := c.request(v, markers, opt.TTL, now)
			u.Session, u.Turn = s.Name, k+1
			u.rates(m, c.read)
			l.Turns = append(l.Turns, u)
			l.Total.add(u)
			r.answer(k)
			if m.ReplyUnits && !c.explicit && name != LayoutRewrite {
				c.root.insert(r.replied(), c, now) // the request and its reply are a unit of their own
			}
		}
	}
	l.Total.rates(m, c.read)
	return l, nil
}

// gap is the time before turn k (from 0) of s: every gap when one is given, else the turn's after, else
// DefaultGap.
func (s Replay) gap(k int, every time.Duration) time.Duration {
	switch {
	case every > 0:
		return every
	case k < len(s.After) && s.After[k] > 0:
		return s.After[k]
	}
	return DefaultGap
}

// replay builds the requests of one session under one layout, turn after turn, sharing the history between them.
type replay struct {
	layout string
	s      Replay
	opt    Options
	pw     *powers
	// head is the tools and the system parts (rebuilt every turn for volatile-first, whose system text holds the
	// turn); tools are the tool parts alone.
	head  *seq
	tools []PlacedPart
	// hb adds the history's messages; hist holds their parts.
	hb   *builder
	hist *seq
	// msgStart[j] is where message j of the history starts in hist, msgTokens and msgRoles its tokens and role;
	// cut is how many of the oldest messages the history budget drops.
	msgStart  []int
	msgTokens []int
	msgRoles  []Role
	cut       int
	// total and dropped are the history's tokens and those of the messages cut.
	total, dropped int
	// summary is the rewrite layout's running summary: its pieces' tokens and hash.
	summaryTokens int
	summaryHash   phash
	// rbTokens and rbHash are the volatile-first runbook's.
	rbTokens int
	rbHash   [32]byte
}

func newReplay(layout string, s Replay, opt Options, pw *powers) *replay {
	r := &replay{layout: layout, s: s, opt: opt, pw: pw, hist: newSeq()}
	tb := r.builder()
	tb.tools()
	r.tools = tb.parts
	rb := s.Runbook
	if layout == LayoutRewrite {
		rb = &assemble.Artifact{Text: s.Runbook.Text}
	}
	if layout != LayoutVolatileFirst {
		r.setHead(rb)
	}
	return r
}

// builder returns a builder for the replay's options (their mode resolved already).
func (r *replay) builder() *builder {
	return &builder{opt: r.opt, m: r.opt.Model, mode: r.opt.Cache, ttl: r.opt.TTL, lastHistory: -1, cd: codecFor(r.opt.Model.Provider)}
}

// replied is the view of the last request with its reply: the head and the history so far.
func (r *replay) replied() *view { return r.historyView() }

// historyView is the head and the history so far, less what the history budget drops.
func (r *replay) historyView() *view {
	from := 0
	if r.cut > 0 {
		from = len(r.hist.parts)
		if r.cut < len(r.msgStart) {
			from = r.msgStart[r.cut]
		}
	}
	v := &view{pw: r.pw, head: r.head, hist: r.hist, from: from, nh: len(r.hist.parts) - from, lastHistory: -1}
	if r.hb.lastHistory >= from {
		v.lastHistory = len(r.head.parts) + r.hb.lastHistory - from
	}
	return v
}

// setHead builds the tools and the system parts of rb, and a history builder that continues after them.
func (r *replay) setHead(rb *assemble.Artifact) {
	b := r.builder()
	b.parts = append([]PlacedPart(nil), r.tools...)
	b.system(rb)
	r.head = newSeq()
	for i := range b.parts {
		r.head.push(r.pw, b.parts[i], partHash(&b.parts[i]))
	}
	if r.hb == nil {
		r.hb = r.builder()
		r.hb.nmsg = b.nmsg
	}
}

// volatileHead builds the volatile-first head of a turn: the tools, then one system text, the turn's message and
// the runbook. The text is not built: its tokens are the turn's and the runbook's (counting splits after blank
// lines, so the two count apart exactly), and its hash is made of theirs.
func (r *replay) volatileHead(turn string) {
	rb := r.s.Runbook.Text
	if strings.HasPrefix(rb, "\n") {
		r.setHead(&assemble.Artifact{Text: turn + "\n\n" + rb}) // counting would not split between the two
		return
	}
	if r.hb == nil {
		r.hb = r.builder()
		if !r.hb.blocky() {
			r.hb.nmsg = 1
		}
		r.rbTokens, r.rbHash = r.opt.Counter.Count(rb), sha256.Sum256([]byte(rb))
	}
	p := PlacedPart{Kind: SystemPart, Message: -1, Scope: blocks.ScopeSession}
	if !r.hb.blocky() {
		p.Message = 0
	}
	p.Tokens = r.opt.Counter.Count(turn+"\n\n") + r.rbTokens
	sum := sha256.New()
	fmt.Fprintf(sum, "volatile\x00%d\x00%s\x00%d\x00%x\x00", p.Kind, p.Role, p.Message, r.rbHash)
	io.WriteString(sum, turn)
	r.head = newSeq()
	for i := range r.tools {
		r.head.push(r.pw, r.tools[i], partHash(&r.tools[i]))
	}
	r.head.push(r.pw, p, digestHash(sum.Sum(nil)))
}

// request is the view of turn k's request (from 0), the history of turns before k added already.
func (r *replay) request(k int) (*view, error) {
	turn := r.s.Turns[k]
	if r.layout == LayoutVolatileFirst {
		r.volatileHead(turn)
		turn = "Go on with the task described above."
	}
	v := r.historyView()
	if r.layout == LayoutRewrite && k > 0 {
		p, _ := r.hb.turnPart("-")
		p.Text = "" // never built: its tokens and its hash are the summary's pieces'
		header := fmt.Sprintf("Summary of the conversation so far (turns 1 to %d):\n\n", k)
		last := "This turn:\n\n" + turn
		p.Tokens = r.opt.Counter.Count(header) + r.summaryTokens + r.opt.Counter.Count(last)
		sum := sha256.New()
		fmt.Fprintf(sum, "summary\x00%d\x00%s\x00%d\x00%s\x00%d\x00%d\x00", p.Kind, p.Role, p.Message, header, r.summaryHash[0], r.summaryHash[1])
		io.WriteString(sum, last)
		v.tail, v.tailID, v.hasTail = p, digestHash(sum.Sum(nil)), true
		return v, nil
	}
	p, ok := r.hb.turnPart(turn)
	if !ok {
		if v.nh == 0 || r.hist.parts[v.nh-1].Role == Assistant {
			return nil, errors.New("projection: the request ends with no user message: give the turn's message")
		}
		return v, nil
	}
	p.Tokens = r.opt.Counter.Count(p.Text)
	v.tail, v.tailID, v.hasTail = p, partHash(&p), true
	return v, nil
}

// answer adds turn k and its reply to the history (the rewrite layout sums them up instead).
func (r *replay) answer(k int) {
	if r.layout == LayoutRewrite {
		piece := fmt.Sprintf("The user wrote:\n%s\nThe assistant replied:\n%s\n\n", r.s.Turns[k], r.s.reply(k))
		r.summaryTokens += r.opt.Counter.Count(piece)
		d := sha256.Sum256([]byte(piece))
		r.summaryHash = r.pw.then(r.summaryHash, digestHash(d[:]), 1)
		return
	}
	for _, m := range []Message{{Role: User, Content: r.s.Turns[k]}, {Role: Assistant, Content: r.s.reply(k)}} {
		n := len(r.hb.parts)
		r.hb.message(m)
		tok := 0
		for i := n; i < len(r.hb.parts); i++ {
			r.hist.push(r.pw, r.hb.parts[i], partHash(&r.hb.parts[i]))
			tok += r.hb.parts[i].Tokens
		}
		r.msgStart, r.msgTokens, r.msgRoles = append(r.msgStart, n), append(r.msgTokens, tok), append(r.msgRoles, m.Role)
	}
	if budget := r.opt.MaxHistoryTokens; budget > 0 && (r.layout == LayoutPromptc || r.layout == LayoutTrimEveryTurn) {
		r.cut = r.trim(budget, r.layout == LayoutPromptc)
	}
}

// trim is the history budget's cut after the messages so far, by trimCut's rule, kept up to date as messages come:
// the tokens to drop only grow, so the cut only moves forward.
func (r *replay) trim(budget int, stepped bool) int {
	r.total += r.msgTokens[len(r.msgTokens)-1] + r.msgTokens[len(r.msgTokens)-2]
	if r.total <= budget {
		return r.cut
	}
	need := r.total - budget
	if stepped {
		step := max(budget/4, 1)
		need = (need + step - 1) / step * step
	}
	for r.cut < len(r.msgTokens) && r.dropped < need {
		r.dropped += r.msgTokens[r.cut]
		r.cut++
	}
	for r.cut < len(r.msgTokens) && r.msgRoles[r.cut] != User {
		r.dropped += r.msgTokens[r.cut]
		r.cut++
	}
	return r.cut
}

// layoutInput is the request of turn k (from 0) of session s under a layout.
func layoutInput(layout string, s Replay, k int) Input {
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
