// Package gemini is the wire format of the Google Gemini API, in the three directions of provider.Codec: the request body promptc
// project writes (Encode, from projection's provider-neutral Layout), the request body promptc miss reads back
// (Check, Decode) and the response whose usage promptc usage counts (Usage). Its shape: generateContent with systemInstruction and contents, and for explicit caching a cachedContents create body the request names; usage from usageMetadata
// (docs/providers.md).
package gemini
