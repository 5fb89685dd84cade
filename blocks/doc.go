// Package blocks is the source model of a promptc project: the manifest, blocks, tools, constants, variables,
// targets, model rows and fixtures, loaded strictly from TOML, with every problem reported as a positioned Diagnostic.
package blocks
