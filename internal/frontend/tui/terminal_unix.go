//go:build unix

package tui

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// The sequences that open and close the window: the alternate screen,
// autowrap off (a row never spills onto the next), bracketed paste (a
// pasted line break does not send the line), the cursor hidden while the
// first frame is drawn; and back.
const (
	enterScreen = "\x1b[?1049h\x1b[?7l\x1b[?2004h\x1b[?25l\x1b[H\x1b[2J"
	leaveScreen = "\x1b[0m\x1b[?2004l\x1b[?7h\x1b[?25h\x1b[?1049l"
)

// escapeWait is how long, in milliseconds, a read that ends with ESC waits
// for the rest of a key's sequence before the ESC counts as Escape.
const escapeWait = 25

// terminal is the person's terminal: raw mode and the alternate screen
// while the window runs, a reader of its keys, and its resize signal.
type terminal struct {
	in, out *os.File
	fd      int
	state   *term.State

	keys chan input
	// winch gets the resizes; stops the signals that end the window
	// (kill -INT, a hangup), as raw mode turns Ctrl-C into a key.
	winch, stops chan os.Signal
	// The reader stops when quit is closed and a byte written to wakeW
	// ends its wait; stopped is closed once it returned.
	quit         chan struct{}
	wakeR, wakeW *os.File
	stopped      chan struct{}
}

// openTerminal returns the terminal of in and out, or an error saying
// what to run instead when either is not one.
func openTerminal(in, out *os.File) (*terminal, error) {
	fd := int(in.Fd())
	if !term.IsTerminal(fd) || !term.IsTerminal(int(out.Fd())) {
		return nil, errors.New("stdin and stdout must be a terminal; use mm for the line mode or mm -p")
	}
	return &terminal{in: in, out: out, fd: fd}, nil
}

// enter puts the terminal in raw mode on the alternate screen. leave undoes
// it, also after enter failed half-way.
func (t *terminal) enter() error {
	st, err := term.MakeRaw(t.fd)
	if err != nil {
		return fmt.Errorf("put the terminal in raw mode: %w", err)
	}
	t.state = st
	if _, err := io.WriteString(t.out, enterScreen); err != nil {
		return fmt.Errorf("open the window: %w", err)
	}
	return nil
}

// leave restores the terminal as it was; it may be called more than once.
func (t *terminal) leave() {
	if t.state == nil {
		return
	}
	io.WriteString(t.out, leaveScreen)
	term.Restore(t.fd, t.state)
	t.state = nil
}

// size is the terminal's width and height, 80×24 when it cannot be read.
func (t *terminal) size() (int, int) {
	w, h, err := term.GetSize(int(t.out.Fd()))
	if err != nil || w <= 0 || h <= 0 {
		return 80, 24
	}
	return w, h
}

// start starts the key reader and listens for resizes.
func (t *terminal) start() error {
	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("start reading keys: %w", err)
	}
	t.wakeR, t.wakeW = r, w
	t.keys = make(chan input)
	t.quit = make(chan struct{})
	t.stopped = make(chan struct{})
	t.winch = make(chan os.Signal, 1)
	signal.Notify(t.winch, syscall.SIGWINCH)
	t.stops = make(chan os.Signal, 1)
	signal.Notify(t.stops, syscall.SIGINT, syscall.SIGHUP)
	go t.read(int(r.Fd()))
	return nil
}

// stop stops the reader and waits for it, and stops listening for
// signals.
func (t *terminal) stop() {
	if t.stopped == nil {
		return
	}
	signal.Stop(t.winch)
	signal.Stop(t.stops)
	close(t.quit)
	t.wakeW.Write([]byte{0})
	<-t.stopped
	t.wakeR.Close()
	t.wakeW.Close()
	t.stopped = nil
}

// read sends what the person types to t.keys until stop, or until the
// terminal cannot be read (then it sends the error).
func (t *terminal) read(wake int) {
	defer close(t.stopped)
	send := func(in input) bool {
		select {
		case t.keys <- in:
			return true
		case <-t.quit:
			return false
		}
	}
	buf := make([]byte, 4096)
	for {
		ready, stop, err := t.poll(wake, -1)
		switch {
		case stop:
			return
		case err != nil:
			send(input{err: err})
			return
		case !ready:
			continue
		}
		n, err := unix.Read(t.fd, buf)
		if errors.Is(err, unix.EINTR) || errors.Is(err, unix.EAGAIN) {
			continue
		}
		if n <= 0 {
			if err == nil {
				err = io.EOF
			}
			send(input{err: err})
			return
		}
		b := append([]byte(nil), buf[:n]...)
		if b[len(b)-1] == 0x1b {
			// ESC that may begin a sequence: take what follows at once.
			if ready, _, _ := t.poll(wake, escapeWait); ready {
				if m, err := unix.Read(t.fd, buf); err == nil && m > 0 {
					b = append(b, buf[:m]...)
				}
			}
		}
		if !send(input{b: b}) {
			return
		}
	}
}

// poll waits until the terminal has something to read (ready), the reader
// is told to stop (stop), or timeout milliseconds passed (-1: no limit).
func (t *terminal) poll(wake, timeout int) (ready, stop bool, err error) {
	fds := []unix.PollFd{
		{Fd: int32(t.fd), Events: unix.POLLIN},
		{Fd: int32(wake), Events: unix.POLLIN},
	}
	for {
		n, err := unix.Poll(fds, timeout)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return false, false, fmt.Errorf("read the terminal: %w", err)
		}
		if n == 0 {
			return false, false, nil
		}
		if fds[1].Revents != 0 {
			return false, true, nil
		}
		return fds[0].Revents != 0, false, nil
	}
}
