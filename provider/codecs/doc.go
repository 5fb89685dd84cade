// Package codecs lists the provider packages' codecs, one per provider.Provider (For), and tells a body's provider
// from its shape: a request's (Detect) for promptc miss, a response's (DetectResponse) for promptc usage. Adding a
// provider adds its Codec here (docs/providers.md, "Adding a provider").
package codecs
