package line

import (
	"strings"
	"testing"
)

// TestWrapper: streamed text breaks into the terminal's rows at spaces,
// whatever the pieces it streams in; only a word wider than a row is cut,
// between grapheme clusters; escapes take no room.
func TestWrapper(t *testing.T) {
	tests := []struct {
		name   string
		width  int
		pieces []string
		want   string
	}{
		{"fits", 20, []string{"hello world"}, "hello world"},
		{"at a space, not in a word", 10, []string{"word1 word16 word2"}, "word1\nword16\nword2"},
		{"a word split across pieces", 10, []string{"word1 wo", "rd16 word2"}, "word1\nword16\nword2"},
		{"a word that ends the row exactly", 11, []string{"hello world again"}, "hello world\nagain"},
		{"the spaces at a break are dropped", 8, []string{"aaaa    bbbbbb"}, "aaaa\nbbbbbb"},
		{"a line end starts a row", 10, []string{"one\ntwo three four"}, "one\ntwo three\nfour"},
		{"spaces before a line end go", 10, []string{"one   \ntwo"}, "one\ntwo"},
		{"leading spaces are kept", 12, []string{"    code here"}, "    code\nhere"},
		{"a word wider than the row is cut", 4, []string{"abcdefghij"}, "abcd\nefgh\nij"},
		{"a long word after a short one", 4, []string{"a bcdefghij"}, "a\nbcde\nfghi\nj"},
		{"wide runes count two", 6, []string{"日本 語です 日"}, "日本\n語です\n日"},
		{"a combining mark stays with its letter", 5, []string{"cafe\u0301 ok"}, "cafe\u0301\nok"},
		{"a family counts as its parts", 7, []string{"ab 👨\u200d👩\u200d👧 c"}, "ab\n👨\u200d👩\u200d👧\nc"},
		{"a flag is not cut", 3, []string{"a 🇫🇷🇫🇷"}, "a\n🇫🇷\n🇫🇷"},
		{"a skin tone counts as its parts", 5, []string{"a 👍🏽"}, "a\n👍🏽"},
		{"escapes take no room", 10, []string{"\x1b[1mbold\x1b[0m words here"}, "\x1b[1mbold\x1b[0m words\nhere"},
		{"an escape split from its word", 9, []string{"one \x1b[3m", "twothree\x1b[0m x"}, "one\n\x1b[3mtwothree\x1b[0m\nx"},
		{"a tab goes to the next stop", 12, []string{"a\tbcd efgh"}, "a\tbcd\nefgh"},
		{"a cluster wider than the row goes alone", 1, []string{"日x"}, "日\nx"},
		{"no width: as written", 0, []string{"word1 wo", "rd16"}, "word1 word16"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &wrapper{width: func() int { return tt.width }}
			var got strings.Builder
			for _, p := range tt.pieces {
				got.WriteString(w.write(p))
			}
			got.WriteString(w.flush())
			if got.String() != tt.want {
				t.Errorf("pieces %q at %d columns\n got %q\nwant %q", tt.pieces, tt.width, got.String(), tt.want)
			}
		})
	}
}

// TestWrapperHoldsTheWord: a word shows once it ends; what is before it
// shows at once.
func TestWrapperHoldsTheWord(t *testing.T) {
	w := &wrapper{width: func() int { return 20 }}
	for _, step := range []struct{ piece, shown string }{
		{"hel", ""},
		{"lo wor", "hello"},
		{"ld\n", " world\n"},
	} {
		if got := w.write(step.piece); got != step.shown {
			t.Errorf("write(%q) = %q, want %q", step.piece, got, step.shown)
		}
	}
}

func TestCutWidth(t *testing.T) {
	tests := []struct {
		s    string
		w    int
		want string
	}{
		{"⠋ thinking… 0.5 s", 40, "⠋ thinking… 0.5 s"},
		{"⠋ running bash: echo a long line", 16, "⠋ running bash:…"},
		{"⠋ 日本語", 5, "⠋ 日…"},
		{"⠋ ab👍🏽cd", 7, "⠋ ab…"},
	}
	for _, tt := range tests {
		if got := cutWidth(tt.s, tt.w); got != tt.want {
			t.Errorf("cutWidth(%q, %d) = %q, want %q", tt.s, tt.w, got, tt.want)
		}
	}
}
