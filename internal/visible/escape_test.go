package visible

import (
	"testing"
	"unicode/utf8"
)

func TestEscape(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"a letter", "a", ""},
		{"a letter not ASCII", "é", ""},
		{"the replacement character itself", "\uFFFD", ""},
		{"newline", "\n", ""},
		{"tab", "\t", ""},
		{"carriage return", "\r", `\r`},
		{"escape", "\x1b[2K", `\x1b`},
		{"NUL", "\x00", `\x00`},
		{"DEL", "\x7f", `\x7f`},
		{"C1", "\u0085", `\u0085`},
		{"bidi override", "\u202e", `\u202e`},
		{"bidi isolate", "\u2066", `\u2066`},
		{"not UTF-8", "\xffabc", `\xff`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := utf8.DecodeRuneInString(tt.in)
			if got := Escape(r, tt.in); got != tt.want {
				t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
