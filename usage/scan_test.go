package usage

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/promptc/promptc/internal/jsondup"
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

// FuzzScan: the scanner accepts no line that is not JSON, nor one that holds a key twice (as jsondup.Find reads the
// line, keys differing in case one where encoding/json reads them into one field), and where it reads a line it reads
// what encoding/json reads: a key spelled in another case goes to the decoder.
func FuzzScan(f *testing.F) {
	for _, s := range []string{
		`{"id":"a","type":"message","usage":{"input_tokens":5,"cache_read_input_tokens":3,"output_tokens":1}}`,
		`{"request_id":"r","response":{"usage":{"prompt_tokens":9,"prompt_tokens_details":{"cached_tokens":4}}},"x":[1,-2.5e3,true,false,null,{"a":"\u00e9\n"}]}`,
		`{"usageMetadata":{"promptTokenCount":3},"responseId":"g"}`,
		`{"a":01}`, `{"a":"\x"}`, `{"a":[1,]}`, `{"a":1} x`, `{"a":"` + "\x01" + `"}`,
		`{"usage":{"input_tokens":1},"Usage":{"input_tokens":2}}`, `{"usage":{"input_tokens":1,"input_tokens":2}}`,
		`{"x":{"a":1,"a":2},"usage":{"input_tokens":1}}`, `{"USAGE":{"input_tokens":1}}`, `{"usage":{"Input_Tokens":1}}`,
		`{"response":{"usage":{"input_tokens":1,"cache_creation":{"Ephemeral_1h_input_tokens":1}}}}`,
		"{\"\x93\":0,\"\x88\":0,\"usage\":{\"input_tokens\":1}}", "{\"responseId\":\"\xd9\",\"usage\":{\"input_tokens\":1}}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var fast line
		if parseFast(data, &fast) != nil {
			return
		}
		if !json.Valid(data) {
			t.Fatalf("the scanner accepted %q, which is not JSON", data)
		}
		if d := jsondup.Find(data, foldedKey); d != nil {
			t.Fatalf("the scanner accepted %q, which holds a key twice: %v", data, d)
		}
		var slow line
		if err := json.Unmarshal(data, &slow); err == nil && !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q:\nfast %+v\nslow %+v", data, fast, slow)
		}
	})
}
