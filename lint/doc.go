// Package lint runs promptc's stability lints over a built project (docs/lint.md): volatile text, scope inversions,
// repeated rules, unused names, invisible characters, short cache prefixes; the findings write themselves as text
// or JSON.
package lint
