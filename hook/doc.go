// Package hook installs the git pre-commit hook that runs promptc check, so that a commit whose compiled prompts no
// longer match their golden files is stopped before it is made. It keeps a hook the repository already had.
package hook
