// Package textcut cuts text to a bound without ever cutting a character in
// half: by characters, for what a model or a person reads, and by bytes,
// for what mm keeps of a stream it does not trust (a child's stderr).
package textcut

import (
	"sync"
	"unicode/utf8"
)

// Runes returns the first max characters of s and how many characters
// were left out (0 when s is short enough).
func Runes(s string, max int) (head string, cut int) {
	if utf8.RuneCountInString(s) <= max {
		return s, 0
	}
	n, i := 0, 0
	for i = range s {
		if n == max {
			break
		}
		n++
	}
	return s[:i], utf8.RuneCountInString(s[i:])
}

// Ellipsis is s cut to max characters, the last one "…" when something was
// cut.
func Ellipsis(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	head, _ := Runes(s, max-1)
	return head + "…"
}

// Bytes returns at most max bytes of b from its start, ending before a
// character cut in half (there, or by whoever kept b).
func Bytes(b []byte, max int) []byte {
	return trimPartial(b[:min(len(b), max)])
}

// trimPartial drops a character cut in half at the end of b.
func trimPartial(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				b = b[:i]
			}
			break
		}
	}
	return b
}

// Head keeps the first Max bytes written to it and drops the rest, so that
// a chatty writer (a child's stderr) can neither grow mm's memory nor block.
// It is safe for concurrent use.
type Head struct {
	mu  sync.Mutex
	buf []byte
	max int
}

// NewHead keeps max bytes.
func NewHead(max int) *Head { return &Head{max: max} }

// Write keeps what fits and reports all of p written.
func (h *Head) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if room := h.max - len(h.buf); room > 0 {
		h.buf = append(h.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// String is what was kept, never ending in half a character.
func (h *Head) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return string(trimPartial(h.buf))
}
