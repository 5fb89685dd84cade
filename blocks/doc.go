// Package blocks is the source model of a promptc project: the manifest, blocks, tools, constants, variables,
// targets, model rows and fixtures, loaded strictly from TOML, with every problem reported as a positioned
// source.Diagnostic (package source holds the positions, ranges and diagnostics that every stage shares). The type
// check of a value against its variable (Var.Check, values files) is here too, since the loader checks fixture
// values as it reads them; package values, above blocks, processes a checked value up to its limits for the
// templates.
package blocks
