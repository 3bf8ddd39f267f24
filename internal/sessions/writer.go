package sessions

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/mm-agent/mm/internal/llm"
)

// errBusy is a session file another process holds.
var errBusy = errors.New("in use by another mm")

// file is what a Writer writes to: an *os.File, or a failing one in tests.
type file interface {
	Write(p []byte) (int, error)
	Close() error
}

// Writer records a running session into its file; it is an
// orchestrator.Recorder. Its file is made while the session starts (in the
// background: making a file is the costliest part of saving, and mm -p
// must not wait for it) and written at the first message; a session that
// never reached one removes it at Close, leaving nothing.
//
// Each call writes its lines with one write(2), no fsync: a line reaches
// the kernel before the next model call, which survives mm being killed;
// only a crash of the machine can lose the last lines, and a torn last
// line is skipped when the file is read. An fsync per message would cost
// milliseconds on many disks, at every message.
//
// A write that fails (a full disk) keeps what it did not write and
// writes it before the lines of the next call, so that the file never
// has a gap: at worst its last line is torn until a later call finishes it.
type Writer struct {
	mu      sync.Mutex
	dir     string
	path    string
	header  Header
	f       file
	pending []byte
	closed  bool
	// create makes the file (createFile; a test's failing file).
	create func(path string) (file, error)
	// early brings the file made while the session starts; nil once
	// taken, and for a Writer going on with an existing file.
	early chan made
	// made says this Writer made its file, which it removes at Close when
	// nothing was recorded; recorded says something was; saved that the
	// file holds the session (Saved).
	made, recorded, saved bool
	// written runs once, after the first lines reached the file
	// (WhenWritten).
	written func()
	// turns counts the questions of the history as written, which the
	// next question's line is numbered after.
	turns int
	// models are the session's running model and the one its file says
	// last, noted on the next question when they differ.
	models models
	// failing says the last write failed: the caller was told (the
	// orchestrator warns once), so Close does not say it again.
	failing bool
}

// made is a file made in the background, or why it could not be.
type made struct {
	f   file
	err error
}

// Create starts recording a new session in dir, under a new id. h gives
// the session's folder, configuration and model; its ID, Version and
// Created are set here. Nothing is written before the first message.
func Create(dir string, h Header) (*Writer, error) {
	now := time.Now()
	h.Version = Version
	h.ID = newID(now)
	if h.Created.IsZero() {
		h.Created = now
	}
	w, err := newWriter(dir, h, createFile)
	if err != nil {
		return nil, err
	}
	w.early = make(chan made, 1)
	go func() {
		f, err := w.create(w.path)
		w.early <- made{f, err}
	}()
	return w, nil
}

// newWriter is a Writer of a new session whose file create makes, at the
// first message.
func newWriter(dir string, h Header, create func(string) (file, error)) (*Writer, error) {
	w := &Writer{dir: dir, path: filepath.Join(dir, h.ID+".jsonl"), header: h, create: create, models: models{h.Model, h.Model}}
	var err error
	if w.pending, err = encodeHeader(nil, h); err != nil {
		return nil, fmt.Errorf("recording session %s: %w", h.ID, err)
	}
	return w, nil
}

// ID is the session's id.
func (w *Writer) ID() string { return w.header.ID }

// WhenWritten has fn run once, after the first lines of the session reach
// its file: a session nobody wrote to leaves no trace.
func (w *Writer) WhenWritten(fn func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.written = fn
}

// Saved says the session is in its file, where Open finds it: a
// session going on in its own file, or one whose lines reached it. A new
// session before its first message, or whose every write failed, is not.
func (w *Writer) Saved() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.saved
}

// Path is the session's file (which exists once something was written).
func (w *Writer) Path() string { return w.path }

// Header is the session's header line.
func (w *Writer) Header() Header { return w.header }

