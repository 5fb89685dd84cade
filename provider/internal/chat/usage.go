package chat

import "github.com/promptc/promptc/provider"

// Usage returns the counts of a Chat Completions response (OpenAI, DashScope, DeepSeek), or of a Responses API one.
func Usage(r provider.Response) (provider.Counts, error) {
	u := r.Usage
	var c provider.Counts
	var sum provider.Sum
	if r.Responses {
		c.Input, c.Output = *u.InputTokens, u.OutputTokens
		if d := u.InputTokensDetails; d != nil {
			c.CacheRead, c.CacheWrite = d.CachedTokens, d.CacheWriteTokens
		}
		return c, nil
	}
	if u.PromptTokens != nil {
		c.Input = *u.PromptTokens
	}
	c.Output = u.CompletionTokens
	if d := u.PromptTokensDetails; d != nil {
		c.CacheRead = d.CachedTokens
		c.CacheWrite = sum.Of("cache-write", d.CacheWriteTokens, d.CacheCreationInputTokens)
	}
	if u.PromptCacheHitTokens != nil {
		// DeepSeek: every prompt token is a hit or a miss; a miss is billed as input, never as a write.
		c.CacheRead = *u.PromptCacheHitTokens
		if u.PromptTokens == nil && u.PromptCacheMissTokens != nil {
			c.Input = sum.Of("input", c.CacheRead, *u.PromptCacheMissTokens)
		}
	}
	return c, sum.Err
}
