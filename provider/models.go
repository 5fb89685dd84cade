package provider

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"

	"github.com/promptc/promptc/internal/enum"
	"github.com/promptc/promptc/internal/suggest"
)

// Matching is how a model finds a cached prefix.
type Matching uint8

const (
	// Breakpoints: the prefix up to an explicit cache marker is cached; a later request reads it when its own
	// marker, or one of the Lookback blocks before it, ends the same prefix.
	Breakpoints Matching = iota
	// Prefix: every request's prefix is cached automatically, and a later request reads the longest prefix it
	// shares with one, from MinCacheTokens on, in multiples of Step.
	Prefix
	// Messages: as Breakpoints, with messages as the blocks (DashScope's explicit cache matches whole messages).
	Messages
)

var matchingNames = []string{"breakpoints", "prefix", "messages"}

var matchings = enum.New[Matching]("Matching", "matching", matchingNames...)

func (m Matching) String() string { return matchings.String(m) }

// Model is what promptc knows of one model's prompt cache: the rules that decide where a cache marker pays, and
// the prices that decide how much. The built-in rows (Models) cite the provider page each was read from.
type Model struct {
	Provider Provider
	Name     string
	Matching Matching
	// MinCacheTokens is the shortest prefix the provider caches.
	MinCacheTokens int
	// MaxBreakpoints is how many cache markers one request may carry (0 for automatic caching).
	MaxBreakpoints int
	// Lookback is how many blocks before a marker the provider searches for an earlier cache entry.
	Lookback int
	// Step: cached token counts are MinCacheTokens plus a multiple of Step (automatic prefix caching).
	Step int
	// CacheWrite and CacheRead are the prices of a token written to and read from the cache, as multiples of the
	// input token price.
	CacheWrite, CacheRead float64
	// Safety: promptc counts tokens with o200k_base. Where the provider's tokenizer differs, a marker goes only
	// where the counted prefix reaches Safety × MinCacheTokens, so that it never sits on a prefix too short to
	// cache.
	Safety float64
	// ImplicitMinCacheTokens and ImplicitCacheRead are DashScope's implicit cache, used without markers.
	ImplicitMinCacheTokens int
	ImplicitCacheRead      float64
	// Default marks the provider's model used when none is named.
	Default bool
	// Source names the page the row was read from, and Checked when.
	Source, Checked string

	// Modes are the cache modes the model offers, its default first.
	Modes []CacheMode
	// TTLs are the cache lifetimes the model offers, its default first; TTLWrite[i] is the price of a token
	// written with TTLs[i] (CacheWrite where TTLWrite is shorter).
	TTLs     []TTL
	TTLWrite []float64
	// NoRefresh: a hit does not renew an entry's lifetime (it runs from its writing).
	NoRefresh bool
	// Considered is, for markers matched without a lookback (OpenAI's explicit breakpoints), how many of the latest
	// breakpoints a request is matched against; 0 means Lookback applies.
	Considered int
	// StoragePerHour is the price of keeping one token in an explicit cache for an hour, as a multiple of the input
	// price (Gemini's cachedContents); 0 for none.
	StoragePerHour float64
	// ReplyUnits: the provider also caches each request with the model's reply as a unit (DeepSeek), and reads
	// only whole units: ends of earlier requests, of their replies, and prefixes already shared by two requests.
	ReplyUnits bool
	// PracticeMinCacheTokens is where caching starts in practice when that differs from the provider's page
	// (Practice says where that is reported); promptc places markers from the larger of the two. 0 for none.
	PracticeMinCacheTokens int
	Practice               string
	// ToolMarkers: the model takes a cache marker after the tool definitions (Claude's cache_control on its last
	// tool, a cachePoint closing Bedrock's toolConfig.tools; Amazon Nova takes none there). promptc places one only
	// with a breakpoint to spare (docs/providers.md#tools-and-the-breakpoint-limit).
	ToolMarkers bool
	// MaxCacheTokens is the longest prefix the provider caches (Amazon Nova on Bedrock: 20,000 tokens); the tokens
	// of a request after it are never read from or written to the cache. 0 for no limit.
	MaxCacheTokens int
	// InputPricePerMTok is the price in USD of a million uncached input tokens, 0 when the table has none;
	// PriceSource and PriceChecked cite the pricing page and the date it was read. Change reports show money only
	// where it is set (docs/usage.md#the-price-of-a-change).
	InputPricePerMTok         float64
	PriceSource, PriceChecked string
}

