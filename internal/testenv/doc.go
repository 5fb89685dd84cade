// Package testenv is what tests share about the machine they run on: whether this is a CI run, and what a test does
// when something it needs from outside the repository (a program on PATH, a kind of file the system cannot make) is
// absent. Outside CI such a test is skipped; in CI it fails, since a CI machine has to have what the tests need and
// a test that ran nothing must not pass. It also builds the in-memory projects tests read (Archive, With) and holds
// the valid project the loader's and the value check's tests each break in one place (Base).
package testenv
