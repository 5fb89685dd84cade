package usage

import (
	"hash/fnv"
	"strings"
	"testing"
)

// idHash must stay FNV-1a of its parts joined by NUL bytes, as it was when it hashed the joined string: a request id
// and a response id never hash alike because their prefixes differ.
func TestIDHashIsFNVOfJoinedParts(t *testing.T) {
	for _, parts := range [][]string{{"request", "req_1"}, {"response", "anthropic", "msg_01"}, {"request", ""}, {"", "", ""}} {
		h := fnv.New64a()
		h.Write([]byte(strings.Join(parts, "\x00")))
		if got, want := idHash(parts...), h.Sum64(); got != want {
			t.Errorf("idHash(%q) = %#x, want FNV-1a %#x", parts, got, want)
		}
	}
	if idHash("request", "ab") == idHash("request", "a", "b") {
		t.Error("the NUL between parts is not hashed")
	}
}
