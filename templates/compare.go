package templates

import (
	"errors"
	"fmt"
	"reflect"
)

// text/template's comparisons, len and slice, over promptc's values (docs/values.md, "No function can undo
// escaping"): a value is the text it is before escaping, of whatever Go type holds it, so that eq (print .a .b) "x"
// compares two texts and len (join .l ",") counts bytes, where text/template's own builtins refuse a Mixed
// ("incompatible types for comparison: templates.Mixed and string", "len of type templates.Mixed"). Otherwise they
// do what text/template's builtins do, and their messages name values in the docs' words (describe).

// scalarKind is the class of a value that compares: text/template's basic kinds.
type scalarKind uint8

const (
	noScalar scalarKind = iota
	boolScalar
	intScalar
	uintScalar
	floatScalar
	textScalar
)

// scalar is a value that compares, as its class and the field of it that holds it.
type scalar struct {
	kind scalarKind
	b    bool
	i    int64
	u    uint64
	f    float64
	s    string
}

// scalarOf returns v as a scalar; kind is noScalar for a value that is not one (a list, a record, nothing). It takes
// the reflect.Value text/template holds, as its own builtins do, so that a comparison boxes nothing.
func scalarOf(v reflect.Value) scalar {
	if v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.String:
		return scalar{kind: textScalar, s: v.String()} // string, Untrusted, Background, Markdown, Fenced
	case reflect.Bool:
		return scalar{kind: boolScalar, b: v.Bool()}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return scalar{kind: intScalar, i: v.Int()}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return scalar{kind: uintScalar, u: v.Uint()}
	case reflect.Float32, reflect.Float64:
		return scalar{kind: floatScalar, f: v.Float()}
	case reflect.Struct:
		if s, _, ok := textOf(v.Interface()); ok {
			return scalar{kind: textScalar, s: s} // a Mixed
		}
	}
	return scalar{}
}

// valueOf is what v holds, for messages: nil for nothing.
func valueOf(v reflect.Value) any {
	if !v.IsValid() || !v.CanInterface() {
		return nil
	}
	return v.Interface()
}

// isNothing reports whether v holds nothing (nil).
func isNothing(v reflect.Value) bool {
	if v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	return !v.IsValid()
}

var errNoComparison = errors.New("missing argument for comparison")

// incomparable is the error of a comparison of a and b that cannot be made.
func incomparable(fn string, a, b reflect.Value) error {
	return fmt.Errorf("%s: incompatible types for comparison: %s and %s", fn, describe(valueOf(a)), describe(valueOf(b)))
}

// equalTo reports whether a == b as text/template's eq decides it: same class, same value; an int and a uint by
// value; nothing equals only nothing; anything else (a list, a record) cannot be compared.
func equalTo(fn string, a, b reflect.Value) (bool, error) {
	x, y := scalarOf(a), scalarOf(b)
	if x.kind == noScalar || y.kind == noScalar {
		switch {
		case isNothing(a) || isNothing(b):
			return isNothing(a) && isNothing(b), nil
		default:
			what := a
			if x.kind != noScalar {
				what = b
			}
			return false, fmt.Errorf("%s: cannot compare %s: compare its items or fields, or its len", fn, describe(valueOf(what)))
		}
	}
	if x.kind != y.kind {
		switch {
		case x.kind == intScalar && y.kind == uintScalar:
			return x.i >= 0 && uint64(x.i) == y.u, nil
		case x.kind == uintScalar && y.kind == intScalar:
			return y.i >= 0 && x.u == uint64(y.i), nil
		}
		return false, incomparable(fn, a, b)
	}
	switch x.kind {
	case boolScalar:
		return x.b == y.b, nil
	case intScalar:
		return x.i == y.i, nil
	case uintScalar:
		return x.u == y.u, nil
	case floatScalar:
		return x.f == y.f, nil
	}
	return x.s == y.s, nil
}

