package source

import "testing"

// FuzzCursor: a Cursor gives every offset the position File.Pos gives it, when offsets come in increasing order
// (a decoder's walk) and when one goes back, in any text: multi-byte characters, lone continuation bytes, newlines.
func FuzzCursor(f *testing.F) {
	f.Add("00=[\xae,0", []byte{3, 4, 5, 6, 7})
	f.Add("a = \"é\"\nb = 🙂x\n", []byte{0, 5, 6, 7, 9, 13, 14, 2})
	f.Add("\xe2\x82x\xae\xae\xae\xae\nq", []byte{1, 2, 3, 5, 7, 8, 9})
	f.Fuzz(func(t *testing.T, text string, steps []byte) {
		file, again := NewFile("f", text), NewFile("f", text)
		c := NewCursor(file)
		for _, s := range steps {
			off := int(s)
			if got, want := c.Pos(off), again.Pos(off); got != want {
				t.Fatalf("%q: Cursor.Pos(%d) = %+v, File.Pos = %+v", text, off, got, want)
			}
		}
	})
}
