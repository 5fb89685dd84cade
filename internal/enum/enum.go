// Package enum is promptc's one closed set of names: a small integer type whose every value has one spelling, parsed
// once at the edge (a manifest key, a flag, a JSON report read back) so that nothing downstream holds a value outside
// the set. A type declares its names once, as a Set, and its String, MarshalText, UnmarshalText and (for a flag) Set
// methods are one-line calls of the Set's; the error for a name outside the set is worded by the Set, the same for
// every type that shares its style.
package enum

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/promptc/promptc/internal/suggest"
)

// Set is the closed set of names of the integer type T: T(i) is spelt names[i]. A name "" marks a value that no text
// parses to (a zero value meaning "the default", or a reserved one).
type Set[T ~uint8] struct {
	typ, what string
	names     []string
	unnamed   string // how String and Marshal spell a value whose name is ""; "" for typ(i) and an error
	hint      string // appended to the unknown-name error
	quiet     bool   // no did-you-mean
	mustBe    bool   // the error reads `must be a, b or c, not "x"`
}

// New returns the set of names of T: names[i] spells T(i). typ is the Go type's name, as String writes a value
// outside the set ("Scope(7)"); what is the noun of the messages ("scope" in `unknown scope "x"`).
func New[T ~uint8](typ, what string, names ...string) *Set[T] {
	return &Set[T]{typ: typ, what: what, names: names}
}

// Default makes String and MarshalText spell a value whose name is "" as name (CacheMode's "default"); the name
// still parses to nothing. It returns s, for use in the declaration.
func (s *Set[T]) Default(name string) *Set[T] { s.unnamed = name; return s }

// Hint appends hint to the error for an unknown name (`: use text or native`). It returns s.
func (s *Set[T]) Hint(hint string) *Set[T] { s.hint = hint; return s }

// Quiet leaves the did-you-mean out of the error for an unknown name. It returns s.
func (s *Set[T]) Quiet() *Set[T] { s.quiet = true; return s }

// MustBe words the error for an unknown name as `must be a, b or c, not "x"`, the form a flag's message takes after
// the flag's name (`--color: must be auto, always or never, not "sometimes"`), without a did-you-mean. It returns s.
func (s *Set[T]) MustBe() *Set[T] { s.mustBe = true; return s }

// Names returns the names that parse, in the order of their values.
func (s *Set[T]) Names() []string {
	var out []string
	for _, n := range s.names {
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}

// Values returns the values that have a name that parses, in order.
func (s *Set[T]) Values() []T {
	var out []T
	for i, n := range s.names {
		if n != "" {
			out = append(out, T(i))
		}
	}
	return out
}

// name returns v's spelling, and whether it has one.
func (s *Set[T]) name(v T) (string, bool) {
	if int(v) >= len(s.names) {
		return "", false
	}
	if n := s.names[v]; n != "" {
		return n, true
	}
	return s.unnamed, s.unnamed != ""
}

// String returns v's name, or the type and number of a value outside the set: "Scope(7)".
func (s *Set[T]) String(v T) string {
	if n, ok := s.name(v); ok {
		return n
	}
	return s.typ + "(" + strconv.Itoa(int(v)) + ")"
}

// Marshal returns v's name, or an error for a value outside the set (MarshalText).
func (s *Set[T]) Marshal(v T) ([]byte, error) {
	if n, ok := s.name(v); ok {
		return []byte(n), nil
	}
	return nil, fmt.Errorf("invalid %s %d", s.what, int(v))
}

// Lookup returns the value named name, and whether there is one.
func (s *Set[T]) Lookup(name string) (T, bool) {
	for i, n := range s.names {
		if n != "" && n == name {
			return T(i), true
		}
	}
	return 0, false
}

// Parse returns the value named name, or the set's error naming what it is not.
func (s *Set[T]) Parse(name string) (T, error) { return s.ParseAmong(name, nil) }

// ParseAmong is Parse limited to among (all the set when nil): a flag that takes some of a type's values. The error
// lists only those.
func (s *Set[T]) ParseAmong(name string, among []T) (T, error) {
	names := s.Names()
	if among != nil {
		names = names[:0:0]
		for _, v := range among {
			if n, ok := s.name(v); ok && s.names[v] != "" {
				names = append(names, n)
			}
		}
	}
	for _, n := range names {
		if n == name {
			v, _ := s.Lookup(n)
			return v, nil
		}
	}
	switch {
	case s.mustBe:
		return 0, fmt.Errorf("must be %s, not %q%s", OrList(names), name, s.hint)
	case s.quiet:
		return 0, fmt.Errorf("unknown %s %q%s", s.what, name, s.hint)
	}
	return 0, fmt.Errorf("unknown %s %q%s%s", s.what, name, suggest.DidYouMean(name, names), s.hint)
}

// Set parses name into *dst, which is left as it was on error (flag.Value's Set, UnmarshalText).
func (s *Set[T]) Set(dst *T, name string) error { return s.SetAmong(dst, name, nil) }

// SetAmong is Set limited to among, as ParseAmong.
func (s *Set[T]) SetAmong(dst *T, name string, among []T) error {
	v, err := s.ParseAmong(name, among)
	if err == nil {
		*dst = v
	}
	return err
}

// OrList joins names as a sentence offering a choice: "a", "a or b", "a, b or c".
func OrList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
