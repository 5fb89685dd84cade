// Package source holds what every stage of promptc says about a project's files: positions and ranges in a source
// file (Pos, Range, File), the diagnostic every stage reports (Diagnostic, Diagnostics) and the writer that shows it
// under its source line (SnippetWriter), in the shape of hcl's root package. It imports no other package of promptc
// but internal helpers.
//
// A diagnostic is text for a person (Summary, Detail, Suggestion, printed as path:line:col: summary) and, for a
// program that acts on it, an optional Extra payload: a typed value of the package that reported it, such as the
// lint package's fixes (lint.UseConst, lint.MoveEntry), which an editor's code actions read instead of the English.
// Extra is no part of the text, the order or the JSON of a diagnostic.
package source
