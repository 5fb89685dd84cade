// Package values checks and processes the values of a promptc project's variables, between the source model
// (package blocks, which declares the variables and reads the fixtures) and the templates that print them (package
// templates).
//
// Load (and LoadCached) is how a front end loads a project: blocks.Load reads the fixtures and hands their values
// back as read, and Load checks each against its declaration, reports the values that do not fit at their key (or
// record, or field), resolves each fixture's session values with what it extends, and reports the required values
// missing (docs/values.md). promptc.Open and assemble.Load load through it, so no front end sees a fixture value
// nobody checked.
//
// The type check is here: TypeCheck, TypeCheckIn and TypeCheckAll convert a value as a fixture, a values file or a
// Go program gives it into its canonical form (records and keyed records at every depth, decode = "json" texts
// read with the same decoder as a JSON values file), or say in the words of its format why it does not fit. So are
// the values files: ReadFile decodes and checks one, placing every name, record and field (Ranges), and lists at
// most MaxDiagnostics problems; ParseFile decodes one without declarations.
//
// Check takes a value and walks it once through the steps before escaping (docs/reference.md#processing-order):
// the type check (TypeCheckShared), CRLF→LF, trim, pattern, and the limits (LimitText, LimitList, max_items and
// max_bytes with pin_first for records, at every depth). templates.Prepare calls Check once per value and then only
// escapes what it kept by trust.
//
// The declarations stay in blocks (Var, Type, Trust and the other enums), and so does what places a value in its
// source: a fixture's value keys (Table.ValueKeys) and the place of a part of a fixture's value
// (Fixture.PlaceValue), which the loader's TOML index knows, and a TOML values file's decoding with the place of
// each part (blocks.DecodeTOMLValues). blocks imports no part of values (docs/layout_test.go).
package values
