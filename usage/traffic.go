package usage

import (
	"fmt"
	"time"

	"github.com/promptc/promptc/projection"
)

// Span returns the earliest and latest time the requests of bucket k give (their wrapper's time, a span's start),
// and whether at least one gives one.
func (t *Tally) Span(k Key) (first, last time.Time, ok bool) {
	b := t.buckets[k]
	if b == nil || b.first.IsZero() {
		return time.Time{}, time.Time{}, false
	}
	return b.first, b.last, true
}

// Traffic returns, per task and model the tally holds, its requests per day: the requests counted over the span of
// their times (docs/usage.md#the-price-of-a-change), rounded to two decimals, in bucket order. A bucket with no task,
// or whose requests do not span a time (fewer than two distinct times), gives no rate: it is named in skipped.
func (t *Tally) Traffic() (traffic []projection.Traffic, skipped []string) {
	for _, k := range t.Buckets() {
		if k.Task == "" {
			continue
		}
		first, last, ok := t.Span(k)
		if !ok || !last.After(first) {
			skipped = append(skipped, fmt.Sprintf("task %s on %s %s: its requests give no time span", k.Task, k.Provider, k.Model))
			continue
		}
		n := t.Counts(k).Requests
		perDay := float64(n) * float64(24*time.Hour) / float64(last.Sub(first))
		traffic = append(traffic, projection.Traffic{Task: k.Task, Model: k.Model, RequestsPerDay: float64(int64(perDay*100+0.5)) / 100})
	}
	return traffic, skipped
}
