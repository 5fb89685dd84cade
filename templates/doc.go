// Package templates is promptc's body language: the text/template dialect, its functions and execution budget, the
// static analysis of a body's parse tree, and Prepare, which escapes and neutralises every value by trust once
// values.Check has checked it and cut it to its limits.
package templates
