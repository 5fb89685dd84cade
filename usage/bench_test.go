package usage_test

import (
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/promptc/promptc/usage"
)

// lines generates n log lines on the fly, so that the benchmark holds no log either: Anthropic responses in
// wrappers, a tenth of them repeated.
type lines struct {
	n, i int
	buf  []byte
}

func (l *lines) Read(p []byte) (int, error) {
	for len(l.buf) < len(p) && l.i < l.n {
		id := l.i
		if l.i%10 == 9 {
			id = l.i - 1
		}
		l.buf = fmt.Appendf(l.buf, `{"request_id":"req_%09d","task":"chat","turn":%d,"time":"2026-12-01T10:00:00Z","response":{"id":"msg_%09d","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":"Done: the issue is closed and the comment posted."}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":%d,"cache_creation_input_tokens":120,"cache_read_input_tokens":4096,"cache_creation":{"ephemeral_5m_input_tokens":120,"ephemeral_1h_input_tokens":0},"output_tokens":85,"service_tier":"standard"}}}`+"\n",
			id, id%12+1, id, 20+id%7)
		l.i++
	}
	if len(l.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, l.buf)
	l.buf = l.buf[:copy(l.buf, l.buf[n:])]
	return n, nil
}

// BenchmarkRead reads 1,000,000 log lines (the target: 10 s) and reports the heap held afterwards.
func BenchmarkRead(b *testing.B) {
	const n = 1_000_000
	for b.Loop() {
		t := usage.NewTally()
		diags, err := t.Read(&lines{n: n}, "bench.jsonl")
		if err != nil || len(diags) > 0 {
			b.Fatal(err, diags)
		}
		if t.Lines != n || t.Duplicates != n/10 {
			b.Fatalf("lines %d duplicates %d", t.Lines, t.Duplicates)
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "MiB-heap")
		runtime.KeepAlive(t)
	}
}

// junk is 10 MB of lines that are not JSON, made on the fly: "junk line 1", "junk line 2", ...
type junk struct {
	left, i int
	buf     []byte
}

func (j *junk) Read(p []byte) (int, error) {
	for len(j.buf) < len(p) && j.left > 0 {
		line := fmt.Appendf(nil, "junk line %d\n", j.i)
		j.i++
		j.left -= len(line)
		j.buf = append(j.buf, line...)
	}
	if len(j.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, j.buf)
	j.buf = j.buf[:copy(j.buf, j.buf[n:])]
	return n, nil
}

// BenchmarkReadJunk reads 10 MB of junk lines (about 600,000 of them, each a diagnostic before they were capped:
// 830 MB of resident memory for the CLI) and reports the heap held afterwards, diagnostics included: it stays that of
// MaxDiagnostics of them.
func BenchmarkReadJunk(b *testing.B) {
	const size = 10 << 20
	for b.Loop() {
		t := usage.NewTally()
		diags, err := t.Read(&junk{left: size}, "junk.jsonl")
		if err != nil || t.Skipped < 500_000 {
			b.Fatal(err, t.Skipped)
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "MiB-heap")
		b.ReportMetric(float64(len(diags)), "diagnostics")
		runtime.KeepAlive(diags)
	}
}

// spanLines generates OTLP lines of 512 spans each (the SDK's default batch) on the fly, as the collector's file
// exporter writes them: model calls' spans with the GenAI conventions' attributes, a tenth of them repeated.
type spanLines struct {
	n, i int
	buf  []byte
}

func (l *spanLines) Read(p []byte) (int, error) {
	for len(l.buf) < len(p) && l.i < l.n {
		l.buf = append(l.buf, `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"tracker-platform"}}]},"scopeSpans":[{"scope":{"name":"tracker/genai"},"spans":[`...)
		for j := 0; j < 512 && l.i < l.n; j++ {
			id := l.i
			if l.i%10 == 9 {
				id = l.i - 1
			}
			if j > 0 {
				l.buf = append(l.buf, ',')
			}
			l.buf = fmt.Appendf(l.buf, `{"traceId":"W47/95gDgQPSabYzgT/GDA==","spanId":"obLD1OX2AAE=","parentSpanId":"5Fe1ouTYa9E=","flags":256,"name":"chat claude-sonnet-4-5","kind":"SPAN_KIND_CLIENT","startTimeUnixNano":"%d","endTimeUnixNano":"%d","attributes":[`+
				`{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},{"key":"gen_ai.provider.name","value":{"stringValue":"anthropic"}},{"key":"gen_ai.request.model","value":{"stringValue":"claude-sonnet-4-5"}},`+
				`{"key":"gen_ai.response.model","value":{"stringValue":"claude-sonnet-4-5-20250929"}},{"key":"gen_ai.response.id","value":{"stringValue":"msg_%09d"}},`+
				`{"key":"gen_ai.usage.input_tokens","value":{"intValue":"%d"}},{"key":"gen_ai.usage.cache_read.input_tokens","value":{"intValue":"4096"}},{"key":"gen_ai.usage.cache_creation.input_tokens","value":{"intValue":"120"}},`+
				`{"key":"gen_ai.usage.output_tokens","value":{"intValue":"85"}},{"key":"promptc.task","value":{"stringValue":"chat"}},{"key":"promptc.turn","value":{"intValue":"%d"}}],"status":{}}`,
				1796119200000000000+int64(id)*1e9, 1796119201000000000+int64(id)*1e9, id, 4236+id%7, id%12+1)
			l.i++
		}
		l.buf = append(l.buf, "]}]}]}\n"...)
	}
	if len(l.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, l.buf)
	l.buf = l.buf[:copy(l.buf, l.buf[n:])]
	return n, nil
}

// BenchmarkReadSpans reads 1,000,000 spans of model calls in OTLP lines (the target, as for response lines: 10 s)
// and reports the heap held afterwards.
func BenchmarkReadSpans(b *testing.B) {
	const n = 1_000_000
	for b.Loop() {
		t := usage.NewTally()
		diags, err := t.Read(&spanLines{n: n}, "traces.json")
		if err != nil || len(diags) > 0 {
			b.Fatal(err, diags)
		}
		if t.Spans != n || t.DuplicateSpans != n/10 {
			b.Fatalf("spans %d duplicates %d", t.Spans, t.DuplicateSpans)
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "MiB-heap")
		runtime.KeepAlive(t)
	}
}
