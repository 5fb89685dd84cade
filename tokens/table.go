package tokens

import _ "embed"

//go:generate go run ./internal/gentable

// The vocabularies, as tables generated from github.com/tiktoken-go/tokenizer's (internal/gentable): read in
// place from the binary, so that counting needs no map of 200,000 tokens built first (about 46 ms for o200k_base
// at every start of a process). Layout, little-endian uint32s: the number of tokens n and k; n+1 offsets of each
// token's bytes, in id order; the n ids; 2^k hash slots (FNV-1a of the bytes, linear probing), each a token's
// index plus one, or 0; then the tokens' bytes.
var (
	//go:embed o200k_base.tbl
	o200kTable string
	//go:embed cl100k_base.tbl
	cl100kTable string
)

// table is a vocabulary laid out as above.
type table struct {
	data         string
	n, mask      uint32
	offs, ids, h uint32 // where each section starts
	bytes        uint32
}

func newTable(data string) *table {
	t := &table{data: data}
	t.n = t.u32(0)
	k := t.u32(4)
	t.mask = 1<<k - 1
	t.offs = 8
	t.ids = t.offs + 4*(t.n+1)
	t.h = t.ids + 4*t.n
	t.bytes = t.h + 4*(t.mask+1)
	return t
}

func (t *table) u32(at uint32) uint32 {
	d := t.data[at : at+4]
	return uint32(d[0]) | uint32(d[1])<<8 | uint32(d[2])<<16 | uint32(d[3])<<24
}

// rank returns the rank (the id) of the token s, if s is one.
func (t *table) rank(s string) (uint32, bool) {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	for slot := h & t.mask; ; slot = (slot + 1) & t.mask {
		e := t.u32(t.h + 4*slot)
		if e == 0 {
			return 0, false
		}
		i := e - 1
		from, to := t.u32(t.offs+4*i), t.u32(t.offs+4*i+4)
		if int(to-from) == len(s) && t.data[t.bytes+from:t.bytes+to] == s {
			return t.u32(t.ids + 4*i), true
		}
	}
}
