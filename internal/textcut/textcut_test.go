package textcut

import (
	"fmt"
	"testing"
)

func TestRunes(t *testing.T) {
	tests := []struct {
		s    string
		max  int
		head string
		cut  int
	}{
		{"hello", 5, "hello", 0},
		{"hello", 3, "hel", 2},
		{"héllo", 2, "hé", 3},
		{"日本語", 1, "日", 2},
		{"", 0, "", 0},
		{"ab", 0, "", 2},
	}
	for _, tt := range tests {
		head, cut := Runes(tt.s, tt.max)
		if head != tt.head || cut != tt.cut {
			t.Errorf("Runes(%q, %d) = %q, %d; want %q, %d", tt.s, tt.max, head, cut, tt.head, tt.cut)
		}
	}
}

func TestEllipsis(t *testing.T) {
	for _, tt := range []struct{ s, want string }{
		{"short", "short"}, {"exactly5", "exac…"}, {"日本語です", "日本語です"}, {"日本語ですね", "日本語で…"},
	} {
		if got := Ellipsis(tt.s, 5); got != tt.want {
			t.Errorf("Ellipsis(%q, 5) = %q, want %q", tt.s, got, tt.want)
		}
	}
}

func TestBytes(t *testing.T) {
	for _, tt := range []struct {
		s    string
		max  int
		want string
	}{
		{"abc", 5, "abc"}, {"abc", 2, "ab"}, {"aé", 2, "a"}, {"aé", 3, "aé"}, {"a🤖", 4, "a"}, {"a🤖b", 5, "a🤖"},
	} {
		if got := string(Bytes([]byte(tt.s), tt.max)); got != tt.want {
			t.Errorf("Bytes(%q, %d) = %q, want %q", tt.s, tt.max, got, tt.want)
		}
	}
}

func TestHead(t *testing.T) {
	h := NewHead(4)
	for _, p := range []string{"a", "é", "🤖"} {
		if n, err := fmt.Fprint(h, p); n != len(p) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", p, n, err)
		}
	}
	if got := h.String(); got != "aé" {
		t.Errorf("kept %q, want %q (the cut emoji dropped)", got, "aé")
	}
	whole := NewHead(10)
	fmt.Fprint(whole, "a\xff")
	if got := whole.String(); got != "a\xff" {
		t.Errorf("an uncut head is kept as written: %q", got)
	}
}
