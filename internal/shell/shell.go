// Package shell quotes words for a POSIX shell, for the commands promptc suggests running.
package shell

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Quote quotes s for a POSIX shell when it holds anything but plain path characters. A name holding a
// character that source.QuoteName would quote (a control or format character) is written as bash's $'…' with Go's
// escapes, which bash and zsh read back, so that the suggestion never carries the raw byte.
func Quote(s string) string {
	if strings.ContainsFunc(s, func(r rune) bool { return r == utf8.RuneError || !unicode.IsPrint(r) && r != ' ' }) {
		q := strconv.Quote(s)
		return "$'" + strings.ReplaceAll(q[1:len(q)-1], "'", `\'`) + "'"
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./+=:@,", r)) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}
