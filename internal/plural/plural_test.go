package plural

import "testing"

func TestCount(t *testing.T) {
	tests := []struct {
		n    int
		unit string
		want string
	}{
		{0, "file", "0 files"},
		{1, "byte", "1 byte"},
		{2, "task", "2 tasks"},
		{999, "token", "999 tokens"},
		{1000, "token", "1,000 tokens"},
		{12345, "token", "12,345 tokens"},
		{1234567, "byte", "1,234,567 bytes"},
		{-1, "byte", "-1 bytes"},
		{-1234, "byte", "-1,234 bytes"},
	}
	for _, tt := range tests {
		if got := Count(tt.n, tt.unit); got != tt.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tt.n, tt.unit, got, tt.want)
		}
	}
}
