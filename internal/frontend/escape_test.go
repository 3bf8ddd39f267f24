package frontend

import "testing"

func TestEscapeLen(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"\x1b[0m rest", 4},
		{"\x1b[1;31mred", 7},
		{"\x1b[", 2},
		{"\x1b[12", 4},
		{"\x1b7 saved", 2},
		{"\x1b", 1},
	} {
		if got := EscapeLen(tc.s); got != tc.want {
			t.Errorf("EscapeLen(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}
