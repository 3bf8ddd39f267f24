package frontend

import (
	"fmt"
	"io"
	"sync"
)

// ServeLog writes mm serve's log (its stderr), one whole line at a time:
// "mm serve: <line>". A line may carry a client's text (a context id, an
// error it caused): it is made visible, on one line. A nil writer drops
// the lines.
type ServeLog struct {
	mu sync.Mutex
	w  io.Writer
}

// NewServeLog is the log of w.
func NewServeLog(w io.Writer) *ServeLog { return &ServeLog{w: w} }

// Printf writes one line.
func (l *ServeLog) Printf(format string, args ...any) {
	if l.w == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	io.WriteString(l.w, "mm serve: "+VisibleLine(fmt.Sprintf(format, args...))+"\n")
}
