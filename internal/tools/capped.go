package tools

import (
	"fmt"
	"strings"
)

// outputCap is how much of a command's or an MCP tool's output the model
// reads: the first and last halves are kept, the middle is left out.
const outputCap = 30000

// cappedBuffer is an io.Writer that keeps the first and the last bytes
// written to it and counts the rest, so that a command printing gigabytes
// costs no more memory than a short one.
type cappedBuffer struct {
	limit int    // bytes kept in all: half at the head, half at the tail
	head  []byte // the first limit/2 bytes
	tail  []byte // a ring of the last limit-limit/2 bytes
	next  int    // where the ring writes next, once it is full
	total int64  // bytes written in all
}

func newCappedBuffer(limit int) *cappedBuffer {
	return &cappedBuffer{limit: limit}
}

// CapOutput returns a tool's output text as the model reads it, capped as
// a command's is: past 30000 bytes, the middle is left out and a note says
// how much.
func CapOutput(s string) string {
	b := newCappedBuffer(outputCap)
	b.Write([]byte(s))
	return b.String()
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	n := len(p)
	b.total += int64(n)
	if room := b.limit/2 - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	size := b.limit - b.limit/2
	if len(p) >= size {
		// Only the end of p can survive.
		b.tail = append(b.tail[:0], p[len(p)-size:]...)
		b.next = 0
		return n, nil
	}
	for len(p) > 0 {
		if len(b.tail) < size {
			k := min(size-len(b.tail), len(p))
			b.tail = append(b.tail, p[:k]...)
			p = p[k:]
			continue
		}
		k := copy(b.tail[b.next:], p)
		b.next = (b.next + k) % size
		p = p[k:]
	}
	return n, nil
}

// String returns what was kept, as valid UTF-8; when something was left
// out, a line in the middle marks the gap and a closing note says how much
// was cut.
func (b *cappedBuffer) String() string {
	tail := make([]byte, 0, len(b.tail))
	tail = append(tail, b.tail[b.next:]...)
	tail = append(tail, b.tail[:b.next]...)
	kept := int64(len(b.head) + len(tail))
	if kept == b.total {
		return strings.ToValidUTF8(string(b.head)+string(tail), "\uFFFD")
	}
	cut := b.total - kept
	var s strings.Builder
	s.WriteString(strings.ToValidUTF8(string(b.head), "\uFFFD"))
	fmt.Fprintf(&s, "\n[… %d bytes cut …]\n", cut)
	s.WriteString(strings.ToValidUTF8(string(tail), "\uFFFD"))
	fmt.Fprintf(&s, "\n[output too long: %d bytes, over the cap of %d; the %d bytes in the middle were left out]",
		b.total, b.limit, cut)
	return s.String()
}
