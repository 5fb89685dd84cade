package projection

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/provider"
	"github.com/promptc/promptc/provider/codecs"
	"github.com/promptc/promptc/tokens"
)

// Input is what one request carries: the runbook (the stable prefix), the conversation so far, and the turn's
// message (the volatile suffix).
type Input struct {
	Runbook *assemble.Artifact
	History []Message
	// Turn is the final user message. It may be empty only when History ends with a user or tool message.
	Turn string
}

// Options choose the provider's body and its cache rules.
type Options struct {
	// Model is the model the request is for (Catalog.Model); its Provider chooses the body's shape.
	Model Model
	// Tools are sent as the provider's native tools array, in this order (blocks.Project.ToolsFor gives a task's
	// tools in their fixed order). They come before the system text, so they are part of every cached prefix.
	Tools []*blocks.Tool
	// Cache is the cache mode (CacheDefault: the model's first); the model must offer it (Model.Check).
	Cache CacheMode
	// TTL is the cache lifetime (TTLDefault: the model's first); the model must offer it.
	TTL TTL
	// Implicit is Cache: CacheImplicit, as it was written before there were modes.
	Implicit bool
	// MaxTokens is the reply's limit (Anthropic's required max_tokens, Bedrock's maxTokens, Gemini's
	// maxOutputTokens); 0 means 4096.
	MaxTokens int
	// Gap is, for Simulate, the time between every two turns; 0 takes each turn's (Replay.After, else DefaultGap).
	Gap time.Duration
	// MaxHistoryTokens keeps the history within this many tokens (TrimHistory: whole messages dropped from the
	// oldest, the cut moving in steps of a quarter of it); 0 keeps it whole. Simulate then also replays a layout
	// that trims at every turn (LayoutTrimEveryTurn).
	MaxHistoryTokens int
	// Counter counts tokens; nil means o200k_base.
	Counter *tokens.Counter
}

// PartKind says what a part of a request is.
type PartKind uint8

const (
	// ToolPart is a native tool definition.
	ToolPart PartKind = iota
	// SystemPart is a piece of the runbook: one or more of its segments.
	SystemPart
	// MessagePart is a message of the conversation (or, for Anthropic, one content block of a message).
	MessagePart
)

// PlacedPart is one unit of a request as the provider's cache sees it: for Anthropic a tool, a system text block or a
// message's content block; for OpenAI and DashScope a tool or a whole message. Prefix-cache arithmetic (where a
// marker may go, what a later request reads) is done over parts.
type PlacedPart struct {
	Kind PartKind
	Role Role // the message's role, for message parts
	// Text is the bytes the part holds: its text, a tool's or a tool call's JSON.
	Text   string
	Tokens int
	// Prefix is the tokens of the request up to and including this part.
	Prefix int
	// Marker is set when a cache marker (cache_control) follows the part.
	Marker bool
	// Message is the index of the body's message holding the part; -1 for tools and Anthropic's system blocks.
	Message int
	// Scope is, for a system part, the scope of its last segment.
	Scope blocks.Scope
	// History marks the parts that come from the history (not the runbook, not the turn).
	History bool
	// TTL is a marker's lifetime (TTLDefault: the provider's default, sent without one).
	TTL TTL

	c provider.Content // the part as sent
}

// Projection is a request body and how it caches.
type Projection struct {
	Model Model
	// Body is the JSON request body, indented, ending in a newline; the same input gives the same bytes.
	Body  []byte
	Parts []PlacedPart
	// CacheKey is OpenAI's prompt_cache_key: a hash of the tools and the runbook's global and task segments,
	// shared by every request whose cacheable prefix starts the same.
	CacheKey string
	// Tokens is the request's input tokens, as counted (o200k_base).
	Tokens int
	// Cache is the cache mode the body uses, TTL the lifetime of its entries.
	Cache CacheMode
	TTL   TTL
	// CacheBody is, for Gemini's explicit cache, the cachedContents create body that Body (the generateContent
	// body) refers to; nil otherwise.
	CacheBody []byte
}

// Markers returns the indexes of the parts a cache marker follows.
func (p *Projection) Markers() []int {
	var out []int
	for i, pt := range p.Parts {
		if pt.Marker {
			out = append(out, i)
		}
	}
	return out
}

