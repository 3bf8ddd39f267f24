package wasm

import "github.com/mm-agent/mm/internal/hooks"

// stdoutBuffer collects a run's stdout up to limit bytes. The write that
// would pass the limit is refused and stops the run, so that a module
// writing without end costs neither memory nor time.
type stdoutBuffer struct {
	buf   []byte
	limit int
	over  bool
	stop  func()
}

func (w *stdoutBuffer) Write(p []byte) (int, error) {
	if w.over || len(w.buf)+len(p) > w.limit {
		if !w.over {
			w.over = true
			w.stop()
		}
		return 0, hooks.ErrStdoutTooLarge
	}
	w.buf = append(w.buf, p...)
	return len(p), nil
}

// stderrHead keeps the part of stderr a failure quotes and drops the rest.
type stderrHead struct {
	buf []byte
}

func (w *stderrHead) Write(p []byte) (int, error) {
	if room := stderrQuoted - len(w.buf); room > 0 {
		w.buf = append(w.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}
