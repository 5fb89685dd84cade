package provider

import (
	"fmt"
	"math"

	"github.com/promptc/promptc/internal/plural"
)

// Response is what a response body says of its usage, as package usage's reader decodes it: the "usage" object of
// Anthropic, OpenAI, DashScope, DeepSeek and Bedrock, or Gemini's "usageMetadata".
type Response struct {
	Usage         *Usage
	UsageMetadata *UsageMetadata
	// Responses is set for an OpenAI Responses API body (provider OpenAI, usage named as Anthropic's).
	Responses bool
}

// Usage is the union of the usage objects of Anthropic Messages, OpenAI Chat Completions and Responses, DashScope,
// DeepSeek and Bedrock Converse, so that one decoding reads any of them. encoding/json matches keys without regard
// to case, never to underscores, so input_tokens and inputTokens stay apart.
type Usage struct {
	// Anthropic Messages (input_tokens and output_tokens are also the OpenAI Responses API's).
	InputTokens              *int           `json:"input_tokens"`
	OutputTokens             int            `json:"output_tokens"`
	CacheCreationInputTokens int            `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int            `json:"cache_read_input_tokens"`
	CacheCreation            *CacheCreation `json:"cache_creation"`
	// OpenAI Chat Completions, DashScope and DeepSeek (OpenAI-compatible).
	PromptTokens        *int     `json:"prompt_tokens"`
	CompletionTokens    int      `json:"completion_tokens"`
	PromptTokensDetails *Details `json:"prompt_tokens_details"`
	// OpenAI Responses.
	InputTokensDetails *Details `json:"input_tokens_details"`
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

// CacheCreation is Anthropic's split of the tokens written by lifetime.
type CacheCreation struct {
	Ephemeral5m int `json:"ephemeral_5m_input_tokens"`
	Ephemeral1h int `json:"ephemeral_1h_input_tokens"`
}

// Details is OpenAI's prompt_tokens_details (input_tokens_details in the Responses API), with DashScope's explicit
// cache fields.
type Details struct {
	CachedTokens     int `json:"cached_tokens"`
	CacheWriteTokens int `json:"cache_write_tokens"`
	// DashScope's explicit cache.
	CacheCreationInputTokens int    `json:"cache_creation_input_tokens"`
	CacheType                string `json:"cache_type"`
}

// UsageMetadata is Gemini's usageMetadata.
type UsageMetadata struct {
	PromptTokenCount        *int `json:"promptTokenCount"`
	CachedContentTokenCount int  `json:"cachedContentTokenCount"`
	CandidatesTokenCount    int  `json:"candidatesTokenCount"`
	ThoughtsTokenCount      int  `json:"thoughtsTokenCount"`
	ToolUsePromptTokenCount int  `json:"toolUsePromptTokenCount"`
}

// Counts are one response's token counts. CacheRead and CacheWrite are part of Input, whatever the provider's own
// accounting (Anthropic and Bedrock report them beside input_tokens, OpenAI, DashScope, DeepSeek and Gemini inside
// it); CacheWrite1h is the part of CacheWrite written with a one-hour lifetime.
type Counts struct {
	Input, CacheRead, CacheWrite, CacheWrite1h, Output int
}

// Sum adds a response's counts from their parts, keeping the first problem: a negative part (which a sum would
// hide), or a sum past the most an int holds.
type Sum struct{ Err error }

// Of returns the sum of parts, 0 once Err is set; what names the count for the error.
func (c *Sum) Of(what string, parts ...int) int {
	n := 0
	for _, p := range parts {
		switch {
		case c.Err != nil:
			return 0
		case p < 0:
			c.Err = fmt.Errorf("%s token count has a negative part (%s)", what, plural.Thousands(p))
		case n > math.MaxInt-p:
			c.Err = fmt.Errorf("%s token count overflows: its parts add up to more than %s", what, plural.Thousands(math.MaxInt))
		default:
			n += p
		}
	}
	return n
}
