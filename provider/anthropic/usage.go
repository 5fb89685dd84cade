package anthropic

import "github.com/promptc/promptc/provider"

// Usage returns a Messages response's counts: the cache's reads and writes are reported beside input_tokens, and
// added to it here.
func Usage(r provider.Response) (provider.Counts, error) {
	u := r.Usage
	var c provider.Counts
	var sum provider.Sum
	c.CacheRead, c.CacheWrite = u.CacheReadInputTokens, u.CacheCreationInputTokens
	c.Input = sum.Of("input", *u.InputTokens, c.CacheRead, c.CacheWrite)
	if u.CacheCreation != nil {
		c.CacheWrite1h = u.CacheCreation.Ephemeral1h
	}
	c.Output = u.OutputTokens
	return c, sum.Err
}
