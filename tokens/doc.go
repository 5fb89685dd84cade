// Package tokens counts the tokens of a text with a provider's vocabulary (o200k_base, cl100k_base), as the
// reports of check, diff, lint, stats, project and simulate print them. The vocabularies are compiled into the
// binary; nothing is downloaded. Counts are estimates: texts are counted paragraph by paragraph (see Counter).
package tokens
