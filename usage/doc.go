// Package usage reads logs of real provider responses back: each request counted once, bucketed by provider, model
// and task, with its input, cache-read, cache-write and output tokens, hit rate and cost (docs/usage.md). Each
// provider's usage fields are read by its provider package (provider/codecs).
package usage
