package usage_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

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

// A platform that traces its model calls with OpenTelemetry names the task and turn on each call's span, where it
// renders the request: one line beside the GenAI conventions' attributes its instrumentation sets.
func Example_spanAttributes() {
	spans := tracetest.NewSpanRecorder()
	tracer := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans)).Tracer("platform")
	task, turn := "chat", 2

	_, span := tracer.Start(context.Background(), "chat claude-sonnet-4-5")
	span.SetAttributes(attribute.String(usage.TaskAttribute, task), attribute.Int(usage.TurnAttribute, turn))
	span.End()

	for _, kv := range spans.Ended()[0].Attributes() {
		fmt.Printf("%s = %s\n", kv.Key, kv.Value.Emit())
	}
	// Output:
	// promptc.task = chat
	// promptc.turn = 2
}

// The collector's file exporter writes each export request as one line of OTLP JSON; Read counts its model calls'
// spans beside any response bodies, and a span that is not a model call (an HTTP request here) is no request.
func ExampleTally_Read_spans() {
	traces := `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"platform"}}]},"scopeSpans":[{"scope":{"name":"genai"},"spans":[` +
		`{"traceId":"AAECAwQFBgcICQoLDA0ODw==","spanId":"AAECAwQFBgc=","name":"chat claude-sonnet-4-5","kind":"SPAN_KIND_CLIENT","startTimeUnixNano":"1796119200000000000","attributes":[` +
		`{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},{"key":"gen_ai.provider.name","value":{"stringValue":"anthropic"}},` +
		`{"key":"gen_ai.request.model","value":{"stringValue":"claude-sonnet-4-5"}},{"key":"gen_ai.response.id","value":{"stringValue":"msg_2"}},` +
		`{"key":"gen_ai.usage.input_tokens","value":{"intValue":"3230"}},{"key":"gen_ai.usage.cache_read.input_tokens","value":{"intValue":"3000"}},` +
		`{"key":"gen_ai.usage.cache_creation.input_tokens","value":{"intValue":"200"}},{"key":"gen_ai.usage.output_tokens","value":{"intValue":"60"}},` +
		`{"key":"promptc.task","value":{"stringValue":"chat"}},{"key":"promptc.turn","value":{"intValue":"2"}}]},` +
		`{"traceId":"AAECAwQFBgcICQoLDA0ODw==","spanId":"AQECAwQFBgc=","name":"GET /issues","attributes":[{"key":"http.request.method","value":{"stringValue":"GET"}}]}]}]}]}`
	t := usage.NewTally()
	diags, err := t.Read(strings.NewReader(traces), "traces.json")
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
	// | `anthropic` | `claude-sonnet-4-5` | `chat` | 1 | 3,230 | 3,000 | 200 | 60 | 92.9% | 0.18 |
	// | **total** |  |  | 1 | 3,230 | 3,000 | 200 | 60 | 92.9% | 0.18 |
	//
	// 1 request counted from 1 file (1 line, 2 spans); 1 span not a model call (no token counts, or an agent's).
}

// A log named "-" is read from standard input, here a reader, as promptc usage - reads it; a file that cannot be
// opened is the error.
func ExampleTally_ReadFile() {
	t := usage.NewTally()
	diags, err := t.ReadFile("-", "", strings.NewReader("{\"id\":\"msg_1\"}\n"))
	fmt.Print(diags, err, "\n")
	_, err = t.ReadFile("old.jsonl", "/nonexistent/old.jsonl", nil)
	fmt.Println(err)
	// Output:
	// -:1:1: no "usage" or "usageMetadata": not a response body of a known provider (a wrapper holds it under "response") <nil>
	// open /nonexistent/old.jsonl: no such file or directory
}
