package tools

import (
	"strings"
	"testing"
)

func TestCappedBuffer(t *testing.T) {
	tests := []struct {
		name   string
		limit  int
		writes []string
		want   string
	}{
		{"empty", 10, nil, ""},
		{"under the cap", 10, []string{"abc", "de"}, "abcde"},
		{"at the cap", 10, []string{"0123456789"}, "0123456789"},
		{"one big write", 10, []string{"0123456789ABCDEF"},
			"01234\n[… 6 bytes cut …]\nBCDEF\n[output too long: 16 bytes, over the cap of 10; the 6 bytes in the middle were left out]"},
		{"many small writes", 10, strings.Split("0123456789ABCDEF", ""),
			"01234\n[… 6 bytes cut …]\nBCDEF\n[output too long: 16 bytes, over the cap of 10; the 6 bytes in the middle were left out]"},
		{"ring wraps", 4, []string{"ab", "cde", "fgh", "i"},
			"ab\n[… 5 bytes cut …]\nhi\n[output too long: 9 bytes, over the cap of 4; the 5 bytes in the middle were left out]"},
		{"invalid UTF-8 made valid", 10, []string{"a\xffb"}, "a\uFFFDb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newCappedBuffer(tt.limit)
			for _, w := range tt.writes {
				if n, err := b.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", w, n, err)
				}
			}
			if got := b.String(); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestCapOutput: a tool's text is capped as a command's output is, at
// outputCap bytes.
func TestCapOutput(t *testing.T) {
	half := strings.Repeat("a", outputCap/2)
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"at the cap", half + half, half + half},
		{"one byte over", half + "b" + half,
			half + "\n[… 1 bytes cut …]\n" + half + "\n[output too long: 30001 bytes, over the cap of 30000; the 1 bytes in the middle were left out]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CapOutput(tt.in); got != tt.want {
				t.Errorf("CapOutput: got %d bytes ending %q, want %d bytes ending %q",
					len(got), got[max(0, len(got)-120):], len(tt.want), tt.want[max(0, len(tt.want)-120):])
			}
		})
	}
}
