package agentproc

import (
	"strings"
	"sync"
)

// stderrQuote is how much of a dead child's stderr an error quotes.
const stderrQuote = 300

// headBuffer keeps the first bytes written to it and drops the rest, so that
// a chatty child cannot grow the parent's memory.
type headBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (b *headBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.max - len(b.buf); room > 0 {
		b.buf = append(b.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// quote returns the kept bytes as one line, runs of white space (line
// breaks included) folded into one space. Invalid UTF-8, such as a rune the
// cut split, is dropped.
func (b *headBuffer) quote() string {
	b.mu.Lock()
	s := string(b.buf)
	b.mu.Unlock()
	return strings.Join(strings.Fields(strings.ToValidUTF8(s, "")), " ")
}
