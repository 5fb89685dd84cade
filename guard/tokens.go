package guard

import "github.com/promptc/promptc/tokens"

// Deprecated: use tokens.O200k and tokens.Cl100k; these names stay until every caller has moved.
const (
	O200k  = "o200k_base"
	Cl100k = "cl100k_base"
)

// Counter is a tokens.Counter whose Encoding is the encoding's name.
//
// Deprecated: use tokens.Counter.
type Counter struct{ *tokens.Counter }

// NewCounter returns a counter for the encoding named encoding ("" means o200k_base).
//
// Deprecated: use tokens.ParseEncoding and tokens.New.
func NewCounter(encoding string) (*Counter, error) {
	e, err := tokens.ParseEncoding(encoding)
	if err != nil {
		return nil, err
	}
	return &Counter{tokens.New(e)}, nil
}

// Encoding returns the counter's encoding name.
//
// Deprecated: use tokens.Counter.Encoding.
func (c *Counter) Encoding() string { return c.Counter.Encoding().String() }
