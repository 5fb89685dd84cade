package gc

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestCollectLate: collectLate turns collection off up to a soft limit of firstGCHeap, and the first collection
// switches to GOGC=lateGCPercent with no limit.
func TestCollectLate(t *testing.T) {
	percent := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	defer func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}()

	collectLate()
	if got := debug.SetMemoryLimit(-1); got != firstGCHeap { // a negative limit only reads it
		t.Fatalf("limit %d before the first collection, want %d", got, firstGCHeap)
	}
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("GOGC %d before the first collection, want off (-1)", got)
	}
	runtime.GC()
	deadline := time.Now().Add(5 * time.Second)
	for debug.SetMemoryLimit(-1) != math.MaxInt64 { // the cleanup runs on a goroutine of its own, soon after
		if time.Now().After(deadline) {
			t.Fatal("the first collection did not lift the limit")
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if got := debug.SetGCPercent(lateGCPercent); got != lateGCPercent {
		t.Errorf("GOGC %d after the first collection, want %d", got, lateGCPercent)
	}
}
