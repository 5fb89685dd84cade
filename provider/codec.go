package provider

import "encoding/json"

// Codec is one provider's wire format in its three directions: the request body promptc projects (Encode), the
// request body promptc miss reads (Check, Decode) and the response whose usage promptc usage counts (Usage). Each
// provider package (provider/anthropic, provider/openai, …) holds one; package provider/codecs lists them.
type Codec interface {
	// Provider is the provider the codec is for.
	Provider() Provider
	// Check says why doc, a decoded JSON object, is not a request body of the provider's API, or returns nil.
	Check(doc map[string]any) error
	// Decode reads a request body that Check accepts into b's parts, in cached order (b.Provider and b.Model are
	// set already).
	Decode(doc map[string]any, b *Body) error
	// Usage returns the token counts of a response of the provider's (one package codecs.DetectResponse tells
	// is the provider's).
	Usage(r Response) (Counts, error)

	// Blocky reports whether the provider's messages are lists of content blocks with the system apart
	// (Anthropic, Bedrock, Gemini), as opposed to chat messages.
	Blocky() bool
	// Tool is tool t's definition as the provider's canonical JSON.
	Tool(t ToolDef) json.RawMessage
	// Text is the bytes a block counts for where they are the provider's JSON: a tool use's block, a chat
	// message's content followed by its tool calls.
	Text(c Content) string
	// Encode writes l's request body and, for an explicit cache held apart (Gemini's cachedContents), the body
	// that creates it (else nil); both are encoded with CanonicalJSON.
	Encode(l *Layout) (body, cache any)
}
