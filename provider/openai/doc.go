// Package openai is the wire format of OpenAI's Chat Completions API (and the Responses API's requests, read back), in the three directions of provider.Codec: the request body promptc
// project writes (Encode, from projection's provider-neutral Layout), the request body promptc miss reads back
// (Check, Decode) and the response whose usage promptc usage counts (Usage). Its shape: prompt_cache_key, prompt_cache_retention and, from GPT-5.6 on, prompt_cache_breakpoint markers; usage with cached tokens inside prompt_tokens
// (docs/providers.md).
package openai
