package blocks

import "sort"

// Suggest returns the candidate closest to name within an edit distance of 2, or "" when none is that close. Ties go
// to the candidate that sorts first, so the suggestion does not depend on the order of candidates.
func Suggest(name string, candidates []string) string {
	best, bestDist := "", 3
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	for _, c := range sorted {
		if c == name {
			continue
		}
		if d := distance(name, c, bestDist); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// DidYouMean formats a suggestion as ` (did you mean "x"?)`, or "" when there is none.
func DidYouMean(name string, candidates []string) string {
	if s := Suggest(name, candidates); s != "" {
		return ` (did you mean "` + s + `"?)`
	}
	return ""
}

// distance is the Levenshtein distance between a and b in runes, or any value >= limit once it is known to be at
// least limit.
func distance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d >= limit || -d >= limit {
		return limit
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin >= limit {
			return limit
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
