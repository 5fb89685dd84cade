// Package deepseek is the wire format of DeepSeek's OpenAI-compatible Chat Completions API, in the three directions of provider.Codec: the request body promptc
// project writes (Encode, from projection's provider-neutral Layout), the request body promptc miss reads back
// (Check, Decode) and the response whose usage promptc usage counts (Usage). Its shape: no markers (the cache works on disk in prefix units); usage with prompt_cache_hit_tokens and prompt_cache_miss_tokens
// (docs/providers.md).
package deepseek
