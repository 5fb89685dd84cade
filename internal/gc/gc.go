// Package gc is the promptc command's garbage collection policy: for a command, none until the heap is large, then
// GOGC=400 (CollectLate); for the language server, the default pace under a soft limit (CollectSteady).
package gc

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
)

// CollectLate applies the policy below, unless GOGC or GOMEMLIMIT is set: they still win. With GOMEMLIMIT alone,
// only the GOGC part applies.
func CollectLate() {
	_, gogc := os.LookupEnv("GOGC")
	_, limit := os.LookupEnv("GOMEMLIMIT")
	switch {
	case !gogc && !limit:
		collectLate()
	case !gogc:
		debug.SetGCPercent(lateGCPercent)
	}
}

// A command runs for a fraction of a second, and what it allocates is mostly either short-lived or kept to the end
// (a build of 2,000 blocks allocates some 60 MB, 16 MB of it the artifacts): a collection costs more than the
// memory it frees. So none runs until the heap reaches firstGCHeap; from the first one on, the heap may grow to
// five times what is live (GOGC=400), so that a command holding more (lint of 10,000 blocks holds some 500 MB)
// does not collect over and over near that size, and the language server, which runs for hours, holds what it
// held before (five times its live heap) once it has grown past firstGCHeap.
const (
	firstGCHeap   = 128 << 20
	lateGCPercent = 400
)

// collectLate turns collection off up to a soft limit of firstGCHeap, and switches to GOGC=lateGCPercent, with no
// limit, once the first collection has run (it frees the sentinel, whose cleanup does the switch).
func collectLate() {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(firstGCHeap)
	sentinel := new([64]byte) // large enough for an allocation of its own, which the first collection frees
	runtime.AddCleanup(sentinel, func(struct{}) {
		debug.SetGCPercent(lateGCPercent)
		debug.SetMemoryLimit(math.MaxInt64)
	}, struct{}{})
}

// The language server runs for hours and holds the last snapshot while it builds the next, so a command's policy
// (CollectLate: no collection below 128 MiB, then five times the live heap) would let it grow to 2.4-2.7 GB on a
// fixture of a million records. It collects at the default pace instead, under a soft limit of serverMemoryLimit:
// 820 MB and 1.3 s a keystroke on that fixture (docs/editors.md, "Memory").
const serverMemoryLimit = 800 << 20

// CollectSteady applies the language server's policy in place of CollectLate's: GOGC=100 under a soft memory limit
// of 800 MB. GOGC and GOMEMLIMIT still win when set, each over its half.
func CollectSteady() {
	if _, ok := os.LookupEnv("GOGC"); !ok {
		debug.SetGCPercent(100)
	}
	if _, ok := os.LookupEnv("GOMEMLIMIT"); !ok {
		debug.SetMemoryLimit(serverMemoryLimit)
	}
}
