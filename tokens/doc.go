// Package tokens counts the tokens of a text with a provider's vocabulary (o200k_base, cl100k_base), as the
// reports of check, diff, lint, stats, project and simulate print them. The vocabularies are compiled into the
// binary; nothing is downloaded. The reports' counts are estimates: Counter.Count counts a text paragraph by paragraph.
// The turn budget counts exactly, line by line (Counter.CountLines), cutting only where the tokenizer does; see
// Counter for which to use.
package tokens
