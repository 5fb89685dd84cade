// Command gentable writes the vocabulary tables the tokens package embeds, from the vocabularies of
// github.com/tiktoken-go/tokenizer: go generate ./tokens (see table.go for the layout).
package main

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math/bits"
	"os"

	"github.com/tiktoken-go/tokenizer/codec"
)

func main() {
	for name, c := range map[string]*codec.Codec{"o200k_base": codec.NewO200kBase(), "cl100k_base": codec.NewCl100kBase()} {
		if err := os.WriteFile(name+".tbl", table(c), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

// table lays out every token of c, in id order, with an open-addressing hash index over them.
func table(c *codec.Codec) []byte {
	var toks []string
	var ids []uint32
	misses := 0
	for id := uint(0); misses < 1000; id++ {
		s, err := c.Decode([]uint{id})
		if err != nil {
			misses++
			continue
		}
		misses = 0
		toks = append(toks, s)
		ids = append(ids, uint32(id))
	}
	k := bits.Len(uint(len(toks))) + 1 // at most half the slots used
	slots := make([]uint32, 1<<k)
	for i, t := range toks {
		h := fnv.New32a()
		h.Write([]byte(t))
		for s := h.Sum32() & uint32(len(slots)-1); ; s = (s + 1) & uint32(len(slots)-1) {
			if slots[s] == 0 {
				slots[s] = uint32(i) + 1
				break
			}
		}
	}
	var out []byte
	u32 := func(v uint32) { out = binary.LittleEndian.AppendUint32(out, v) }
	u32(uint32(len(toks)))
	u32(uint32(k))
	off := 0
	for _, t := range toks {
		u32(uint32(off))
		off += len(t)
	}
	u32(uint32(off))
	for _, id := range ids {
		u32(id)
	}
	for _, s := range slots {
		u32(s)
	}
	for _, t := range toks {
		out = append(out, t...)
	}
	return out
}
