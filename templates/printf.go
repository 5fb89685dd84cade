package templates

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// fmtMaxWidth is the largest width or precision fmt honours; it prints %!(BADWIDTH) or %!(BADPREC) beyond.
const fmtMaxWidth = 1e6

// printfFloor estimates, without formatting anything, how many bytes fmt.Sprintf(format, args...) writes: the
// format's literal text, and for each verb the larger of its width and the length of a string argument (or the
// strings of a []string) plus its precision. It is a lower bound but for the precision, which a verb may not use
// in full: counting it keeps %.999999f from passing unseen. printf calls it to refuse an oversized result before
// fmt builds it.
func printfFloor(format string, args []any) int {
	n := 0
	arg := 0
	for i := 0; i < len(format); {
		j := strings.IndexByte(format[i:], '%')
		if j < 0 {
			n += len(format) - i
			break
		}
		n += j
		i += j + 1
		for i < len(format) && strings.IndexByte("+-# 0", format[i]) >= 0 {
			i++ // flags
		}
		i, arg = argIndex(format, i, arg)
		var width, prec int
		width, i, arg = widthOrPrec(format, i, args, arg)
		if i < len(format) && format[i] == '.' {
			i, arg = argIndex(format, i+1, arg)
			prec, i, arg = widthOrPrec(format, i, args, arg)
		}
		i, arg = argIndex(format, i, arg)
		if i >= len(format) {
			break // %!(NOVERB)
		}
		verb, size := utf8.DecodeRuneInString(format[i:])
		i += size
		if verb == '%' {
			n++
			continue
		}
		size = 0
		if arg < len(args) {
			size = stringsFloor(args[arg : arg+1])
			arg++
		}
		n += max(width, size) + prec
		if n > MaxOutput {
			return n
		}
	}
	return n
}

// argIndex reads an explicit argument index [k] at format[i:], as fmt does: it returns where the format goes on
// and the argument the next verb or star reads.
func argIndex(format string, i, arg int) (int, int) {
	if i >= len(format) || format[i] != '[' {
		return i, arg
	}
	j := strings.IndexByte(format[i:], ']')
	if j < 0 {
		return i + 1, arg // %!(BADINDEX)
	}
	if k, err := strconv.Atoi(format[i+1 : i+j]); err == nil && k >= 1 {
		arg = k - 1
	}
	return i + j + 1, arg
}

// widthOrPrec reads a width or precision at format[i:]: digits, or a star that takes an int argument. A value fmt
// refuses counts as 0.
func widthOrPrec(format string, i int, args []any, arg int) (int, int, int) {
	if i < len(format) && format[i] == '*' {
		v := 0
		if arg < len(args) {
			if k, ok := args[arg].(int); ok {
				v = k
			}
			arg++
		}
		if v < 0 {
			v = -v // a negative width is the '-' flag
		}
		if v > fmtMaxWidth || v < 0 {
			v = 0
		}
		return v, i + 1, arg
	}
	v := 0
	for i < len(format) && '0' <= format[i] && format[i] <= '9' {
		if v <= fmtMaxWidth {
			v = v*10 + int(format[i]-'0')
		}
		i++
	}
	if v > fmtMaxWidth {
		v = 0
	}
	return v, i, arg
}
