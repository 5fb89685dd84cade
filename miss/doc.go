// Package miss tells whether one request reuses another's prompt cache: Parse reads a request body as sent to any
// supported provider (through the provider packages, provider/codecs), Compare finds the first byte where the
// second leaves the first's cached prefix and what that costs, and Attribute names the block, constant, template
// line or value of the project behind it (docs/usage.md).
package miss
