package line

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// abortLine is the line that, read while a turn runs, cancels it.
const abortLine = "/abort"

// maxAhead bounds what is read ahead while a turn runs: a script piping a
// whole file of questions is not held in memory at once; an /abort past
// it is read when the lines before it are.
const maxAhead = 1 << 20

// turnInput is the line mode's stdin. Between turns it hands out what it
// read one line at a time, so that whoever reads through it (readline, a
// scanner) never holds lines ahead of it. While a turn runs, watch reads
// what comes, so that an /abort line cancels the turn at once; every other
// line is kept, in order, for the consent questions of the turn and the
// lines after it — what a script pipes in is read as before.
//
// Reading while a turn runs needs a stdin whose reads can be interrupted
// (a pipe or a terminal, through a read deadline): a regular file is read
// only between turns, where /abort finds no turn.
type turnInput struct {
	// ctx is the line mode's: its end interrupts reads (lineInput's read
	// deadline), which stop must not undo.
	ctx      context.Context
	src      io.Reader
	deadline interface{ SetReadDeadline(time.Time) error }

	mu      sync.Mutex
	pending []byte
	// checked is how much of pending was looked at for /abort lines.
	checked int
	err     error
	// asking, while a consent question waits for its answer on a terminal,
	// gets the first line typed after the question (typedAnswer); answer
	// holds what of it came so far, apart from pending, so that what was
	// typed before the question is not glued to it.
	asking chan string
	answer []byte
	// reading says watch is reading the source; stopping that its stop
	// was called, whose read deadline a wait for an escape sequence must
	// not undo.
	reading, stopping bool
}

func newTurnInput(ctx context.Context, src io.Reader) *turnInput {
	t := &turnInput{ctx: ctx, src: src}
	if d, ok := src.(interface{ SetReadDeadline(time.Time) error }); ok && d.SetReadDeadline(time.Time{}) == nil {
		t.deadline = d
	}
	return t
}

// Read hands out pending bytes up to the end of their first line (a
// newline, or a carriage return: Enter as the line editor reads it in raw
// mode), reading the source when nothing is pending. What follows stays
// here, where the watch of the next turn sees an /abort in it.
func (t *turnInput) Read(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.pending) == 0 {
		if t.err != nil {
			return 0, t.err
		}
		buf := make([]byte, max(len(p), 4096))
		t.mu.Unlock()
		n, err := t.src.Read(buf)
		t.mu.Lock()
		t.pending = append(t.pending, buf[:n]...)
		if len(t.pending) == 0 {
			return 0, err
		}
		t.err = err
	}
	end := len(t.pending)
	if i := lineEnd(t.pending); i >= 0 {
		end = i + 1
	}
	n := copy(p, t.pending[:end])
	t.pending = t.pending[n:]
	t.checked = max(0, t.checked-n)
	return n, nil
}

// watch reads the source until the returned stop is called, calling abort
// for each /abort line (which it takes out). It does nothing where the
// source's reads cannot be interrupted.
func (t *turnInput) watch(abort func()) (stop func()) {
	if t.deadline == nil {
		return func() {}
	}
	t.mu.Lock()
	t.scan(abort) // lines read before the turn began
	ended := t.err != nil || len(t.pending) >= maxAhead
	t.reading = !ended
	t.mu.Unlock()
	if ended {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			t.mu.Lock()
			t.reading = false
			t.endAsking()
			t.mu.Unlock()
		}()
		buf := make([]byte, 4096)
		for {
			n, err := t.src.Read(buf)
			data := buf[:n]
			if err == nil && !t.isAsking() {
				data, err = t.escapes(data, abort)
			}
			t.mu.Lock()
			if t.asking != nil {
				t.answer = append(t.answer, data...)
				t.takeAnswer(abort)
			} else {
				t.pending = append(t.pending, data...)
			}
			t.scan(abort)
			if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
				t.err = err // the end of input: read after what is pending
				t.endAsking()
			}
			full := len(t.pending) >= maxAhead
			t.mu.Unlock()
			if err != nil || full {
				return
			}
		}
	}()
	return func() {
		t.mu.Lock()
		t.stopping = true
		_ = t.deadline.SetReadDeadline(time.Now())
		t.mu.Unlock()
		<-done
		t.mu.Lock()
		t.stopping = false
		t.mu.Unlock()
		if t.ctx.Err() == nil {
			_ = t.deadline.SetReadDeadline(time.Time{})
		}
		if t.ctx.Err() != nil { // ended meanwhile: as lineInput does
			_ = t.deadline.SetReadDeadline(time.Now())
		}
	}
}

