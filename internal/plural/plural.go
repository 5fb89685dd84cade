// Package plural formats counts for messages and reports: promptc's one plural rule and its one number format, so
// that "1 byte" and "12,345 tokens" read the same in every command.
package plural

import "strconv"

// Noun picks the singular or plural form for n: one for 1, many otherwise.
func Noun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count formats n with its unit, singular for 1 and with thousands separators: "1 byte", "12,345 tokens", "0 files".
func Count(n int, unit string) string {
	return Thousands(n) + " " + Noun(n, unit, unit+"s")
}

// Thousands writes n with a comma between groups of three digits: 12,345.
func Thousands(n int) string {
	if n < 0 {
		return "-" + Thousands(-n)
	}
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
