package acp

import (
	"bytes"
	"io"
	"sync"
)

// watchWriter is the connection's output. It runs a function once the
// response that creates a session has been written: a client may drop an
// update about a session whose id it has not yet read.
//
// The connection writes each message with one Write call, under its own
// lock; the function therefore runs in a goroutine of its own.
type watchWriter struct {
	w io.Writer

	mu    sync.Mutex
	after map[string]func() // by session id
}

// afterResponse runs f once a response carrying session id has been written.
func (ww *watchWriter) afterResponse(id string, f func()) {
	ww.mu.Lock()
	defer ww.mu.Unlock()
	if ww.after == nil {
		ww.after = map[string]func(){}
	}
	ww.after[id] = f
}

func (ww *watchWriter) Write(p []byte) (int, error) {
	n, err := ww.w.Write(p)
	ww.mu.Lock()
	defer ww.mu.Unlock()
	if len(ww.after) == 0 || !bytes.Contains(p, []byte(`"result":`)) {
		return n, err
	}
	for id, f := range ww.after {
		if bytes.Contains(p, []byte(`"sessionId":"`+id+`"`)) {
			delete(ww.after, id)
			if err == nil {
				go f()
			}
		}
	}
	return n, err
}
