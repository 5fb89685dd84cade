package report

import (
	"slices"

	"github.com/promptc/promptc/internal/enum"
)

// Format is an output format of a report: the value of promptc's --format flag for diff, lint and stats. A report
// is written in the formats its Write function documents; FormatChoice limits a flag to those.
type Format uint8

const (
	// Text is the report for a terminal or a log.
	Text Format = iota
	// Markdown is the report as a pull-request comment (diff only).
	Markdown
	// JSON is the report as one JSON document, its fields documented in docs/guard.md, docs/lint.md and docs/stats.md.
	JSON
)

var formats = enum.New[Format]("Format", "format", "text", "markdown", "json").MustBe()

// AllFormats are the formats of a diff report (guard.Result), in the order promptc's usage lines list them.
var AllFormats = []Format{Text, Markdown, JSON}

// String is the format as the flag takes it: text, markdown or json.
func (f Format) String() string { return formats.String(f) }

// Set parses s: text, markdown or json (exactly, in lower case). On error f is unchanged and the message reads after
// the flag's name: `must be text, markdown or json, not "yaml"`.
func (f *Format) Set(s string) error { return formats.SetAmong(f, s, AllFormats) }

// UnmarshalText is Set, for configuration files.
func (f *Format) UnmarshalText(text []byte) error { return f.Set(string(text)) }

// MarshalText is String.
func (f Format) MarshalText() ([]byte, error) { return formats.Marshal(f) }

// FormatChoice is a --format flag: a Format limited to the formats one report is written in (lint and stats: text
// or json), so that the flag cannot hold one the report does not write. It implements flag.Value and
// encoding.TextUnmarshaler.
type FormatChoice struct {
	// Format is the format chosen; the first of the choices until Set is called.
	Format  Format
	choices []Format
}

// Formats returns a FormatChoice of choices (at least one; the first is the default).
func Formats(choices ...Format) *FormatChoice {
	return &FormatChoice{Format: choices[0], choices: slices.Clone(choices)}
}

// Choices are the formats c accepts, the default first.
func (c *FormatChoice) Choices() []Format { return slices.Clone(c.choices) }

// Names are the names of the formats c accepts, the default first: what a --format flag's usage lists.
func (c *FormatChoice) Names() []string {
	names := make([]string, len(c.choices))
	for i, f := range c.choices {
		names[i] = f.String()
	}
	return names
}

// String is the chosen format's name.
func (c *FormatChoice) String() string { return c.Format.String() }

// Set parses s as one of c's choices: `must be text or json, not "markdown"` otherwise, the format left as it was.
func (c *FormatChoice) Set(s string) error { return formats.SetAmong(&c.Format, s, c.choices) }

// UnmarshalText is Set.
func (c *FormatChoice) UnmarshalText(text []byte) error { return c.Set(string(text)) }
