package tui

import (
	"slices"
	"testing"

	"github.com/rivo/uniseg"
)

func TestStringWidth(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{
		{"", 0},
		{"hello", 5},
		{"é", 1},
		{"e\u0301", 1}, // e + combining acute
		{"🤖 ", 3},
		{"🪝", 2},
		{"🔧", 2},
		{"⛔", 2},
		{"⚙", 1},
		{"⚙\ufe0f", 2}, // the emoji variation selector: drawn as a picture
		{"👍🏽", 2},      // a skin-tone modifier joins its emoji
		{"👨\u200d👩\u200d👧\u200d👦", 2}, // a family: one ZWJ sequence
		{"🇫🇷", 2},            // a flag: two regional indicators
		{"e\u0301\u0302", 1}, // two combining marks
		{"👍🏽👨\u200d👩\u200d👧\u200d👦⚙\ufe0fe\u0301", 7}, // all together
		{"⚠ ✗ › … — · →", 13},
		{"日本語", 6},
		{"ｈｉ", 4},
		{"한국", 4},
		{"a\u200db", 2},
	}
	for _, tt := range tests {
		if got := stringWidth(tt.s); got != tt.want {
			t.Errorf("stringWidth(%q) = %d, want %d", tt.s, got, tt.want)
		}
	}
}

func TestWrap(t *testing.T) {
	tests := []struct {
		name  string
		s     string
		width int
		hang  string
		want  []string
	}{
		{"fits", "hello world", 11, "", []string{"hello world"}},
		{"empty", "", 10, "  ", []string{""}},
		{"at a space", "hello world", 8, "", []string{"hello", "world"}},
		{"space at the edge", "hello world", 5, "", []string{"hello", "world"}},
		{"hanging indent", "🤖 one two three four", 10, "   ", []string{"🤖 one two", "   three", "   four"}},
		{"long word cut", "abcdefghij", 4, "", []string{"abcd", "efgh", "ij"}},
		{"long word after a short one", "a bcdefghij", 4, "", []string{"a", "bcde", "fghi", "j"}},
		{"spaces at the break dropped", "aaa    bbb", 5, "", []string{"aaa", "bbb"}},
		{"leading spaces kept", "    code here", 9, "", []string{"    code", "here"}},
		{"wide runes do not split", "日本語です", 5, "", []string{"日本", "語で", "す"}},
		{"emoji at the edge", "ab🪝cd", 3, "", []string{"ab", "🪝c", "d"}},
		{"rune wider than the row", "🪝🪝", 1, "", []string{"🪝", "🪝"}},
		{"hang wider than the row is dropped", "abcdef", 3, "    ", []string{"abc", "def"}},
		{"combining mark stays with its letter", "cafe\u0301 ok", 4, "", []string{"cafe\u0301", "ok"}},
		{"a combining mark at the edge stays", "abce\u0301f", 4, "", []string{"abce\u0301", "f"}},
		{"a family is not split", "ab👨\u200d👩\u200d👧\u200d👦c", 3, "", []string{"ab", "👨\u200d👩\u200d👧\u200d👦c"}},
		{"a skin tone stays with its emoji", "a👍🏽👍🏽", 3, "", []string{"a👍🏽", "👍🏽"}},
		{"an emoji gear is two columns", "⚙\ufe0f⚙\ufe0f", 3, "", []string{"⚙\ufe0f", "⚙\ufe0f"}},
		{"a cluster wider than the row goes alone", "👍🏽x", 1, "", []string{"👍🏽", "x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := wrap(tt.s, tt.width, tt.hang)
			if !slices.Equal(got, tt.want) {
				t.Errorf("wrap(%q, %d, %q)\n got %q\nwant %q", tt.s, tt.width, tt.hang, got, tt.want)
			}
			for _, row := range got {
				if w := stringWidth(row); w > tt.width && uniseg.GraphemeClusterCount(row) > 1 {
					t.Errorf("row %q is %d columns wide, more than %d", row, w, tt.width)
				}
			}
		})
	}
}

func TestCutEllipsis(t *testing.T) {
	tests := []struct {
		s     string
		width int
		want  string
	}{
		{"mm v0.1.0 | config: agent.yaml", 40, "mm v0.1.0 | config: agent.yaml"},
		{"mm v0.1.0 | config: agent.yaml", 10, "mm v0.1.0…"},
		{"🤖🤖🤖", 4, "🤖…"},
		{"🤖🤖🤖", 3, "🤖…"},
		{"abc", 0, ""},
	}
	for _, tt := range tests {
		if got := cutEllipsis(tt.s, tt.width); got != tt.want {
			t.Errorf("cutEllipsis(%q, %d) = %q, want %q", tt.s, tt.width, got, tt.want)
		}
	}
}

func TestSanitize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain\ntext", "plain\ntext"},
		{"a\tb", "a    b"},
		{"line\r\n", "line\n"},
		{"\x1b[2Jgone", `\x1b[2Jgone`},
		{"bell\a", `bell\x07`},
		{"\xff", `\xff`},
		{"over\rwrite", `over\rwrite`},
	}
	for _, tt := range tests {
		if got := sanitize(tt.in); got != tt.want {
			t.Errorf("sanitize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestPin: after a cluster of several code points the cursor is put where
// the row counts for what follows, so that a terminal drawing the cluster
// wider or narrower loses no letter; a row without one is drawn as it is.
func TestPin(t *testing.T) {
	tests := []struct{ row, want string }{
		{"plain text", "plain text"},
		{"日本語 ok", "日本語 ok"},
		{"ab👍🏽cd", "ab👍🏽\x1b[5Gcd"},
		{"👨\u200d👩\u200d👧 x", "👨\u200d👩\u200d👧\x1b[3G x"},
		{"🇫🇷🇩🇪!", "🇫🇷\x1b[3G🇩🇪\x1b[5G!"},
		{"cafe\u0301 e\u0301\u0302", "cafe\u0301\x1b[5G e\u0301\u0302\x1b[7G"},
		{"⚙\ufe0f x", "⚙\ufe0f\x1b[3G x"},
		{"\x1b[2m   🤖\x1b[0m a👍🏽b", "\x1b[2m   🤖\x1b[0m a👍🏽\x1b[10Gb"},
	}
	for _, tt := range tests {
		if got := pin(tt.row); got != tt.want {
			t.Errorf("pin(%q)\n got %q\nwant %q", tt.row, got, tt.want)
		}
	}
}
