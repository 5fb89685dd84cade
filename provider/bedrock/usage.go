package bedrock

import "github.com/promptc/promptc/provider"

// Usage returns a Converse response's counts: cacheReadInputTokens and cacheWriteInputTokens are reported beside
// inputTokens, and added to it here; cacheDetails with ttl "1h" are the one-hour writes.
func Usage(r provider.Response) (provider.Counts, error) {
	u := r.Usage
	var c provider.Counts
	var sum provider.Sum
	c.CacheRead, c.CacheWrite = u.CacheReadInputTokensB, u.CacheWriteInputTokens
	c.Input = sum.Of("input", *u.BedrockInputTokens, c.CacheRead, c.CacheWrite)
	for _, d := range u.CacheDetails {
		if d.TTL == "1h" {
			c.CacheWrite1h = sum.Of("one-hour cache-write", c.CacheWrite1h, d.InputTokens)
		}
	}
	c.Output = u.BedrockOutputTokens
	return c, sum.Err
}
