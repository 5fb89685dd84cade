package templates

import (
	"fmt"
	"math"
	"slices"
)

// Integer arithmetic with sprig's names and argument order (docs/reference.md, "Arithmetic"): add, sub, mul, div,
// mod, max and min. They take ints only (an int variable or field, len's result, a literal, another function's
// int): a string of digits is text, not a number, and a float would round. add, mul, max and min take one or more
// arguments, as sprig's do, so that they chain in pipelines ({{.n | add 1}}); sub, div and mod take two, the
// piped value last (sub A B is A - B). A result that does not fit a 64-bit int, and a division by zero, are errors
// naming the block, never a wrapped number or a panic. An int has no trust: it prints as its digits, which can
// open no structure.

// arithFuncs are the functions of this file, added to FuncNames.
var arithFuncs = []string{"add", "sub", "mul", "div", "mod", "max", "min"}

func init() { FuncNames = append(FuncNames, arithFuncs...); slices.Sort(FuncNames) }

// withArith adds the functions of this file to a function map.
func withArith(m map[string]any) {
	m["add"] = add
	m["sub"] = sub
	m["mul"] = mul
	m["div"] = div
	m["mod"] = mod
	m["max"] = maxOf
	m["min"] = minOf
}

// intArg returns argument i (from 1) of fn as an int64, or an error naming fn, the argument and what it is.
func intArg(fn string, i int, v any) (int64, error) {
	if n, ok := asInt(v); ok {
		return n, nil
	}
	return 0, fmt.Errorf("%s takes ints, but argument %d is %s", fn, i, describe(v))
}

// intResult returns r as an int: a body's ints are Go ints, 64 bits wide on the platforms promptc is built for; on
// a 32-bit one, a result past its range is an error too.
func intResult(fn string, r int64) (int, error) {
	if r < math.MinInt || r > math.MaxInt {
		return 0, fmt.Errorf("%s: the result %d is out of the range of an int (%d to %d)", fn, r, math.MinInt, math.MaxInt)
	}
	return int(r), nil
}

func overflow(fn string, a, b int64, op string) error {
	return fmt.Errorf("%s: %d %s %d is out of the range of an int (%d to %d)", fn, a, op, b, int64(math.MinInt64), int64(math.MaxInt64))
}

// fold applies step to the arguments of a variadic call from left to right.
func fold(fn string, first any, rest []any, step func(acc, x int64) (int64, error)) (int, error) {
	acc, err := intArg(fn, 1, first)
	if err != nil {
		return 0, err
	}
	for i, v := range rest {
		x, err := intArg(fn, i+2, v)
		if err != nil {
			return 0, err
		}
		if acc, err = step(acc, x); err != nil {
			return 0, err
		}
	}
	return intResult(fn, acc)
}

// add is add A B...: the sum, left to right.
func add(first any, rest ...any) (int, error) {
	return fold("add", first, rest, func(a, b int64) (int64, error) {
		s := a + b
		if (b > 0 && s < a) || (b < 0 && s > a) {
			return 0, overflow("add", a, b, "+")
		}
		return s, nil
	})
}

// mul is mul A B...: the product, left to right.
func mul(first any, rest ...any) (int, error) {
	return fold("mul", first, rest, func(a, b int64) (int64, error) {
		if a == 0 || b == 0 {
			return 0, nil
		}
		p := a * b
		if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
			return 0, overflow("mul", a, b, "*")
		}
		return p, nil
	})
}

// maxOf and minOf are max A B... and min A B...: the largest or smallest argument.
func maxOf(first any, rest ...any) (int, error) {
	return fold("max", first, rest, func(a, b int64) (int64, error) { return max(a, b), nil })
}

func minOf(first any, rest ...any) (int, error) {
	return fold("min", first, rest, func(a, b int64) (int64, error) { return min(a, b), nil })
}

// two returns the two int arguments of sub, div or mod.
func two(fn string, av, bv any) (int64, int64, error) {
	a, err := intArg(fn, 1, av)
	if err != nil {
		return 0, 0, err
	}
	b, err := intArg(fn, 2, bv)
	if err != nil {
		return 0, 0, err
	}
	return a, b, nil
}

// sub is sub A B: A - B (sprig's order: {{.n | sub 10}} is 10 - n).
func sub(av, bv any) (int, error) {
	a, b, err := two("sub", av, bv)
	if err != nil {
		return 0, err
	}
	d := a - b
	if (b > 0 && d > a) || (b < 0 && d < a) {
		return 0, overflow("sub", a, b, "-")
	}
	return intResult("sub", d)
}

// div is div A B: A / B, truncated toward zero as Go divides.
func div(av, bv any) (int, error) {
	a, b, err := two("div", av, bv)
	if err != nil {
		return 0, err
	}
	switch {
	case b == 0:
		return 0, fmt.Errorf("div: division by zero (%d / 0)", a)
	case a == math.MinInt64 && b == -1:
		return 0, overflow("div", a, b, "/")
	}
	return intResult("div", a/b)
}

// mod is mod A B: the remainder of A / B, with the sign of A as Go's % gives it.
func mod(av, bv any) (int, error) {
	a, b, err := two("mod", av, bv)
	if err != nil {
		return 0, err
	}
	if b == 0 {
		return 0, fmt.Errorf("mod: division by zero (%d %% 0)", a)
	}
	if b == -1 {
		return 0, nil // math.MinInt64 % -1 is 0; saying so spares the reader the corner
	}
	return intResult("mod", a%b)
}
