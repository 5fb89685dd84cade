// Package anthropic is the wire format of Anthropic's Messages API, in the three directions of provider.Codec: the request body promptc
// project writes (Encode, from projection's provider-neutral Layout), the request body promptc miss reads back
// (Check, Decode) and the response whose usage promptc usage counts (Usage). Its shape: the system as text blocks, cache_control markers on blocks and the last tool, or one top-level cache_control for automatic caching; usage with cache reads and writes beside input_tokens
// (docs/providers.md).
package anthropic
