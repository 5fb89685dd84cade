// Package prefix measures how much of two texts is the same from the start: the question behind every cache the
// providers keep (docs/providers.md), asked by check, miss and stats.
package prefix

// Common is the length in bytes of the longest common prefix of a and b. It may end inside a multi-byte UTF-8
// sequence; a caller that reports a position in runes backs off to a rune boundary itself.
func Common(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	// Eight bytes at a time: the texts compared are large and mostly equal.
	for i+8 <= n && a[i:i+8] == b[i:i+8] {
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}
