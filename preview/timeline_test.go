package preview

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/promptc/promptc/usage"
)

// TestTimeline: the series given in Options is what /api/timeline answers and what an exported page holds, its
// commits in their periods; without one the answer is null and the export has no timeline.
func TestTimeline(t *testing.T) {
	root := project(t)
	log := `{"time": "2026-03-01T10:00:00Z", "task": "issue", "response": {"id": "msg_1", "type": "message", "model": "claude-sonnet-4-5", "usage": {"input_tokens": 100, "cache_read_input_tokens": 300, "output_tokens": 5}}}
{"time": "2026-03-02T09:00:00Z", "task": "issue", "response": {"id": "msg_2", "type": "message", "model": "claude-sonnet-4-5", "usage": {"input_tokens": 400, "cache_read_input_tokens": 0, "output_tokens": 5}}}
`
	tally := usage.NewTally()
	if diags, err := tally.Read(strings.NewReader(log), "log.jsonl"); err != nil || len(diags) > 0 {
		t.Fatal(err, diags)
	}
	series := tally.Series(usage.Day, nil)
	series.Mark([]usage.Commit{{Commit: "0123456789abcdef", Time: time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC), Subject: "a global constant", Tasks: []string{"issue"}, InvalidatedTokens: 300}})
	srv, err := New(root, Options{Timeline: series})
	if err != nil {
		t.Fatal(err)
	}
	rec := get(t, srv, "GET", "/api/timeline", "127.0.0.1:7420")
	var got usage.Series
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, rec.Body)
	}
	if len(got.Periods) != 2 || got.Periods[0].Start != "2026-03-01T00:00:00Z" || got.Periods[0].HitRate != 0.75 || got.Periods[1].HitRate != 0 {
		t.Fatalf("periods %+v, want 2026-03-01 at 75%% and 2026-03-02 at 0%%", got.Periods)
	}
	if c := got.Periods[1].Commits; len(c) != 1 || c[0].Subject != "a global constant" || len(got.Periods[0].Commits) != 0 {
		t.Errorf("commits %+v / %+v, want the commit in the second day only", got.Periods[0].Commits, c)
	}
	d, err := srv.Page().pageData()
	if err != nil || d.Timeline != series {
		t.Errorf("the exported page's timeline is %v (%v), want the series", d.Timeline, err)
	}

	plain, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if body := strings.TrimSpace(get(t, plain, "GET", "/api/timeline", "127.0.0.1:7420").Body.String()); body != "null" {
		t.Errorf("/api/timeline without a series = %s, want null", body)
	}
}
