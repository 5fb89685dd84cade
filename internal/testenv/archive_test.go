package testenv

import "testing"

func TestArchive(t *testing.T) {
	fsys := With("comment\n-- a.toml --\nx = 1\n-- b/c.toml --\ny\n\n", "-- a.toml --\nz\n-- d --\n")
	want := map[string]string{"a.toml": "z\n", "b/c.toml": "y\n\n", "d": ""}
	if len(fsys) != len(want) {
		t.Fatalf("files: %v", fsys)
	}
	for name, text := range want {
		if f := fsys[name]; f == nil || string(f.Data) != text {
			t.Errorf("%s = %v, want %q", name, f, text)
		}
	}
	// "-- x" without the closing dashes, or with no name, is text.
	if got := string(Archive("-- f --\n-- x\n-- --\n")["f"].Data); got != "-- x\n-- --\n" {
		t.Errorf("f = %q", got)
	}
}
