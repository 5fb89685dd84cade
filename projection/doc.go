// Package projection turns a runbook, a history and a turn into the request body a provider's API takes, with the
// runbook split at its shared-prefix boundaries and cache breakpoints placed under each provider's rules (New),
// and replays fixtures' sessions against a simulated prompt cache that expires by lifetime (Simulate).
// projection places provider-neutral parts and cache markers; the provider packages (provider/anthropic, …) write
// them in each API's shape. The model table (package provider, models.toml, with a source page and a date for every
// row) says each model's rules and prices. docs/providers.md describes every provider, mode and lifetime. A program
// that starts from a project's directory opens it with the root package, promptc.Open, whose Task projects,
// simulates and replays through this package.
package projection
