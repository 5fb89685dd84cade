// Package guard is promptc's stability guard: Check compares a program's artifacts with golden/, Diff with another
// git revision, Update accepts them; each change is attributed to a block and scope through the compiler's source
// map and priced in cached tokens, a check also fails on the error-level lints (package lint), and the results
// write themselves as text, markdown, JSON or GitHub Actions annotations.
package guard
