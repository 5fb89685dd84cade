package blocks

import "github.com/promptc/promptc/internal/suggest"

// Suggester finds, among a fixed set of names, the one closest to a misspelt name (internal/suggest).
type Suggester = suggest.Suggester

// NewSuggester returns a suggester for names.
func NewSuggester(names []string) *Suggester { return suggest.NewSuggester(names) }

// Suggest returns the candidate closest to name within an edit distance of 2, or "" when none is that close. Ties go
// to the candidate that sorts first. To look up many names among the same candidates, build a Suggester once.
func Suggest(name string, candidates []string) string { return suggest.Suggest(name, candidates) }

// DidYouMean formats a suggestion as ` (did you mean "x"?)`, or "" when there is none.
func DidYouMean(name string, candidates []string) string { return suggest.DidYouMean(name, candidates) }