// offered is Modes, or, for a row that lists none (a Model built in Go), what its matching implies: automatic
// for prefix matching, explicit for markers, and implicit too for DashScope's messages.
func (m Model) offered() []CacheMode {
	switch {
	case len(m.Modes) > 0:
		return m.Modes
	case m.Matching == Prefix:
		return []CacheMode{CacheAutomatic}
	case m.Matching == Messages:
		return []CacheMode{CacheExplicit, CacheImplicit}
	}
	return []CacheMode{CacheExplicit}
}

// Supports reports whether the model offers cache mode c (CacheDefault always).
func (m Model) Supports(c CacheMode) bool {
	return c == CacheDefault || slices.Contains(m.offered(), c)
}

// Mode returns the mode c stands for: c itself, or the model's default for CacheDefault.
func (m Model) Mode(c CacheMode) CacheMode {
	if c == CacheDefault {
		return m.offered()[0]
	}
	return c
}

// Lifetime returns the lifetime t stands for: t itself, or the model's default for TTLDefault (TTLDefault when the
// model offers no choice).
func (m Model) Lifetime(t TTL) TTL {
	if t == TTLDefault && len(m.TTLs) > 0 {
		return m.TTLs[0]
	}
	return t
}

// WritePrice is the price of a token written with lifetime t, as a multiple of the input price.
func (m Model) WritePrice(t TTL) float64 {
	if i := slices.Index(m.TTLs, m.Lifetime(t)); i >= 0 && i < len(m.TTLWrite) {
		return m.TTLWrite[i]
	}
	return m.CacheWrite
}

// Check returns an error naming what the model offers when it lacks cache mode c or lifetime t.
func (m Model) Check(c CacheMode, t TTL) error {
	if !m.Supports(c) {
		return fmt.Errorf("%s %s has no %s cache: it offers %s", m.Provider, m.Name, c, enum.OrList(modeNames(m.offered())))
	}
	if t != TTLDefault && !slices.Contains(m.TTLs, t) {
		if len(m.TTLs) == 0 {
			return fmt.Errorf("%s %s offers no choice of cache lifetime: leave --ttl out", m.Provider, m.Name)
		}
		return fmt.Errorf("%s %s has no %s cache lifetime: it offers %s", m.Provider, m.Name, t, enum.OrList(ttlStrings(m.TTLs)))
	}
	return nil
}

func modeNames(cs []CacheMode) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

func ttlStrings(ts []TTL) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.String()
	}
	return out
}

// Minimum is the number of o200k tokens a prefix needs before a cache marker goes after it: MinCacheTokens (or
// PracticeMinCacheTokens, when larger) scaled by Safety, rounded up.
func (m Model) Minimum() int {
	f := m.Safety
	if f < 1 {
		f = 1
	}
	n := float64(max(m.MinCacheTokens, m.PracticeMinCacheTokens)) * f
	i := int(n)
	if float64(i) < n {
		i++
	}
	return i
}

//go:embed models.toml
var modelsTOML string

