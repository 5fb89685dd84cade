// Package suggest is promptc's did-you-mean: the one edit distance (Levenshtein, in runes) by which a misspelt
// name is matched to the closest of a set of known names. Every package that names a near miss calls it directly:
// Suggest and DidYouMean within an edit distance of 2, Nearest at any distance for a message that must point
// somewhere; ties go to the name that sorts first in both.
package suggest
