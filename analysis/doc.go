// Package analysis answers an editor's questions about a promptc project: a Snapshot of the project loaded from the
// files on disk overlaid by unsaved buffers, with its diagnostics and queries (definition, references, hover,
// completion, rename, document symbols, code actions) in terms of the loader's own ranges. Package lsp serves it.
package analysis
