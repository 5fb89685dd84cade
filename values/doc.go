// Package values checks and processes the values of a promptc project's variables, between the source model
// (package blocks, which declares the variables and reads the fixtures) and the templates that print them (package
// templates). It has two entry points.
//
// Load (and LoadCached) is how a front end loads a project: blocks.Load reads the fixtures and hands their values
// back as read, and Load checks each against its declaration, reports the values that do not fit at their key (or
// record, or field), resolves each fixture's session values with what it extends, and reports the required values
// missing (docs/values.md). promptc.Open and assemble.Load load through it, so no front end sees a fixture value
// nobody checked.
//
// Check takes a value as a fixture, a values file or a Go program gives it, type-checks it against its declaration
// once (Var.CheckShared), and walks it once through the steps before escaping (docs/reference.md#processing-order):
// CRLF→LF, trim, pattern, and the limits (LimitText, LimitList, max_items and max_bytes with pin_first for records,
// at every depth). templates.Prepare calls Check once per value and then only escapes what it kept by trust.
//
// The declarations stay in blocks (Var, Type, Trust and the other enums), and so, for now, does the type check
// itself (Var.Check and its records walk, the values files, value keys and the diagnostics limit): the values files
// are decoded with blocks' TOML scanner and index, which places each key, record and field. blocks does not check
// a value any more as it loads; moving the type check here is the next step (docs/layout_test.go keeps blocks from
// importing values).
package values
