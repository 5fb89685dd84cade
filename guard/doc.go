// Package guard is promptc's stability guard: it compares artifacts with golden files or another revision, attributes
// each change to a block and scope through the compiler's source map, prices it in cached tokens, lints prompts for
// instability, and writes reports as text, markdown or JSON.
package guard
