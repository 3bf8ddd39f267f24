package line

import (
	"io"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// turnTerminal is the line mode's terminal while a turn runs. What the
// person types then is read by turnInput, not by the line editor: the
// terminal's own echo would draw it into the spinner and the answer. So
// during a turn the terminal neither echoes nor collects lines (quiet):
// every key is read as it is typed and kept for the next prompt, whose
// editor replays it. A consent question turns echo and line editing back
// on for its one line of answer (answering). restore puts back the modes
// found when the turn began; close does so for good, so that a turn's
// goroutine still running when mm leaves cannot turn echo off again.
//
// The modes are set through the file's RawConn: its Fd would make it
// blocking, and turnInput's read deadlines stop working.
type turnTerminal struct {
	conn syscall.RawConn

	mu     sync.Mutex
	saved  *unix.Termios // the modes before the turn; nil between turns
	closed bool
}

// newTurnTerminal is the terminal r reads, or nil when r is not one.
func newTurnTerminal(r io.Reader) *turnTerminal {
	sc, ok := r.(syscall.Conn)
	if !ok {
		return nil
	}
	conn, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	t := &turnTerminal{conn: conn}
	if _, err := t.get(); err != nil {
		return nil
	}
	return t
}

func (t *turnTerminal) get() (*unix.Termios, error) {
	var tio *unix.Termios
	var ierr error
	if err := t.conn.Control(func(fd uintptr) { tio, ierr = unix.IoctlGetTermios(int(fd), unix.TCGETS) }); err != nil {
		return nil, err
	}
	return tio, ierr
}

func (t *turnTerminal) set(tio *unix.Termios) {
	_ = t.conn.Control(func(fd uintptr) { _ = unix.IoctlSetTermios(int(fd), unix.TCSETS, tio) })
}

// quiet starts or resumes the turn's mode: no echo, every key read at
// once (Ctrl-C still interrupts; Enter still reads as a newline).
func (t *turnTerminal) quiet() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	if t.saved == nil {
		tio, err := t.get()
		if err != nil {
			return
		}
		t.saved = tio
	}
	q := *t.saved
	q.Lflag &^= unix.ECHO | unix.ICANON | unix.IEXTEN
	q.Cc[unix.VMIN], q.Cc[unix.VTIME] = 1, 0
	t.set(&q)
}

// answering is the mode of a consent question's answer: the terminal
// echoes and edits one line; Ctrl-D does nothing (it would end the input).
func (t *turnTerminal) answering() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed || t.saved == nil {
		return
	}
	a := *t.saved
	a.Lflag |= unix.ECHO | unix.ICANON
	a.Cc[unix.VEOF] = 0 // _POSIX_VDISABLE
	t.set(&a)
}

// restore puts back the modes the turn found.
func (t *turnTerminal) restore() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.restoreLocked()
}

func (t *turnTerminal) restoreLocked() {
	if t.saved != nil {
		t.set(t.saved)
		t.saved = nil
	}
}

// close restores the modes and keeps them: the line mode is leaving.
func (t *turnTerminal) close() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.restoreLocked()
	t.closed = true
}
