// Package dashscope is the wire format of Alibaba Cloud Model Studio's OpenAI-compatible Chat Completions API, in the three directions of provider.Codec: the request body promptc
// project writes (Encode, from projection's provider-neutral Layout), the request body promptc miss reads back
// (Check, Decode) and the response whose usage promptc usage counts (Usage). Its shape: cache_control markers that match whole messages, or one top-level cache_control (Qwen4); usage with cache_creation_input_tokens in prompt_tokens_details
// (docs/providers.md).
package dashscope
