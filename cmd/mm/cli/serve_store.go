package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/mm-agent/mm/orchestrator"
	"github.com/mm-agent/mm/sessions"
)

// servedFolder holds the sessions of mm serve's A2A contexts, inside the
// sessions folder: they were started by other programs, so mm sessions and
// mm --continue leave them out, as they do asked agents'.
const servedFolder = "served"

// serveStore saves one session per A2A context of mm serve. A context
// whose session was closed to make room for others goes on with its saved
// history when it comes back.
type serveStore struct {
	dir string

	mu sync.Mutex
	// ids maps an A2A context id to its saved session's id.
	ids map[string]string
}

var _ ServeStore = (*serveStore)(nil)

// servedStore is mm serve's store; nil when nothing is saved (--no-save,
// persist: false, no HOME). A nil *serveStore in the interface would not
// be nil, hence the interface type.
func servedStore(getenv func(string) string, save bool) ServeStore {
	dir := sessions.Dir(getenv)
	if dir == "" || !save {
		return nil
	}
	return &serveStore{dir: filepath.Join(dir, servedFolder), ids: map[string]string{}}
}

// Open is ServeStore's.
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

func (st *serveStore) remember(contextID, id string) {
	st.mu.Lock()
	st.ids[contextID] = id
	st.mu.Unlock()
}
