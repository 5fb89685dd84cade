package gemini

import "github.com/promptc/promptc/provider"

// Usage returns a generateContent response's counts, from its usageMetadata: the prompt with the tool-use prompt,
// the candidates with the thoughts.
func Usage(r provider.Response) (provider.Counts, error) {
	g := r.UsageMetadata
	var c provider.Counts
	var sum provider.Sum
	if g.PromptTokenCount != nil {
		c.Input = sum.Of("input", *g.PromptTokenCount, g.ToolUsePromptTokenCount)
	}
	c.CacheRead = g.CachedContentTokenCount
	c.Output = sum.Of("output", g.CandidatesTokenCount, g.ThoughtsTokenCount)
	return c, sum.Err
}
