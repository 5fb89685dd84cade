package miss

import (
	"errors"
	"fmt"
	"sync"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/internal/jsondup"
	"github.com/promptc/promptc/provider"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/tokens"
)

// Options configure Between.
type Options struct {
	// Provider names both bodies' API; "" tells each from its shape.
	Provider string
	// Catalog gives the cache rules (nil: the built-in model table).
	Catalog *provider.Catalog
	// Program is the project the bodies may come from, to name the source of the differing byte (nil: none).
	Program *assemble.Program
	// Counter counts tokens (nil: o200k_base).
	Counter *tokens.Counter
}

// BodyError is a body Between could not read: Side is "A" or "B". Line and Column (in runes, from 1) place the
// problem in the body when Err is a *JSONError; they are 0 otherwise (the whole body is not a request).
type BodyError struct {
	Side         string
	Err          error
	Line, Column int
}

func (e *BodyError) Error() string { return fmt.Sprintf("%s: %v", e.Side, e.Err) }
func (e *BodyError) Unwrap() error { return e.Err }

// In is e as promptc miss reports it for bodies read from the files a and b: placed in the file of its side, a
// source.Diagnostics of one diagnostic when Line says where (as every loader's problems), else an error that names
// the file ("b.json: …").
func (e *BodyError) In(a, b string) error {
	name := a
	if e.Side == "B" {
		name = b
	}
	if e.Line > 0 {
		at := source.Pos{Line: e.Line, Column: e.Column}
		return source.Diagnostics{{Summary: e.Err.Error(), Subject: &source.Range{Filename: name, Start: at, End: at}}}
	}
	return fmt.Errorf("%s: %w", source.QuoteName(name), e.Err)
}

// MaxBodyBytes is the size of the largest request body promptc miss reads: 64 MiB.
const MaxBodyBytes = 64 << 20

// CheckSize returns an error when body, read with a limit past MaxBodyBytes, is larger than MaxBodyBytes.
func CheckSize(body []byte) error {
	if len(body) > MaxBodyBytes {
		return fmt.Errorf("larger than %d MiB", MaxBodyBytes>>20)
	}
	return nil
}

// Between is promptc miss as one call: it reads bodies a and b (at once, on two processors), compares them under
// the rules of a's provider and model, and, given a program, names the source of the differing byte (nil when
// B extends A or no render of the project matches).
func Between(a, b []byte, opt Options) (*Result, *Source, error) {
	if opt.Counter == nil {
		opt.Counter = tokens.New(tokens.O200k)
	}
	opt.Counter.Preload()
	var bodies [2]*Body
	var errs [2]error
	var wg sync.WaitGroup
	for i, data := range [][]byte{a, b} {
		wg.Go(func() { bodies[i], errs[i] = Parse(data, opt.Provider) })
	}
	wg.Wait()
	for i, side := range []string{"A", "B"} {
		if errs[i] != nil {
			be := &BodyError{Side: side, Err: errs[i]}
			var je *JSONError
			if errors.As(errs[i], &je) {
				be.Line, be.Column = jsondup.Position([][]byte{a, b}[i], je.Offset)
			}
			return nil, nil, be
		}
	}
	r, err := Compare(bodies[0], bodies[1], RulesFor(opt.Catalog, bodies[0]), opt.Counter)
	if err != nil {
		return nil, nil, err
	}
	var src *Source
	if opt.Program != nil {
		src = Attribute(opt.Program, r)
	}
	return r, src, nil
}
