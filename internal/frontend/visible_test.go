package frontend

import (
	"testing"
)

func TestVisible(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text\n\tindented", "plain text\n\tindented"},
		{"héllo 🤖 日本", "héllo 🤖 日本"},
		{"\x1b[2Kgone", `\x1b[2Kgone`},
		{"bell\a nul\x00 del\x7f", `bell\x07 nul\x00 del\x7f`},
		{"line\r\nnext", "line\nnext"},
		{"over\rwrite", `over\rwrite`},
		{"c1 \u009b31m", `c1 \u009b31m`},
		{"bidi \u202aa\u202eb\u2066c\u2069", `bidi \u202aa\u202eb\u2066c\u2069`},
		{"not utf-8 \xff\xfe", `not utf-8 \xff\xfe`},
		{"a real \uFFFD stays", "a real \uFFFD stays"},
		{"zero width \u200d joiner stays", "zero width \u200d joiner stays"},
	}
	for _, tt := range tests {
		if got := Visible(tt.in); got != tt.want {
			t.Errorf("Visible(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// VisibleLine keeps a name, a folder or an id on its own line: a line
// break and a tab are written out too.
func TestVisibleLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"fake 1.0", "fake 1.0"},
		{"\x1b]0;pwned\x07fake 1.0\n\x1b[1A\x1b[2K", `\x1b]0;pwned\x07fake 1.0\n\x1b[1A\x1b[2K`},
		{"a\tb", `a\tb`},
	}
	for _, tt := range tests {
		if got := VisibleLine(tt.in); got != tt.want {
			t.Errorf("VisibleLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
