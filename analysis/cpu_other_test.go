//go:build !unix

package analysis

import "time"

// cpuTime is not measured here: the metric reads 0.
func cpuTime() time.Duration { return 0 }
