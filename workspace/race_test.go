//go:build race

package workspace_test

func init() { raceEnabled = true }
