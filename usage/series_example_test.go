package usage_test

import (
	"log"
	"os"
	"strings"
	"time"

	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/report"
	"github.com/promptc/promptc/usage"
)

// After a regression a team looks at the hit rate per hour, with the commit that invalidated the prefix marked in
// the hour it was made.
func ExampleTally_Series() {
	logs := `{"time":"2026-11-02T09:30:00Z","task":"chat","response":{"id":"msg_1","type":"message","model":"claude-sonnet-4-5","usage":{"input_tokens":10,"cache_read_input_tokens":990,"output_tokens":5}}}
{"time":"2026-11-02T10:15:00Z","task":"chat","response":{"id":"msg_2","type":"message","model":"claude-sonnet-4-5","usage":{"input_tokens":10,"cache_creation_input_tokens":990,"output_tokens":5}}}
`
	tally := usage.NewTally()
	if _, err := tally.Read(strings.NewReader(logs), "log.jsonl"); err != nil {
		log.Fatal(err)
	}
	cat, err := projection.NewCatalog(nil)
	if err != nil {
		log.Fatal(err)
	}
	s := tally.Series(usage.Hour, cat)
	s.Mark([]usage.Commit{{Commit: "0123456789abcdef", Time: time.Date(2026, 11, 2, 10, 5, 0, 0, time.UTC),
		Subject: "identity first", Tasks: []string{"chat"}, InvalidatedTokens: 990}})
	if err := s.Write(os.Stdout, report.Text); err != nil {
		log.Fatal(err)
	}
	// Output:
	//             hour (UTC)  requests  input  cache read  hit rate     cost
	//   2026-11-02T09:00:00Z         1  1,000         990     99.0%    109.0
	//   2026-11-02T10:00:00Z         1  1,000           0      0.0%  1,247.5
	//   commit 0123456789ab, commit time 2026-11-02T10:05:00Z: identity first (chat; 990 tokens of cached prefix invalidated)
	// cost in input-price units (an uncached input token costs 1)
}
