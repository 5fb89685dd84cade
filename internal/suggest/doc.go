// Package suggest is promptc's did-you-mean: the one edit distance (Levenshtein, in runes) by which a misspelt
// name is matched to the closest of a set of known names. blocks re-exports it for its callers; package provider,
// which sits below blocks, calls it directly.
package suggest
