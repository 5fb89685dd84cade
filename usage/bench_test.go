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
