// Package templates is promptc's body language: the text/template dialect with its functions, the static analysis
// of a body's parse tree, escaping of variable values by trust, and value limits.
package templates
