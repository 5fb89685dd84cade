// Package importer turns existing markdown prompts (CLAUDE.md, AGENTS.md, a system prompt) into a promptc project
// whose runbooks reproduce them byte for byte, listing every normalisation where promptc's rules cannot.
package importer
