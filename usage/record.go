package usage

import (
	"encoding/json"
	"fmt"

	"github.com/promptc/promptc/internal/enum"
	"github.com/promptc/promptc/internal/jsondup"
	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/provider"
	"github.com/promptc/promptc/provider/codecs"
)

// Provider names, as the model table (docs/providers.md) and promptc project spell them (provider.Names). A
// response's provider is told from its shape: each API reports usage under field names of its own (docs/usage.md
// lists them with their sources).
var (
	Anthropic = provider.Anthropic.String()
	OpenAI    = provider.OpenAI.String()
	DashScope = provider.DashScope.String()
	Bedrock   = provider.Bedrock.String()
	Gemini    = provider.Gemini.String()
	DeepSeek  = provider.DeepSeek.String()
)

// Record is one request's usage, read from one log line (or one span of an OTLP line). CacheReadTokens and CacheWriteTokens are part of
// InputTokens, whatever the provider's own accounting (Anthropic and Bedrock report them beside input_tokens,
// OpenAI, DashScope, DeepSeek and Gemini inside it).
type Record struct {
	Provider string
	Model    string
	// Task, Turn and Time come from the log's wrapper object, when it gives them (a span's from its attributes and
	// its start, RFC 3339 in UTC).
	Task string
	Turn int
	Time string
	// RequestID is the wrapper's request_id; ResponseID the response body's own id (id, or Gemini's responseId; a
	// span's gen_ai.response.id).
	RequestID, ResponseID string
	InputTokens           int
	CacheReadTokens       int
	CacheWriteTokens      int
	// CacheWrite1hTokens is the part of CacheWriteTokens written with a one-hour lifetime (Anthropic's
	// cache_creation.ephemeral_1h_input_tokens, Bedrock's cacheDetails with ttl "1h").
	CacheWrite1hTokens int
	OutputTokens       int
}

// line is a log line: a wrapper object around a response body, or a response body itself. Its fields are the
// union of the wrapper's and of every provider's, so that one decoding reads any of them.
type line struct {
	Response *line `json:"response"`
	// RequestID, Task, Turn, Time and Provider are the wrapper's; Model is the wrapper's or the response's.
	RequestID string `json:"request_id"`
	Task      string `json:"task"`
	Turn      int    `json:"turn"`
	Time      string `json:"time"`
	Provider  string `json:"provider"`
	Model     string `json:"model"`

	ID            string           `json:"id"`
	Type          string           `json:"type"`
	Object        string           `json:"object"`
	ResponseID    string           `json:"responseId"`
	ModelVersion  string           `json:"modelVersion"`
	Usage         *rawUsage        `json:"usage"`
	UsageMetadata *geminiUsage     `json:"usageMetadata"`
	Error         *json.RawMessage `json:"error"`
}

// The response's usage objects, as the provider packages read them.
type (
	rawUsage      = provider.Usage
	cacheCreation = provider.CacheCreation
	details       = provider.Details
	geminiUsage   = provider.UsageMetadata
)

// ParseLine reads one log line: a provider's response body, or a wrapper object {"response": body, "request_id",
// "task", "turn", "time", "model", "provider"}. The provider is the wrapper's when it names one, else told from
// the body's usage fields (and, among the OpenAI-compatible APIs, from DeepSeek's own fields or the model's name).
// The error says what is wrong; a syntax error is a *json.SyntaxError and a key an object holds twice a
// *jsondup.Error (keys that differ only in case are one where encoding/json reads them into one field), so that a
// reader can place them. A count that is negative, or a sum of counts (Anthropic's input, say) past the most an int
// holds, is refused: no response holds one, and a wrapped sum would count negative tokens.
func ParseLine(data []byte) (Record, error) {
	var l line
	if parseFast(data, &l) == nil {
		if r, err := l.record(); err == nil {
			return r, nil
		}
		// encoding/json matches keys without regard to case ("Usage"): let it have the last word on a line
		// the scanner found nothing in.
	}
	l = line{}
	if err := json.Unmarshal(data, &l); err != nil {
		return Record{}, err
	}
	if dup := jsondup.Find(data, foldedKey); dup != nil {
		return Record{}, dup
	}
	return l.record()
}

func (l *line) record() (Record, error) {
	body := l
	if l.Response != nil {
		body = l.Response
	}
	r := Record{
		Provider:  l.Provider,
		Model:     l.Model,
		Task:      l.Task,
		Turn:      l.Turn,
		Time:      l.Time,
		RequestID: l.RequestID,
	}
	if r.Model == "" {
		r.Model = body.Model
	}
	if r.Model == "" {
		r.Model = body.ModelVersion
	}
	r.ResponseID = body.ID
	if r.ResponseID == "" {
		r.ResponseID = body.ResponseID
	}
	if r.Turn < 0 {
		return Record{}, fmt.Errorf("\"turn\" is %d: turns count from 1", r.Turn)
	}
	resp := provider.Response{Usage: body.Usage, UsageMetadata: body.UsageMetadata}
	shape, err := codecs.DetectResponse(&resp, r.Model, body.ID, body.Object, body.Error != nil)
	if err != nil {
		return Record{}, err
	}
	if r.Provider != "" && !provider.Known(r.Provider) {
		return Record{}, fmt.Errorf("unknown provider %q: use %s", r.Provider, enum.OrList(provider.Names()))
	}
	c, err := codecs.For(shape).Usage(resp)
	if err != nil {
		return Record{}, err
	}
	r.InputTokens, r.CacheReadTokens, r.CacheWriteTokens, r.CacheWrite1hTokens, r.OutputTokens =
		c.Input, c.CacheRead, c.CacheWrite, c.CacheWrite1h, c.Output
	if r.Provider == "" {
		r.Provider = shape.String()
	}
	return r, r.check()
}

// check refuses counts no response can hold.
func (r Record) check() error {
	for _, f := range []struct {
		name string
		n    int
	}{{"input", r.InputTokens}, {"cache-read", r.CacheReadTokens}, {"cache-write", r.CacheWriteTokens}, {"output", r.OutputTokens}} {
		if f.n < 0 {
			return fmt.Errorf("%s token count is negative (%s)", f.name, plural.Thousands(f.n))
		}
	}
	if r.CacheReadTokens > r.InputTokens-r.CacheWriteTokens { // each is at least 0: no sum to wrap around
		return fmt.Errorf("%s and %s exceed the %s", plural.Count(r.CacheReadTokens, "cache-read token"),
			plural.Count(r.CacheWriteTokens, "cache-write token"), plural.Count(r.InputTokens, "input token"))
	}
	if r.CacheWrite1hTokens > r.CacheWriteTokens || r.CacheWrite1hTokens < 0 {
		return fmt.Errorf("%s, of %s written", plural.Count(r.CacheWrite1hTokens, "one-hour cache-write token"), plural.Thousands(r.CacheWriteTokens))
	}
	return nil
}
