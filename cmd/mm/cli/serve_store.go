package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/mm-agent/mm/internal/frontend/a2a"
	"github.com/mm-agent/mm/internal/orchestrator"
	"github.com/mm-agent/mm/internal/sessions"
)

// servedFolder holds the sessions of mm serve's A2A contexts, inside the
// sessions folder: they were started by other programs, so mm sessions and
// mm --continue leave them out, as they do asked agents'.
const servedFolder = "served"

// contextsFile, in servedFolder, records which session file is each A2A
// context's: one line per change, the last one for a context winning, so
// that a context comes back to its history after mm serve restarts too.
const contextsFile = "contexts.jsonl"

// contextLine is one line of contextsFile.
type contextLine struct {
	Context string `json:"context"`
	Session string `json:"session"`
}

// serveStore saves one session per A2A context of mm serve. A context
// whose session was closed to make room for others, or that comes back
// after a restart, goes on with its saved history.
type serveStore struct {
	dir string
	// log gets the line of an index that could not be written.
	log io.Writer
	// torn says contextsFile ends in a line cut short: the next line
	// written starts on a line of its own.
	torn bool

	mu sync.Mutex
	// ids maps an A2A context id to its saved session's id.
	ids map[string]string
}

var _ a2a.Store = (*serveStore)(nil)

// servedStore is mm serve's store; nil when nothing is saved (--no-save,
// persist: false, no HOME). A nil *serveStore in the interface would not
// be nil, hence the interface type.
func servedStore(getenv func(string) string, save bool, log io.Writer) a2a.Store {
	dir := sessions.Dir(getenv)
	if dir == "" || !save {
		return nil
	}
	st := &serveStore{dir: filepath.Join(dir, servedFolder), log: log, ids: map[string]string{}}
	st.load()
	return st
}

// load reads contextsFile, if there is one. A line that is not one of its
// lines (a write cut short) is skipped: that context starts afresh. Lines
// have no length limit: a context id is the client's, and a line past a
// scanner's limit (64 KiB) ended the reading, so that every context
// recorded after it forgot its history.
func (st *serveStore) load() {
	b, err := os.ReadFile(filepath.Join(st.dir, contextsFile))
	if err != nil {
		return
	}
	st.torn = len(b) > 0 && b[len(b)-1] != '\n'
	for line := range bytes.Lines(b) {
		var l contextLine
		if json.Unmarshal(line, &l) == nil && l.Context != "" && l.Session != "" {
			st.ids[l.Context] = l.Session
		}
	}
}

// Open is a2a.Store's.
func (st *serveStore) Open(contextID string, o orchestrator.Options) (orchestrator.Recorder, *orchestrator.Resumed, func() error, error) {
	h := sessionHeader(o)
	st.mu.Lock()
	id, known := st.ids[contextID]
	st.mu.Unlock()
	if known {
		path := filepath.Join(st.dir, id+".jsonl")
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			saved, err := sessions.Read(path)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("read the saved session %s of A2A context %s: %w", id, contextID, err)
			}
			w, _, err := sessions.Resume(st.dir, saved, h)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("resume the saved session %s of A2A context %s: %w", id, contextID, err)
			}
			st.remember(contextID, w.ID())
			return w, &orchestrator.Resumed{History: saved.History, AskedSessions: saved.AskedSessions}, w.Close, nil
		}
		// Nothing was said in it, so nothing was saved: it starts afresh.
	}
	w, err := sessions.Create(st.dir, h)
	if err != nil {
		return nil, nil, nil, err
	}
	st.remember(contextID, w.ID())
	return w, nil, w.Close, nil
}

// remember records that contextID's session is id, in memory and in
// contextsFile; a line that cannot be written costs only the finding of
// the context after a restart, and is said.
func (st *serveStore) remember(contextID, id string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.ids[contextID] == id {
		return
	}
	st.ids[contextID] = id
	line, _ := json.Marshal(contextLine{Context: contextID, Session: id})
	if st.torn {
		line = append([]byte{'\n'}, line...)
	}
	path := filepath.Join(st.dir, contextsFile)
	// The session's own file may not be made yet: the folder is made here
	// too, private as the sessions folder is.
	err := os.MkdirAll(st.dir, 0o700)
	var f *os.File
	if err == nil {
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	}
	if err == nil {
		_, err = f.Write(append(line, '\n'))
		err = errors.Join(err, f.Close())
		st.torn = st.torn && err != nil
	}
	if err != nil && st.log != nil {
		fmt.Fprintf(st.log, "mm serve: %s: %v: after a restart, A2A context %s starts afresh\n", path, err, contextID)
	}
}
