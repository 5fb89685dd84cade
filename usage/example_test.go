package usage_test

import (
	"log"
	"os"
	"strings"

	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/report"
	"github.com/promptc/promptc/usage"
)

// A platform logs each response it gets, with the task that sent it, and reads the logs back for a dashboard.
func ExampleTally_Read() {
	logs := `{"request_id":"r1","task":"chat","turn":1,"response":{"id":"msg_1","type":"message","model":"claude-sonnet-4-5","usage":{"input_tokens":20,"cache_creation_input_tokens":3000,"cache_read_input_tokens":0,"output_tokens":50}}}
{"request_id":"r2","task":"chat","turn":2,"response":{"id":"msg_2","type":"message","model":"claude-sonnet-4-5","usage":{"input_tokens":30,"cache_creation_input_tokens":200,"cache_read_input_tokens":3000,"output_tokens":60}}}
{"request_id":"r2","task":"chat","turn":2,"response":{"id":"msg_2","type":"message","model":"claude-sonnet-4-5","usage":{"input_tokens":30,"cache_creation_input_tokens":200,"cache_read_input_tokens":3000,"output_tokens":60}}}
`
	t := usage.NewTally()
	diags, err := t.Read(strings.NewReader(logs), "responses.jsonl")
	if err != nil || len(diags) > 0 {
		log.Fatal(err, diags)
	}
	cat, err := projection.NewCatalog(nil)
	if err != nil {
		log.Fatal(err)
	}
	if err := usage.NewReport(t, cat).Write(os.Stdout, report.Markdown); err != nil {
		log.Fatal(err)
	}
	// Output:
	// | provider | model | task | requests | input | cache read | cache write | output | hit rate | cost |
	// | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
	// | `anthropic` | `claude-sonnet-4-5` | `chat` | 2 | 6,250 | 3,000 | 3,200 | 110 | 48.0% | 0.70 |
	// | **total** |  |  | 2 | 6,250 | 3,000 | 3,200 | 110 | 48.0% | 0.70 |
	//
	// 2 requests counted from 1 file (3 lines); 1 line of a request already counted.
}