// eq is eq A B…: whether A equals any of the others.
func eq(a reflect.Value, others ...reflect.Value) (bool, error) {
	if len(others) == 0 {
		return false, fmt.Errorf("eq: %w", errNoComparison)
	}
	for _, b := range others {
		if ok, err := equalTo("eq", a, b); ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}

func ne(a, b reflect.Value) (bool, error) {
	ok, err := equalTo("ne", a, b)
	return !ok, err
}

// lessThan reports whether a < b as text/template's lt decides it: texts by their bytes, numbers by value, an int
// and a uint by value; bools and anything that is not a scalar do not order.
func lessThan(fn string, a, b reflect.Value) (bool, error) {
	x, y := scalarOf(a), scalarOf(b)
	for _, s := range []struct {
		v reflect.Value
		k scalarKind
	}{{a, x.kind}, {b, y.kind}} {
		if s.k == noScalar || s.k == boolScalar {
			return false, fmt.Errorf("%s: cannot order %s: only text, ints and numbers are ordered", fn, describe(valueOf(s.v)))
		}
	}
	if x.kind != y.kind {
		switch {
		case x.kind == intScalar && y.kind == uintScalar:
			return x.i < 0 || uint64(x.i) < y.u, nil
		case x.kind == uintScalar && y.kind == intScalar:
			return y.i >= 0 && x.u < uint64(y.i), nil
		}
		return false, incomparable(fn, a, b)
	}
	switch x.kind {
	case intScalar:
		return x.i < y.i, nil
	case uintScalar:
		return x.u < y.u, nil
	case floatScalar:
		return x.f < y.f, nil
	}
	return x.s < y.s, nil
}

func lt(a, b reflect.Value) (bool, error) { return lessThan("lt", a, b) }

func le(a, b reflect.Value) (bool, error) {
	if less, err := lessThan("le", a, b); less || err != nil {
		return less, err
	}
	return equalTo("le", a, b)
}

func gt(a, b reflect.Value) (bool, error) {
	if less, err := lessThan("gt", a, b); less || err != nil {
		return false, err
	}
	equal, err := equalTo("gt", a, b)
	return !equal, err
}

func ge(a, b reflect.Value) (bool, error) {
	less, err := lessThan("ge", a, b)
	return !less && err == nil, err
}

// length is len X: the bytes of a text before escaping, the items of a list or records, the fields of a record,
// the entries of a lookup table.
func length(v reflect.Value) (int, error) {
	if v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len(), nil
	case reflect.Struct:
		if s, _, ok := textOf(v.Interface()); ok {
			return len(s), nil // a Mixed
		}
	}
	return 0, fmt.Errorf("len takes text, a list, records or a record, not %s", describe(valueOf(v)))
}

// sliceOf is slice X I [J [K]]: X[I:J:K] of a text before escaping (the result keeps its trust), a list or records.
// As text/template's slice, a text takes at most two indexes.
func sliceOf(item any, indexes ...any) (any, error) {
	if len(indexes) > 3 {
		return nil, fmt.Errorf("slice: too many slice indexes: %d", len(indexes))
	}
	idx := make([]int, len(indexes))
	for i, x := range indexes {
		s := scalarOf(reflect.ValueOf(x))
		switch {
		case s.kind == intScalar && s.i >= 0 && s.i <= int64(MaxOutput):
			idx[i] = int(s.i)
		case s.kind == uintScalar && s.u <= uint64(MaxOutput):
			idx[i] = int(s.u)
		case s.kind == intScalar || s.kind == uintScalar:
			return nil, fmt.Errorf("slice: index out of range: %v", x)
		default:
			return nil, fmt.Errorf("slice: an index must be an int, not %s", describe(x))
		}
	}
	if raw, trust, ok := textOf(item); ok {
		if len(idx) == 3 {
			return nil, fmt.Errorf("slice: cannot 3-index slice text")
		}
		i, j, err := bounds(idx, len(raw), len(raw))
		if err != nil {
			return nil, err
		}
		return tagged(raw[i:j], trust), nil
	}
	// Bounded by the length, not the capacity as text/template's slice is: what lies past a prepared list's end are
	// items its limits dropped, which no body may see.
	switch l := item.(type) {
	case []string:
		i, j, k, err := bounds3(idx, len(l), len(l))
		if err != nil {
			return nil, err
		}
		return l[i:j:k], nil
	case []any:
		i, j, k, err := bounds3(idx, len(l), len(l))
		if err != nil {
			return nil, err
		}
		return l[i:j:k], nil
	case []map[string]any:
		i, j, k, err := bounds3(idx, len(l), len(l))
		if err != nil {
			return nil, err
		}
		// No records kept beyond the cut: first and last of an empty slice read the zero record there (withZero).
		return withZero(l[i:j:k], l), nil
	}
	return nil, fmt.Errorf("slice takes text, a list or records, not %s", describe(item))
}

// bounds returns the first two indexes of a slice of a value of length n and capacity c, defaulting to 0 and n.
func bounds(idx []int, n, c int) (int, int, error) {
	i, j := 0, n
	if len(idx) > 0 {
		i = idx[0]
	}
	if len(idx) > 1 {
		j = idx[1]
	}
	switch {
	case i > c:
		return 0, 0, fmt.Errorf("slice: index out of range: %d", i)
	case j > c:
		return 0, 0, fmt.Errorf("slice: index out of range: %d", j)
	case i > j:
		return 0, 0, fmt.Errorf("slice: invalid slice index: %d > %d", i, j)
	}
	return i, j, nil
}

// bounds3 is bounds with a third index, the capacity (j when not given).
func bounds3(idx []int, n, c int) (int, int, int, error) {
	i, j, err := bounds(idx[:min(len(idx), 2)], n, c)
	if err != nil {
		return 0, 0, 0, err
	}
	k := j // the slice holds nothing past its end
	if len(idx) == 3 {
		k = idx[2]
		if k > c {
			return 0, 0, 0, fmt.Errorf("slice: index out of range: %d", k)
		}
		if j > k {
			return 0, 0, 0, fmt.Errorf("slice: invalid slice index: %d > %d", j, k)
		}
	}
	return i, j, k, nil
}

// withCompare adds the functions of this file to a function map, by the names of the builtins they replace.
func withCompare(m map[string]any) map[string]any {
	m["eq"], m["ne"], m["lt"], m["le"], m["gt"], m["ge"] = eq, ne, lt, le, gt, ge
	m["len"], m["slice"] = length, sliceOf
	return m
}
