package blocks

import "github.com/promptc/promptc/internal/enum"

// When is a mode that turns a feature of the output on or off: always, never, or (Auto, the zero value) as the
// output's destination suggests. promptc's --color and --snippets flags hold one; it implements flag.Value and
// encoding.TextUnmarshaler so that such a flag cannot hold anything else.
type When uint8

const (
	// Auto decides from where the output goes (a terminal, NO_COLOR): see On.
	Auto When = iota
	// Always turns the feature on.
	Always
	// Never turns it off.
	Never
)

var whens = enum.New[When]("When", "mode", "auto", "always", "never").MustBe()

// String is the mode as the flag takes it: auto, always or never.
func (w When) String() string { return whens.String(w) }

// Set parses s, which must be auto, always or never (exactly, in lower case). On error w is unchanged and the
// message reads after the flag's name: `must be auto, always or never, not "sometimes"`.
func (w *When) Set(s string) error { return whens.Set(w, s) }

// UnmarshalText is Set, for configuration files.
func (w *When) UnmarshalText(text []byte) error { return w.Set(string(text)) }

// MarshalText is String.
func (w When) MarshalText() ([]byte, error) { return whens.Marshal(w) }

// On reports whether the feature is on: Always and Never say so; Auto leaves it to auto, what the destination
// suggests (for colour, a terminal with NO_COLOR unset).
func (w When) On(auto bool) bool {
	switch w {
	case Always:
		return true
	case Never:
		return false
	}
	return auto
}
