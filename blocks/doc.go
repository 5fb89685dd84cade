// Package blocks is the source model of a promptc project: the manifest, blocks, constants, variables, targets and
// fixtures, loaded strictly from TOML, with every problem reported as a positioned Diagnostic.
package blocks