// New builds the request body in for the model of opt (docs/providers.md): the runbook split into its segments (a segment
// whose prefix is too short to cache merges into the next), cache markers at segment ends whose prefix reaches the
// model's minimum, one marker kept for the end of the history, never more than the model allows; the history as
// given; the turn as the final user message. For OpenAI the runbook is one system message and prompt_cache_key
// routes requests that share the cacheable prefix to the same cache.
func New(in Input, opt Options) (*Projection, error) {
	return project(in, opt, false)
}

// project is New; naive places markers as a client that knows nothing of segments does, with automatic
// caching's one marker on the request's last part (for the simulation's naive layouts).
func project(in Input, opt Options, naive bool) (*Projection, error) {
	if in.Runbook == nil {
		return nil, errors.New("projection: no runbook")
	}
	if in.Turn == "" && (len(in.History) == 0 || in.History[len(in.History)-1].Role == Assistant) {
		return nil, errors.New("projection: the request ends with no user message: give the turn's message")
	}
	if opt.MaxTokens == 0 {
		opt.MaxTokens = 4096
	}
	if opt.Counter == nil {
		opt.Counter = tokens.New(tokens.O200k)
	}
	b, err := newBuilder(opt, naive)
	if err != nil {
		return nil, err
	}
	if opt.MaxHistoryTokens > 0 {
		if in.History, err = TrimHistory(in.History, opt.MaxHistoryTokens, opt.Counter); err != nil {
			return nil, err
		}
	}
	b.tools()
	b.system(in.Runbook)
	b.messages(in.History, in.Turn)
	b.place()
	return b.finish(in.Runbook)
}

type builder struct {
	opt   Options
	m     Model
	parts []PlacedPart
	// nmsg counts the body's messages so far.
	nmsg int
	// lastHistory is the index of the history's last part, -1 without history.
	lastHistory int
	// prevRole is the role of the last message's side (Anthropic: tool results are on the user's side).
	prevRole Role
	toolJSON []json.RawMessage
	toolDefs []provider.ToolDef
	naive    bool
	// mode is the cache mode in force, ttl the lifetime chosen (TTLDefault when none was).
	mode CacheMode
	ttl  TTL
	// cd writes the provider's wire format.
	cd provider.Codec
}

// Check reports whether the model offers the options' cache mode and lifetime, in a message that names what it
// offers instead; New and Simulate refuse what it refuses.
func (opt Options) Check() error {
	_, err := resolve(opt)
	return err
}

// resolve checks opt's cache mode and lifetime against its model and returns the mode in force.
func resolve(opt Options) (CacheMode, error) {
	mode := opt.Cache
	if opt.Implicit && mode == CacheDefault {
		mode = CacheImplicit
	}
	if err := opt.Model.Check(mode, opt.TTL); err != nil {
		return 0, err
	}
	mode = opt.Model.Mode(mode)
	if m := opt.Model; m.Provider == Gemini && mode != CacheExplicit && opt.TTL != TTLDefault {
		return 0, fmt.Errorf("gemini %s: the implicit cache has no lifetime to choose; --ttl is the lifetime of --cache explicit's cachedContents", m.Name)
	}
	if m := opt.Model; m.Provider == OpenAI && opt.TTL != TTLDefault && (opt.TTL == TTL30m) != (mode == CacheExplicit) {
		if mode == CacheExplicit {
			return 0, fmt.Errorf("openai %s: explicit breakpoints live 30m (prompt_cache_options.ttl); --ttl %s is a retention of automatic caching", m.Name, opt.TTL)
		}
		return 0, fmt.Errorf("openai %s: --ttl 30m is the lifetime of explicit breakpoints (--cache explicit); automatic caching's retention is in_memory or 24h", m.Name)
	}
	return mode, nil
}

func newBuilder(opt Options, naive bool) (*builder, error) {
	mode, err := resolve(opt)
	if err != nil {
		return nil, err
	}
	opt.Implicit = mode == CacheImplicit
	return &builder{opt: opt, m: opt.Model, naive: naive, mode: mode, ttl: opt.TTL, lastHistory: -1, cd: codecFor(opt.Model.Provider)}, nil
}

// codecFor is provider p's codec; for a provider promptc does not know (a Model built by hand), the Chat
// Completions one, so that a simulation still lays it out (New refuses it when it writes the body).
func codecFor(p Provider) provider.Codec {
	if cd := codecs.For(p); cd != nil {
		return cd
	}
	return codecs.For(provider.OpenAI)
}

// blocky reports whether the provider's messages are lists of content blocks with the system apart (Anthropic,
// Bedrock, Gemini), as opposed to OpenAI's chat messages.
func (b *builder) blocky() bool { return b.cd.Blocky() }

