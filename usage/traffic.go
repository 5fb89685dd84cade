package usage

import (
	"fmt"
	"sort"
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
// their times (docs/usage.md#the-price-of-a-change), rounded to two decimals, sorted by task and model. A model is
// named as cat's row that prices it, as Report does (a dated id such as claude-sonnet-4-5-20250929 is its row's);
// buckets that name one row are one. A bucket with no task, or whose requests do not span a time (fewer than two
// distinct times), gives no rate: it is named in skipped.
func (t *Tally) Traffic(cat *projection.Catalog) (traffic []projection.Traffic, skipped []string) {
	type agg struct {
		n           int
		first, last time.Time
	}
	byKey := map[[2]string]*agg{}
	var keys [][2]string
	for _, k := range t.Buckets() {
		if k.Task == "" {
			continue
		}
		first, last, ok := t.Span(k)
		if !ok {
			skipped = append(skipped, fmt.Sprintf("task %s on %s %s: its requests give no time", k.Task, k.Provider, k.Model))
			continue
		}
		model := k.Model
		if r, ok := ratesFor(cat, k.Provider, k.Model); ok {
			model = r.Row.Name
		}
		key := [2]string{k.Task, model}
		a := byKey[key]
		if a == nil {
			a = &agg{first: first, last: last}
			byKey[key] = a
			keys = append(keys, key)
		}
		a.n += t.Counts(k).Requests
		if first.Before(a.first) {
			a.first = first
		}
		if last.After(a.last) {
			a.last = last
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] < keys[j][1]
	})
	for _, key := range keys {
		a := byKey[key]
		if !a.last.After(a.first) {
			skipped = append(skipped, fmt.Sprintf("task %s on %s: its requests give no time span", key[0], key[1]))
			continue
		}
		perDay := float64(a.n) * float64(24*time.Hour) / float64(a.last.Sub(a.first))
		traffic = append(traffic, projection.Traffic{Task: key[0], Model: key[1], RequestsPerDay: float64(int64(perDay*100+0.5)) / 100})
	}
	return traffic, skipped
}
