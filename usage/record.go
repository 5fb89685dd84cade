package usage

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/jsondup"
	"github.com/promptc/promptc/internal/plural"
)

// Provider names, as the model table (docs/providers.md) and promptc project spell them. A response's provider is
// told from its shape: each API reports usage under field names of its own (docs/usage.md lists them with their
// sources).
const (
	Anthropic = "anthropic"
	OpenAI    = "openai"
	DashScope = "dashscope"
	Bedrock   = "bedrock"
	Gemini    = "gemini"
	DeepSeek  = "deepseek"
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

// rawUsage is the union of the usage objects of Anthropic Messages, OpenAI Chat Completions and Responses,
// DashScope, DeepSeek and Bedrock Converse. encoding/json matches keys without regard to case, never to
// underscores, so input_tokens and inputTokens stay apart.
type rawUsage struct {
	// Anthropic Messages (input_tokens and output_tokens are also the OpenAI Responses API's).
	InputTokens              *int           `json:"input_tokens"`
	OutputTokens             int            `json:"output_tokens"`
	CacheCreationInputTokens int            `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int            `json:"cache_read_input_tokens"`
	CacheCreation            *cacheCreation `json:"cache_creation"`
	// OpenAI Chat Completions, DashScope and DeepSeek (OpenAI-compatible).
	PromptTokens        *int     `json:"prompt_tokens"`
	CompletionTokens    int      `json:"completion_tokens"`
	PromptTokensDetails *details `json:"prompt_tokens_details"`
	// OpenAI Responses.
	InputTokensDetails *details `json:"input_tokens_details"`
	// DeepSeek.
	PromptCacheHitTokens  *int `json:"prompt_cache_hit_tokens"`
	PromptCacheMissTokens *int `json:"prompt_cache_miss_tokens"`
	// Bedrock Converse.
	BedrockInputTokens    *int `json:"inputTokens"`
	BedrockOutputTokens   int  `json:"outputTokens"`
	CacheReadInputTokensB int  `json:"cacheReadInputTokens"`
	CacheWriteInputTokens int  `json:"cacheWriteInputTokens"`
	CacheDetails          []struct {
		InputTokens int    `json:"inputTokens"`
		TTL         string `json:"ttl"`
	} `json:"cacheDetails"`
}

// cacheCreation is Anthropic's split of the tokens written by lifetime.
type cacheCreation struct {
	Ephemeral5m int `json:"ephemeral_5m_input_tokens"`
	Ephemeral1h int `json:"ephemeral_1h_input_tokens"`
}

// details is OpenAI's prompt_tokens_details (input_tokens_details in the Responses API), with DashScope's explicit
// cache fields.
type details struct {
	CachedTokens     int `json:"cached_tokens"`
	CacheWriteTokens int `json:"cache_write_tokens"`
	// DashScope's explicit cache.
	CacheCreationInputTokens int    `json:"cache_creation_input_tokens"`
	CacheType                string `json:"cache_type"`
}

// geminiUsage is Gemini's usageMetadata.
type geminiUsage struct {
	PromptTokenCount        *int `json:"promptTokenCount"`
	CachedContentTokenCount int  `json:"cachedContentTokenCount"`
	CandidatesTokenCount    int  `json:"candidatesTokenCount"`
	ThoughtsTokenCount      int  `json:"thoughtsTokenCount"`
	ToolUsePromptTokenCount int  `json:"toolUsePromptTokenCount"`
}

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
	shape, err := body.provider(r.Model)
	if err != nil {
		return Record{}, err
	}
	if r.Provider != "" && !knownProvider(r.Provider) {
		return Record{}, fmt.Errorf("unknown provider %q: use anthropic, openai, dashscope, bedrock, gemini or deepseek", r.Provider)
	}
	u := body.Usage
	var sum counter
	switch shape {
	case Gemini:
		g := body.UsageMetadata
		if g.PromptTokenCount != nil {
			r.InputTokens = sum.of("input", *g.PromptTokenCount, g.ToolUsePromptTokenCount)
		}
		r.CacheReadTokens = g.CachedContentTokenCount
		r.OutputTokens = sum.of("output", g.CandidatesTokenCount, g.ThoughtsTokenCount)
	case Bedrock:
		r.CacheReadTokens, r.CacheWriteTokens = u.CacheReadInputTokensB, u.CacheWriteInputTokens
		r.InputTokens = sum.of("input", *u.BedrockInputTokens, r.CacheReadTokens, r.CacheWriteTokens)
		for _, d := range u.CacheDetails {
			if d.TTL == "1h" {
				r.CacheWrite1hTokens = sum.of("one-hour cache-write", r.CacheWrite1hTokens, d.InputTokens)
			}
		}
		r.OutputTokens = u.BedrockOutputTokens
	case Anthropic:
		r.CacheReadTokens, r.CacheWriteTokens = u.CacheReadInputTokens, u.CacheCreationInputTokens
		r.InputTokens = sum.of("input", *u.InputTokens, r.CacheReadTokens, r.CacheWriteTokens)
		if u.CacheCreation != nil {
			r.CacheWrite1hTokens = u.CacheCreation.Ephemeral1h
		}
		r.OutputTokens = u.OutputTokens
	case responsesShape:
		r.InputTokens, r.OutputTokens = *u.InputTokens, u.OutputTokens
		if d := u.InputTokensDetails; d != nil {
			r.CacheReadTokens, r.CacheWriteTokens = d.CachedTokens, d.CacheWriteTokens
		}
	default: // the OpenAI-compatible Chat Completions bodies
		if u.PromptTokens != nil {
			r.InputTokens = *u.PromptTokens
		}
		r.OutputTokens = u.CompletionTokens
		if d := u.PromptTokensDetails; d != nil {
			r.CacheReadTokens = d.CachedTokens
			r.CacheWriteTokens = sum.of("cache-write", d.CacheWriteTokens, d.CacheCreationInputTokens)
		}
		if u.PromptCacheHitTokens != nil {
			// DeepSeek: every prompt token is a hit or a miss; a miss is billed as input, never as a write.
			r.CacheReadTokens = *u.PromptCacheHitTokens
			if u.PromptTokens == nil && u.PromptCacheMissTokens != nil {
				r.InputTokens = sum.of("input", r.CacheReadTokens, *u.PromptCacheMissTokens)
			}
		}
	}
	if sum.err != nil {
		return Record{}, sum.err
	}
	if shape == responsesShape {
		shape = OpenAI
	}
	if r.Provider == "" {
		r.Provider = shape
	}
	return r, r.check()
}

// responsesShape is the OpenAI Responses API's body: provider openai, usage named as Anthropic's.
const responsesShape = "openai responses"

// provider tells the API from the body's shape.
func (l *line) provider(model string) (string, error) {
	u := l.Usage
	switch {
	case l.UsageMetadata != nil:
		return Gemini, nil
	case u == nil && l.Error != nil:
		return "", fmt.Errorf("an error response, with no usage")
	case u == nil:
		return "", fmt.Errorf("no \"usage\" or \"usageMetadata\": not a response body of a known provider (a wrapper holds it under \"response\")")
	case u.BedrockInputTokens != nil:
		return Bedrock, nil
	case u.InputTokens != nil && (l.Object == "response" || strings.HasPrefix(l.ID, "resp_")):
		return responsesShape, nil
	case u.InputTokens != nil:
		return Anthropic, nil
	case u.PromptCacheHitTokens != nil || u.PromptCacheMissTokens != nil || strings.HasPrefix(model, "deepseek"):
		return DeepSeek, nil
	case u.PromptTokens != nil && (strings.HasPrefix(model, "qwen") || strings.HasPrefix(model, "qwq") ||
		u.PromptTokensDetails != nil && (u.PromptTokensDetails.CacheType != "" || u.PromptTokensDetails.CacheCreationInputTokens > 0)):
		return DashScope, nil
	case u.PromptTokens != nil:
		return OpenAI, nil
	}
	return "", fmt.Errorf("\"usage\" holds no input token count this reader knows (input_tokens, prompt_tokens, inputTokens)")
}

func knownProvider(p string) bool { return slices.Contains(blocks.Providers, p) }

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

// counter adds a record's counts from their parts, keeping the first problem: a negative part (which a sum would
// hide), or a sum past the most an int holds.
type counter struct{ err error }

func (c *counter) of(what string, parts ...int) int {
	n := 0
	for _, p := range parts {
		switch {
		case c.err != nil:
			return 0
		case p < 0:
			c.err = fmt.Errorf("%s token count has a negative part (%s)", what, plural.Thousands(p))
		case n > math.MaxInt-p:
			c.err = fmt.Errorf("%s token count overflows: its parts add up to more than %s", what, plural.Thousands(math.MaxInt))
		default:
			n += p
		}
	}
	return n
}
