// Package source holds what every stage of promptc says about a project's files: positions and ranges in a source
// file (Pos, Range, File), the diagnostic every stage reports (Diagnostic, Diagnostics) and the writer that shows it
// under its source line (SnippetWriter), in the shape of hcl's root package. It imports no other package of promptc.
package source
