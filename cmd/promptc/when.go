package main

import "github.com/promptc/promptc/internal/enum"

// when is a mode that turns a feature of the output on or off: always, never, or (whenAuto, the zero value) as the
// output's destination suggests. The --color and --snippets flags hold one; it implements flag.Value and
// encoding.TextUnmarshaler (what cliflag.InvalidChoice knows a choice by), so that such a flag cannot hold anything
// else.
type when uint8

const (
	// whenAuto decides from where the output goes (a terminal, NO_COLOR): see On.
	whenAuto when = iota
	// whenAlways turns the feature on.
	whenAlways
	// whenNever turns it off.
	whenNever
)

var whens = enum.New[when]("When", "mode", "auto", "always", "never").MustBe()

// String is the mode as the flag takes it: auto, always or never.
func (w when) String() string { return whens.String(w) }

// Set parses s, which must be auto, always or never (exactly, in lower case). On error w is unchanged and the
// message reads after the flag's name: `must be auto, always or never, not "sometimes"`.
func (w *when) Set(s string) error { return whens.Set(w, s) }

// UnmarshalText is Set, for cliflag.InvalidChoice.
func (w *when) UnmarshalText(text []byte) error { return w.Set(string(text)) }

// On reports whether the feature is on: whenAlways and whenNever say so; whenAuto leaves it to auto, what the destination
// suggests (for colour, a terminal with NO_COLOR unset).
func (w when) On(auto bool) bool {
	switch w {
	case whenAlways:
		return true
	case whenNever:
		return false
	}
	return auto
}
