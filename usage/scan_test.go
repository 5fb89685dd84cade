package usage

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// The fast scanner and encoding/json read every line of the test logs alike.
func TestScanAgreesWithDecoder(t *testing.T) {
	f, err := os.Open("testdata/providers.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	extra := []string{
		`{"request_id":"r\u00e9q","task":null,"turn":3,"response":{"id":"msg_1","type":"message","usage":{"input_tokens":5,"output_tokens":null,"cache_creation":null}}}`,
		`{"usage":{"prompt_tokens":10,"prompt_tokens_details":null},"choices":[{"message":{"content":"a \"quoted\" } brace"}}]}`,
		`{"error":{"type":"overloaded_error"},"usage":null}`,
	}
	n := 0
	check := func(data []byte) {
		n++
		var fast, slow line
		if err := parseFast(data, &fast); err != nil {
			t.Errorf("fast path refused %s: %v", data, err)
			return
		}
		if err := json.Unmarshal(data, &slow); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Errorf("%s:\nfast %+v\nslow %+v", data, fast, slow)
		}
	}
	for sc.Scan() {
		if len(sc.Bytes()) == 0 || json.Unmarshal(sc.Bytes(), new(line)) != nil {
			continue
		}
		// Bedrock's cacheDetails always take the full decoder.
		if line := sc.Bytes(); !bytes.Contains(line, []byte("cacheDetails")) {
			check(line)
		}
	}
	for _, e := range extra {
		check([]byte(e))
	}
	if n < 10 {
		t.Errorf("only %d lines compared", n)
	}
}