// Append records messages joining the end of the history.
func (w *Writer) Append(msgs ...llm.Message) error {
	return w.write(func(b []byte) ([]byte, error) { return encodeMessages(b, msgs, &w.turns, &w.models) })
}

// UsesModel says the model the next questions are asked of: the first of
// them notes it on its line when the file said another.
func (w *Writer) UsesModel(ref string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.models.running = ref
}

// Replace records that the history is now msgs (a compression, /clear).
func (w *Writer) Replace(msgs []llm.Message) error {
	return w.write(func(b []byte) ([]byte, error) { return encodeReplace(b, msgs, &w.turns) })
}

// AskedSession records the session id of the asked agent name.
func (w *Writer) AskedSession(name, id string) error {
	return w.write(func(b []byte) ([]byte, error) { return encodeAsked(b, name, id) })
}

// write adds the lines encode appends to what is pending, then writes all
// of it at once.
func (w *Writer) write(encode func([]byte) ([]byte, error)) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return fmt.Errorf("session %s: recorded after it was closed", w.header.ID)
	}
	n := len(w.pending)
	buf, err := encode(w.pending)
	if err != nil {
		w.pending = buf[:n]
		return fmt.Errorf("recording session %s: %w", w.header.ID, err)
	}
	w.pending = buf
	w.recorded = true
	err = w.flush()
	w.failing = err != nil
	w.saved = w.saved || err == nil
	if err == nil && w.written != nil {
		fn := w.written
		w.written = nil
		fn()
	}
	return err
}

// flush writes what is pending, making the file first if needed; what it
// could not write stays pending.
func (w *Writer) flush() error {
	if len(w.pending) == 0 {
		return nil
	}
	if w.f == nil {
		var f file
		var err error
		if w.early != nil {
			m := <-w.early
			w.early = nil
			f, err = m.f, m.err
		} else {
			f, err = w.create(w.path) // again, after a failure
		}
		if err != nil {
			return err
		}
		w.f, w.made = f, true
	}
	n, err := w.f.Write(w.pending)
	if n == len(w.pending) {
		w.pending = w.pending[:0]
	} else {
		w.pending = append(w.pending[:0], w.pending[n:]...)
	}
	return err
}

// Close writes what is still pending, once more, and closes the file,
// which lets another mm resume the session. It says what could not be
// saved, unless the last call already failed: that was said then, once.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	w.closed = true
	if w.early != nil {
		m := <-w.early
		w.early = nil
		if m.err == nil {
			w.f, w.made = m.f, true
		}
	}
	if !w.recorded {
		// Only the header (or a fork's copy) waits: no session without a
		// message. The file made for it is empty: remove it.
		if w.f == nil {
			return nil
		}
		err := w.f.Close()
		if w.made {
			err = errors.Join(err, os.Remove(w.path))
		}
		return err
	}
	told := w.failing
	if w.f == nil {
		err := w.flush()
		if w.f == nil {
			if told {
				return nil
			}
			return fmt.Errorf("session %s: not saved: %w", w.header.ID, err)
		}
	}
	err := errors.Join(w.flush(), w.f.Close())
	if len(w.pending) > 0 {
		if told {
			return nil
		}
		return fmt.Errorf("session %s: its last %d bytes could not be saved: %w", w.header.ID, len(w.pending), err)
	}
	return err
}

// createFile makes a new session file, private, and locks it.
func createFile(path string) (file, error) {
	if err := ensureDir(filepath.Dir(path)); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, fileMode)
	if err != nil {
		return nil, fmt.Errorf("making the session file: %w", err)
	}
	if err := lock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// openAppend opens an existing session file to go on with it, locked;
// errBusy when another mm holds it.
func openAppend(path string) (*os.File, string, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, "", fmt.Errorf("opening the session file: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, "", fmt.Errorf("opening the session file: %w", err)
	}
	notice, err := checkFile(path, fi)
	if err == nil {
		err = lock(f)
	}
	if err != nil {
		f.Close()
		return nil, "", err
	}
	return f, notice, nil
}
