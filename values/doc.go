// Package values checks and processes the values of a promptc project's variables, between the source model
// (package blocks, which declares the variables) and the templates that print them: the limits of a value
// (max_runes, item_max_runes, max_items, max_bytes, pin_first, omitted; docs/reference.md#varsname).
package values
