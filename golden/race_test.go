//go:build race

package golden

func init() { raceEnabled = true }
