// Package values checks and processes the values of a promptc project's variables, between the source model
// (package blocks, which declares the variables) and the templates that print them (package templates). Check is
// its one entry point: it takes a value as a fixture, a values file or a Go program gives it, type-checks it against
// its declaration once (Var.CheckShared), and walks it once through the steps before escaping
// (docs/reference.md#processing-order): CRLF→LF, trim, pattern, and the limits (LimitText, LimitList, max_items and
// max_bytes with pin_first for records, at every depth). templates.Prepare calls Check once per value and then
// only escapes what it kept by trust.
//
// The declarations stay in blocks (Var, Type, Trust and the other enums), and so, for now, does the type check
// itself (Var.Check and its records walk, the values files, value keys and the diagnostics limit): blocks' loader
// checks every fixture value while it reads the fixture, resolves extends and the required variables from what that
// check refused, and reads decode = "json" texts with the same decoder as a JSON values file. Moving the type check
// here would make blocks import values, or Load return fixtures whose values nobody checked; it moves once fixture
// values are checked after loading (docs/layout_test.go keeps blocks from importing values).
package values