// isAsking says a consent question waits for its answer: its keys are
// the answer's.
func (t *turnInput) isAsking() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.asking != nil
}

// escapes takes the Escape keys out of data, keys typed while the turn
// runs, calling abort for them: Escape cancels the turn, as in the window.
// An ESC that ends data waits escapeWait for the bytes that would make it
// a key's sequence; the error is the source's, of that wait's read.
func (t *turnInput) escapes(data []byte, abort func()) ([]byte, error) {
	rest, found, held := escapeKeys(data)
	if found {
		abort()
	}
	if !held {
		return rest, nil
	}
	t.mu.Lock()
	if t.stopping {
		// The turn is over: the ESC is the next prompt's.
		t.mu.Unlock()
		return append(rest, 0x1b), nil
	}
	_ = t.deadline.SetReadDeadline(time.Now().Add(escapeWait))
	t.mu.Unlock()
	more := make([]byte, 64)
	n, err := t.src.Read(more)
	t.mu.Lock()
	stopping := t.stopping
	if !stopping {
		_ = t.deadline.SetReadDeadline(time.Time{})
	}
	t.mu.Unlock()
	switch {
	case n > 0:
		after, err2 := t.escapes(append([]byte{0x1b}, more[:n]...), abort)
		return append(rest, after...), errors.Join(err, err2)
	case errors.Is(err, os.ErrDeadlineExceeded) && !stopping:
		abort() // nothing followed: the Escape key
		return rest, nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		return append(rest, 0x1b), err
	}
	return append(rest, 0x1b), err
}

// scan takes the /abort lines out of what is pending and not yet looked
// at, calling abort for each; t.mu is held.
func (t *turnInput) scan(abort func()) {
	for {
		i := lineEnd(t.pending[t.checked:])
		if i < 0 {
			return
		}
		end := t.checked + i + 1
		if typedLine(t.pending[t.checked:end]) == abortLine {
			t.pending = append(t.pending[:t.checked], t.pending[end:]...)
			abort()
			continue
		}
		t.checked = end
	}
}

// lineEnd is the index of the first line end in b (a newline or a
// carriage return), or -1.
func lineEnd(b []byte) int {
	return bytes.IndexAny(b, "\r\n")
}

// typedLine is the line b, typed on a terminal whose keys were read as
// they came, as the line editor would make it: Backspace takes the rune
// before it out, Ctrl-U the whole line, a key's escape sequence (an arrow
// key's) nothing; spaces around it go.
func typedLine(b []byte) string {
	var line []rune
	for _, r := range string(withoutSequences(b)) {
		switch r {
		case 0x7f, '\b':
			if len(line) > 0 {
				line = line[:len(line)-1]
			}
		case 0x15:
			line = line[:0]
		default:
			line = append(line, r)
		}
	}
	return strings.TrimSpace(string(line))
}

// withoutSequences is b without the escape sequences of keys (ESC [ …
// final, ESC O x).
func withoutSequences(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != 0x1b || i+1 == len(b) {
			out = append(out, b[i])
			continue
		}
		switch b[i+1] {
		case 'O':
			i += 2
		case '[':
			i += 2
			for i < len(b) && b[i] >= 0x20 && b[i] <= 0x3f {
				i++
			}
		default:
			out = append(out, b[i])
		}
	}
	return out
}

// turnWatch is the watch of the running turn. A consent question reads
// its answer through it on a terminal (typedAnswer), else it pauses it and
// reads the answer itself.
type turnWatch struct {
	in *turnInput
	// tty is the terminal the line editor reads, quiet while a turn runs;
	// nil for a pipe or a file.
	tty *turnTerminal

	mu    sync.Mutex
	abort func()
	stop  func()
}

// start watches for /abort until end; abort cancels the turn.
func (w *turnWatch) start(abort func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.abort = abort
	w.tty.quiet()
	w.stop = w.in.watch(abort)
}

// end stops watching: the turn is over.
func (w *turnWatch) end() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stop != nil {
		w.stop()
	}
	w.tty.restore()
	w.abort, w.stop = nil, nil
}

// close gives the terminal its modes back for good: the line mode leaves,
// maybe while a turn still runs (a second Ctrl-C).
func (w *turnWatch) close() { w.tty.close() }

// pause stops reading for a consent question, which reads its answer
// itself; the returned function goes on watching.
func (w *turnWatch) pause() (resume func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stop == nil {
		return func() {}
	}
	w.stop()
	w.stop = nil
	w.tty.restore()
	return func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.abort != nil && w.stop == nil {
			w.tty.quiet()
			w.stop = w.in.watch(w.abort)
		}
	}
}
