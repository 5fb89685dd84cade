// Package blocks is the source model of a promptc project: the manifest, blocks, tools, constants, variables,
// targets, model rows and fixtures, loaded strictly from TOML, with every problem reported as a positioned
// source.Diagnostic (package source holds the positions, ranges and diagnostics that every stage shares). Values
// are declared here (Var, Type, Trust) and fixtures read with their values as written (Fixture.RawSession,
// RawTurns); package values, above blocks, type-checks them after loading (values.Load), reads values files, and
// processes a checked value up to its limits for the templates.
package blocks
