package tokens

import "github.com/promptc/promptc/internal/enum"

// Encoding is a token vocabulary promptc counts with: a closed set, parsed once (ParseEncoding, UnmarshalText, or
// Set as a flag.Value) so that no other value can reach a Counter. The zero value is O200k, the default.
type Encoding uint8

const (
	// O200k is o200k_base, the vocabulary of OpenAI's GPT-4o and later models: the default.
	O200k Encoding = iota
	// Cl100k is cl100k_base, the vocabulary of GPT-4 and GPT-3.5.
	Cl100k
)

var encodings = enum.New[Encoding]("Encoding", "token encoding", "o200k_base", "cl100k_base").Quiet().Hint(": use o200k_base or cl100k_base")

// Encodings returns every encoding, the default first.
func Encodings() []Encoding { return []Encoding{O200k, Cl100k} }

// String returns the encoding's name, as tiktoken spells it: "o200k_base".
func (e Encoding) String() string { return encodings.String(e) }

// ParseEncoding returns the encoding named s; "" is O200k. Another name is an error that lists the names.
func ParseEncoding(s string) (Encoding, error) {
	if s == "" {
		return O200k, nil
	}
	return encodings.Parse(s)
}

// MarshalText returns the encoding's name.
func (e Encoding) MarshalText() ([]byte, error) { return encodings.Marshal(e) }

// UnmarshalText sets e to the encoding named by text, as ParseEncoding reads it.
func (e *Encoding) UnmarshalText(text []byte) error {
	v, err := ParseEncoding(string(text))
	if err != nil {
		return err
	}
	*e = v
	return nil
}

// Set sets e to the encoding named s (flag.Value), as ParseEncoding reads it.
func (e *Encoding) Set(s string) error { return e.UnmarshalText([]byte(s)) }
