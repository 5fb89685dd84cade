// Package lsp is promptc's language server (LSP 3.17, JSON-RPC 2.0 over a byte stream such as stdio): it keeps the
// editor's open documents, loads the project holding each one with package analysis, and answers from its Snapshot.
package lsp
