package gc

import (
	"math"
	"os"
	"runtime/debug"
	"testing"
)

// TestCollectSteady: the language server collects at the default pace under its soft limit (docs/editors.md,
// "Memory"), and GOGC or GOMEMLIMIT set in the environment win.
func TestCollectSteady(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	unset := func(name string) {
		t.Setenv(name, "") // restores the variable after the test
		os.Unsetenv(name)
	}
	tests := []struct {
		name                string
		gogc, limit         string
		wantGOGC, wantLimit int64
	}{
		{name: "neither set", wantGOGC: 100, wantLimit: serverMemoryLimit},
		{name: "GOGC set", gogc: "400", wantGOGC: 400, wantLimit: serverMemoryLimit},
		{name: "GOMEMLIMIT set", limit: "2GiB", wantGOGC: 100, wantLimit: 2 << 30},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// What the process was started with: the runtime reads GOGC and GOMEMLIMIT once, at start, so the test
			// sets their effect by hand and the variables for CollectSteady to see.
			debug.SetGCPercent(400)
			debug.SetMemoryLimit(math.MaxInt64)
			unset("GOGC")
			unset("GOMEMLIMIT")
			if tt.gogc != "" {
				t.Setenv("GOGC", tt.gogc)
			}
			if tt.limit != "" {
				t.Setenv("GOMEMLIMIT", tt.limit)
				debug.SetMemoryLimit(2 << 30)
			}
			if tt.gogc == "" && tt.limit != "" {
				debug.SetGCPercent(100)
			}
			CollectSteady()
			if got := debug.SetGCPercent(100); int64(got) != tt.wantGOGC {
				t.Errorf("GOGC = %d, want %d", got, tt.wantGOGC)
			}
			if got := debug.SetMemoryLimit(-1); got != tt.wantLimit {
				t.Errorf("memory limit = %d, want %d", got, tt.wantLimit)
			}
		})
	}
}
