// Package golden reads, compares and atomically rewrites a project's golden tree: the artifacts promptc build
// writes, committed under golden/ so that every changed prompt byte shows up in review and in promptc check.
package golden