func (b *builder) add(p PlacedPart) {
	b.parts = append(b.parts, p)
	b.counted(len(b.parts) - 1)
}

func (b *builder) tools() {
	for _, t := range b.opt.Tools {
		def := provider.ToolDef{Name: t.Name, Description: t.Description, Schema: json.RawMessage(t.SchemaJSON())}
		js := b.cd.Tool(def)
		b.toolJSON = append(b.toolJSON, js)
		b.toolDefs = append(b.toolDefs, def)
		b.add(PlacedPart{Kind: ToolPart, Text: string(js), Message: -1})
	}
}

// system adds the runbook: one system message for OpenAI; otherwise its segments, each closing a part once the
// prefix so far reaches the model's minimum, shorter ones merged into the next.
func (b *builder) system(rb *assemble.Artifact) {
	if rb.Text == "" {
		return
	}
	msg := -1
	if !b.blocky() {
		msg = 0
	}
	if b.m.Provider == OpenAI && b.mode == CacheExplicit {
		msg = -2 // every segment a text part of the one system message (see below)
	} else if b.m.Provider == OpenAI || b.m.Provider == DeepSeek {
		text := rb.Text
		b.add(PlacedPart{Kind: SystemPart, Text: text, Message: msg, Scope: lastScope(rb), c: provider.Content{Role: "system", Text: &text}})
		b.nmsg = 1
		return
	}
	before := 0
	if n := len(b.parts); n > 0 {
		before = b.parts[n-1].Prefix
	}
	start, tokens := 0, before
	segs := rb.Segments()
	for i, s := range segs {
		tokens += b.opt.Counter.Count(rb.Text[s.Start:s.End])
		if tokens < b.m.Minimum() && i < len(segs)-1 {
			continue // too short to cache on its own: merged into the next segment
		}
		text := rb.Text[start:s.End]
		pm := msg
		if msg == -2 {
			pm = 0
		}
		b.add(PlacedPart{Kind: SystemPart, Text: text, Message: pm, Scope: s.Scope,
			c: provider.Content{Type: provider.TextBlock, Text: &text, Role: "system"}})
		if msg >= 0 {
			msg++
		}
		start = s.End
	}
	if msg > 0 {
		b.nmsg = msg
	}
	if msg == -2 {
		b.nmsg = 1
	}
}

func lastScope(rb *assemble.Artifact) blocks.Scope {
	segs := rb.Segments()
	if len(segs) == 0 {
		return blocks.ScopeGlobal
	}
	return segs[len(segs)-1].Scope
}

// messages adds the history and the turn. For Anthropic, a message's content blocks are parts of their own, and
// consecutive user-side messages (tool results, then the turn) form one message, as the API's alternation of roles
// asks.
func (b *builder) messages(history []Message, turn string) {
	b.lastHistory = -1
	for _, m := range history {
		b.message(m)
	}
	if p, ok := b.turnPart(turn); ok {
		b.parts = append(b.parts, p)
		b.counted(len(b.parts) - 1)
		b.nmsg = p.Message + 1
	}
}

// message adds one message of the history.
func (b *builder) message(m Message) {
	if !b.blocky() {
		content := m.Content
		c := provider.Content{Role: string(m.Role), Text: &content, ToolCallID: m.ToolCallID}
		if len(m.ToolCalls) > 0 {
			c.ToolCalls = calls(m.ToolCalls)
			if m.Content == "" {
				c.Text = nil
			}
		}
		b.add(PlacedPart{Kind: MessagePart, Role: m.Role, Text: b.cd.Text(c), Message: b.nmsg, History: true, c: c})
		b.nmsg++
		b.lastHistory = len(b.parts) - 1
		return
	}
	if m.Role != ToolRole && m.Content == "" && len(m.ToolCalls) == 0 {
		return // no block to send (the API refuses an empty text block), so no message either
	}
	side := m.Role
	if side == ToolRole {
		side = User
	}
	if side != b.prevRole {
		b.nmsg++
	}
	b.prevRole = side
	idx := b.nmsg - 1
	if m.Role == ToolRole {
		c := provider.Content{Type: provider.ToolResultBlock, ToolUseID: m.ToolCallID}
		if content := m.Content; content != "" {
			c.Text = &content // an empty result has no content: SDKs turn "" into an empty text block
		}
		b.add(PlacedPart{Kind: MessagePart, Role: side, Text: m.Content, Message: idx, History: true, c: c})
	} else if m.Content != "" {
		text := m.Content
		b.add(PlacedPart{Kind: MessagePart, Role: side, Text: text, Message: idx, History: true,
			c: provider.Content{Type: provider.TextBlock, Text: &text}})
	}
	for _, call := range m.ToolCalls {
		c := provider.Content{Type: provider.ToolUseBlock, ID: call.ID, Name: call.Name, Input: call.Arguments}
		b.add(PlacedPart{Kind: MessagePart, Role: side, Text: b.cd.Text(c), Message: idx, History: true, c: c})
	}
	b.lastHistory = len(b.parts) - 1
}