var builtin = sync.OnceValue(func() []Model {
	var doc struct {
		Model []struct {
			Provider               string    `toml:"provider"`
			Name                   string    `toml:"name"`
			Matching               string    `toml:"matching"`
			MinCacheTokens         int       `toml:"min_cache_tokens"`
			MaxBreakpoints         int       `toml:"max_breakpoints"`
			Lookback               int       `toml:"lookback"`
			Step                   int       `toml:"step"`
			CacheWrite             float64   `toml:"cache_write"`
			CacheRead              float64   `toml:"cache_read"`
			Safety                 float64   `toml:"safety"`
			ImplicitMinCacheTokens int       `toml:"implicit_min_cache_tokens"`
			ImplicitCacheRead      float64   `toml:"implicit_cache_read"`
			Default                bool      `toml:"default"`
			Source                 string    `toml:"source"`
			Checked                string    `toml:"checked"`
			Modes                  []string  `toml:"modes"`
			TTLs                   []string  `toml:"ttls"`
			TTLWrite               []float64 `toml:"ttl_write"`
			NoRefresh              bool      `toml:"no_refresh"`
			Considered             int       `toml:"considered"`
			StoragePerHour         float64   `toml:"storage_per_hour"`
			ReplyUnits             bool      `toml:"reply_units"`
			PracticeMin            int       `toml:"practice_min_cache_tokens"`
			Practice               string    `toml:"practice"`
			ToolMarkers            bool      `toml:"tool_markers"`
			MaxCacheTokens         int       `toml:"max_cache_tokens"`
			InputPrice             float64   `toml:"input_price_per_mtok"`
			PriceSource            string    `toml:"price_source"`
			PriceChecked           string    `toml:"price_checked"`
		} `toml:"model"`
	}
	md, err := toml.Decode(modelsTOML, &doc)
	if err != nil {
		panic("provider: models.toml: " + err.Error()) // compiled in: a test loads it
	}
	if u := md.Undecoded(); len(u) > 0 {
		panic(fmt.Sprintf("provider: models.toml: unknown keys %v", u))
	}
	var out []Model
	for _, r := range doc.Model {
		p, err := Parse(r.Provider)
		if err != nil {
			panic("provider: models.toml: " + err.Error())
		}
		mi := slices.Index(matchingNames, r.Matching)
		if mi < 0 {
			panic("provider: models.toml: unknown matching " + r.Matching)
		}
		m := Model{
			Provider: p, Name: r.Name, Matching: Matching(mi), MinCacheTokens: r.MinCacheTokens,
			MaxBreakpoints: r.MaxBreakpoints, Lookback: r.Lookback, Step: r.Step, CacheWrite: r.CacheWrite,
			CacheRead: r.CacheRead, Safety: r.Safety, ImplicitMinCacheTokens: r.ImplicitMinCacheTokens,
			ImplicitCacheRead: r.ImplicitCacheRead, Default: r.Default, Source: r.Source, Checked: r.Checked,
			TTLWrite: r.TTLWrite, NoRefresh: r.NoRefresh, Considered: r.Considered, StoragePerHour: r.StoragePerHour,
			ReplyUnits: r.ReplyUnits, PracticeMinCacheTokens: r.PracticeMin, Practice: r.Practice,
			ToolMarkers: r.ToolMarkers, MaxCacheTokens: r.MaxCacheTokens,
			InputPricePerMTok: r.InputPrice, PriceSource: r.PriceSource, PriceChecked: r.PriceChecked,
		}
		if r.InputPrice > 0 && (r.PriceSource == "" || r.PriceChecked == "") {
			panic("projection: models.toml: row " + r.Name + " has a price without price_source and price_checked")
		}
		for _, s := range r.Modes {
			c, err := ParseCacheMode(s)
			if err != nil {
				panic("provider: models.toml: " + err.Error())
			}
			m.Modes = append(m.Modes, c)
		}
		for _, s := range r.TTLs {
			t, err := ParseTTL(s)
			if err != nil {
				panic("provider: models.toml: " + err.Error())
			}
			m.TTLs = append(m.TTLs, t)
		}
		if len(m.Modes) == 0 || r.Source == "" || r.Checked == "" {
			panic("provider: models.toml: row " + r.Name + " needs modes, source and checked")
		}
		out = append(out, m)
	}
	return out
})

// Models returns the built-in model rows, in the order of the embedded table (models.toml).
func Models() []Model { return slices.Clone(builtin()) }

// Catalog is the models a project projects for: the built-in rows with the project's [[model]] rows applied.
type Catalog struct {
	models []Model
}

// Row is a project's [[model]] row (blocks.ModelRow, read from promptc.toml): a nil field is one the row does not
// set, so that an override changes only what it names.
type Row struct {
	Provider                                       Provider
	Name                                           string
	MinCacheTokens, MaxBreakpoints, Lookback, Step *int
	CacheWrite, CacheRead, Safety                  *float64
	MaxCacheTokens                                 *int
	ToolMarkers                                    *bool
	Source, Checked                                string
	// InputPricePerMTok, when set, is the row's own price in USD of a million uncached input tokens, cited by
	// PriceSource and PriceChecked (PriceSource defaults to promptc.toml).
	InputPricePerMTok         *float64
	PriceSource, PriceChecked string
}

