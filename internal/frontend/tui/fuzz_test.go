package tui

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// FuzzWrap checks that no wrapped row is wider than the window, but for a
// row holding one character wider than the row itself, and that wrapping
// loses no character but the spaces it breaks at.
func FuzzWrap(f *testing.F) {
	for _, s := range []string{
		"hello world", "日本語です", "👍🏽👨\u200d👩\u200d👧\u200d👦⚙\ufe0fe\u0301", "a \u0301b", "🇫🇷🇫🇷🇫🇷", "\x1b[2J\ttab",
		"    code here", "⸻ three-em", strings.Repeat("ab ", 40),
	} {
		f.Add(s, 5, "  ")
	}
	f.Fuzz(func(t *testing.T, s string, width int, hang string) {
		width = 1 + abs(width)%120
		line := strings.ReplaceAll(sanitize(s), "\n", " ")
		hang = strings.Repeat(" ", utf8.RuneCountInString(hang)%8)
		rows := wrap(line, width, hang)
		for i, row := range rows {
			body := row
			if i > 0 {
				body = strings.TrimPrefix(row, hang)
			}
			if w := stringWidth(row); w > width && uniseg.GraphemeClusterCount(body) > 1 {
				t.Fatalf("wrap(%q, %d, %q): row %d %q is %d columns wide", line, width, hang, i, row, w)
			}
		}
		joined := strings.ReplaceAll(strings.Join(rows, ""), " ", "")
		if want := strings.ReplaceAll(line, " ", ""); joined != want {
			t.Fatalf("wrap(%q, %d, %q) = %q: lost or added text", line, width, hang, rows)
		}
	})
}

// FuzzDecoder checks that the key decoder takes any bytes, in any two
// reads, without panicking, and hands over only valid characters.
func FuzzDecoder(f *testing.F) {
	for _, s := range []string{
		"hi\r", "\x1b[A\x1b[1;5C", "\x1b[200~a\r\nb\x1b[201~", "\xf0\x9f\xa4", "\x1bO", "\x1b[99x", "\xff\xfe\x80",
		"\x1b[" + strings.Repeat("9", 40) + "~",
	} {
		f.Add([]byte(s), 2)
	}
	f.Fuzz(func(t *testing.T, b []byte, split int) {
		split = abs(split) % (len(b) + 1)
		var d decoder
		keys := append(d.feed(b[:split]), d.feed(b[split:])...)
		for _, k := range keys {
			if k.kind == keyRune && (k.r == utf8.RuneError || !utf8.ValidRune(k.r) || k.r < 0x20) {
				t.Fatalf("decoder gave the character %q for %q", k.r, b)
			}
		}
	})
}

// FuzzEditor checks that editing keys on any line keep the cursor inside
// the text and the view inside the row.
func FuzzEditor(f *testing.F) {
	f.Add("cafe\u0301 👍🏽 ⚙\ufe0f", []byte{1, 2, 3, 4, 5, 6}, 8)
	kinds := []keyKind{keyLeft, keyRight, keyHome, keyEnd, keyBackspace, keyDelete, keyCtrlU, keyCtrlK, keyCtrlW, keyRune}
	f.Fuzz(func(t *testing.T, text string, presses []byte, width int) {
		width = 2 + abs(width)%100
		var e editor
		e.set(strings.ToValidUTF8(text, ""))
		for _, p := range presses {
			k := key{kind: kinds[int(p)%len(kinds)], r: '\u0301'}
			e.edit(k)
			if e.pos < 0 || e.pos > len(e.buf) {
				t.Fatalf("cursor at %d in a line of %d runes", e.pos, len(e.buf))
			}
			if got, col := e.view(width); stringWidth(got) > width || col > width-1 && uniseg.GraphemeClusterCount(string(e.buf)) > 1 {
				t.Fatalf("view(%d) = %q, %d: wider than the row", width, got, col)
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
