// Package report is the closed set of output formats promptc's reports are written in (text, markdown, json), and
// the --format flag value that limits one report to the formats it writes.
package report