// Builtin returns the catalog of the built-in rows alone, built once and shared: a Catalog is never changed after it
// is made. It is what a caller with no project uses (miss without one, a command run outside any project).
func Builtin() *Catalog { return builtinCatalog() }

var builtinCatalog = sync.OnceValue(func() *Catalog { return NewCatalog(nil) })

// NewCatalog returns the built-in rows with rows applied over them: a row naming a built-in model changes the
// fields it sets; a row naming another model adds it, starting from the provider's default model's rules.
func NewCatalog(rows []Row) *Catalog {
	c := &Catalog{models: Models()}
	for _, r := range rows {
		p := r.Provider
		i := slices.IndexFunc(c.models, func(m Model) bool { return m.Provider == p && m.Name == r.Name })
		if i < 0 {
			m := c.defaultModel(p)
			m.Name, m.Default, m.Source, m.Checked, m.PracticeMinCacheTokens, m.Practice = r.Name, false, "", "", 0, ""
			// A price is never inherited from another model: it is the row's own or unknown.
			m.InputPricePerMTok, m.PriceSource, m.PriceChecked = 0, "", ""
			c.models = append(c.models, m)
			i = len(c.models) - 1
		}
		m := &c.models[i]
		if r.MinCacheTokens != nil {
			// The project's own minimum is its measurement: it replaces the table's note of practice.
			m.PracticeMinCacheTokens, m.Practice = 0, ""
		}
		setInt(&m.MinCacheTokens, r.MinCacheTokens)
		setInt(&m.MaxBreakpoints, r.MaxBreakpoints)
		setInt(&m.Lookback, r.Lookback)
		setInt(&m.Step, r.Step)
		setFloat(&m.CacheWrite, r.CacheWrite)
		setFloat(&m.CacheRead, r.CacheRead)
		setFloat(&m.Safety, r.Safety)
		setInt(&m.MaxCacheTokens, r.MaxCacheTokens)
		if r.ToolMarkers != nil {
			m.ToolMarkers = *r.ToolMarkers
		}
		if r.InputPricePerMTok != nil {
			m.InputPricePerMTok, m.PriceSource, m.PriceChecked = *r.InputPricePerMTok, "promptc.toml", r.PriceChecked
			if r.PriceSource != "" {
				m.PriceSource = r.PriceSource
			}
		}
		if r.Source != "" {
			m.Source = r.Source
		}
		if r.Checked != "" {
			m.Checked = r.Checked
		}
		if m.Source == "" {
			m.Source = "promptc.toml"
		}
	}
	return c
}

func setInt(dst *int, v *int) {
	if v != nil {
		*dst = *v
	}
}

func setFloat(dst *float64, v *float64) {
	if v != nil {
		*dst = *v
	}
}

func (c *Catalog) defaultModel(p Provider) Model {
	for _, m := range c.models {
		if m.Provider == p && m.Default {
			return m
		}
	}
	panic("provider: no default model for " + p.String())
}

// Find returns the model named name, of whichever provider lists it (the first in the table's order), for a
// [traffic] entry, which names a model only. The error names the closest model.
func (c *Catalog) Find(name string) (Model, error) {
	var names []string
	for _, m := range c.models {
		if m.Name == name {
			return m, nil
		}
		names = append(names, m.Name)
	}
	return Model{}, fmt.Errorf("unknown model %q%s; add a [[model]] row to promptc.toml for it", name, suggest.DidYouMean(name, names))
}

// Model returns the model named name of provider p, or p's default model when name is "".
func (c *Catalog) Model(p Provider, name string) (Model, error) {
	if name == "" {
		return c.defaultModel(p), nil
	}
	var names []string
	for _, m := range c.models {
		if m.Provider == p {
			if m.Name == name {
				return m, nil
			}
			names = append(names, m.Name)
		}
	}
	return Model{}, fmt.Errorf("unknown %s model %q%s; promptc knows %s (add a [[model]] row to promptc.toml for another)",
		p, name, suggest.DidYouMean(name, names), strings.Join(names, ", "))
}
