// Package provider is promptc's one model of the provider APIs (docs/providers.md): the Provider enum and its list
// (Names, All; a flag.Value with did-you-mean), the model table (Model, Catalog, the cache modes and lifetimes,
// models.toml with a source page and a date for every row), and the provider-neutral parts the three directions
// share: a Layout of Units that projection places and a provider package encodes, a Body of Parts that a provider
// package decodes a request into for miss, and a Response's usage that it counts for usage.
//
// Each provider's wire format is a package of its own (provider/anthropic, provider/openai, provider/dashscope,
// provider/bedrock, provider/gemini, provider/deepseek), holding a Codec; provider/codecs lists them and tells a
// body's provider from its shape.
//
// Adding a provider: a constant and its name here (provider.go), its rows in models.toml, one new package with its
// Codec (Check, Decode, Usage, Blocky, Tool, Text, Encode), its line in provider/codecs, and a response fixture in
// provider/codecs' round-trip test, which then holds it to all three directions.
package provider