// calls are the history's tool calls as the provider packages take them.
func calls(cs []ToolCall) []provider.Call {
	out := make([]provider.Call, len(cs))
	for i, c := range cs {
		out[i] = provider.Call{ID: c.ID, Name: c.Name, Arguments: c.Arguments}
	}
	return out
}

// turnPart returns the part of the turn's message after the history added so far, without adding it (its Tokens
// and Prefix are not set); ok is false for an empty turn, which sends nothing.
func (b *builder) turnPart(turn string) (p PlacedPart, ok bool) {
	if turn == "" {
		return PlacedPart{}, false
	}
	if !b.blocky() {
		return PlacedPart{Kind: MessagePart, Role: User, Text: turn, Message: b.nmsg, c: provider.Content{Role: string(User), Text: &turn}}, true
	}
	idx := b.nmsg - 1
	if b.prevRole != User {
		idx++
	}
	return PlacedPart{Kind: MessagePart, Role: User, Text: turn, Message: idx, c: provider.Content{Type: provider.TextBlock, Text: &turn}}, true
}

// counted sets the token counts of part i, the last one.
func (b *builder) counted(i int) {
	p := &b.parts[i]
	p.Tokens = b.opt.Counter.Count(p.Text)
	p.Prefix = p.Tokens
	if i > 0 {
		p.Prefix += b.parts[i-1].Prefix
	}
}

func (b *builder) finish(rb *assemble.Artifact) (*Projection, error) {
	pr := &Projection{Model: b.m, Parts: b.parts, Cache: b.mode, TTL: b.m.Lifetime(b.ttl)}
	if n := len(b.parts); n > 0 {
		pr.Tokens = b.parts[n-1].Prefix
	}
	cd := codecs.For(b.m.Provider)
	if cd == nil {
		return nil, fmt.Errorf("projection: unknown provider %v", b.m.Provider)
	}
	l := &provider.Layout{Model: b.m, Mode: b.mode, TTL: b.ttl, MaxTokens: b.opt.MaxTokens, Tools: b.toolDefs,
		ToolJSON: b.toolJSON, Units: make([]provider.Unit, len(b.parts))}
	for i, p := range b.parts {
		l.Units[i] = provider.Unit{Kind: provider.Tool + provider.Region(p.Kind), Role: string(p.Role), Text: p.Text,
			Message: p.Message, Marker: p.Marker, TTL: p.TTL, Content: p.c}
	}
	if b.m.Provider == OpenAI {
		// prompt_cache_key routes the requests that share the cacheable prefix (the tools and the runbook's global
		// and task segments) to the same cache.
		h := sha256.New()
		for _, t := range b.toolJSON {
			h.Write(t)
			h.Write([]byte{0})
		}
		io.WriteString(h, rb.Text[:rb.PrefixEnd(blocks.ScopeTask)])
		pr.CacheKey = "promptc-" + hex.EncodeToString(h.Sum(nil))[:24]
		l.CacheKey = pr.CacheKey
	}
	body, create := cd.Encode(l)
	if create != nil {
		js, err := blocks.CanonicalJSON(create, "  ")
		if err != nil {
			return nil, err
		}
		pr.CacheBody = append(js, '\n')
	}
	js, err := blocks.CanonicalJSON(body, "  ")
	if err != nil {
		return nil, err
	}
	pr.Body = append(js, '\n')
	return pr, nil
}

// Output is what a client sends: Body, or, for Gemini's explicit cache, one JSON document holding the
// cachedContents create body ("cachedContents") and the generateContent body that names it ("generateContent").
func (p *Projection) Output() []byte {
	if p.CacheBody == nil {
		return p.Body
	}
	doc, err := blocks.CanonicalJSON(map[string]json.RawMessage{"cachedContents": p.CacheBody, "generateContent": p.Body}, "  ")
	if err != nil {
		return p.Body // both bodies are JSON promptc wrote
	}
	return append(doc, '\n')
}
