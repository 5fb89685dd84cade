// Package bedrock is the wire format of AWS Bedrock's Converse API, in the three directions of provider.Codec: the request body promptc
// project writes (Encode, from projection's provider-neutral Layout), the request body promptc miss reads back
// (Check, Decode) and the response whose usage promptc usage counts (Usage). Its shape: cachePoint blocks after what they mark in system, messages and toolConfig.tools; the model in the URL, not the body; usage with cacheReadInputTokens and cacheWriteInputTokens beside inputTokens
// (docs/providers.md).
package bedrock
