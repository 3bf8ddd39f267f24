package cli

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/mm-agent/mm/internal/frontend/acp"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/orchestrator"
	"github.com/mm-agent/mm/internal/sessions"
)

// acpStore saves the sessions of mm -acp in the sessions folder, so that
// an editor can load them (session/load) and list them (session/list),
// and the line mode resume them. An asked agent's go in the folder's
// "asked" folder: its parent loads them on a later hand-off, and mm
// sessions and mm --continue show only the sessions a person started.
type acpStore struct {
	dir string
	// save is false under --no-save and for the asked agents of a session
	// that is not saved (MM_NO_SAVE=1); a configuration's persist: false
	// turns it off for its own sessions.
	save bool
}

// newACPStore is the store of this mm -acp, as its environment says.
// Without a sessions folder (no HOME), nothing is saved, and a load or a
// list says why.
func newACPStore(getenv func(string) string, save bool) *acpStore {
	dir := sessions.Dir(getenv)
	if dir == "" {
		return &acpStore{}
	}
	// A bad depth is said by the session, which refuses to start.
	if d, err := mmconfigs.ChainDepth(getenv("MM_ASKED_DEPTH"), 0); err == nil && d > 0 {
		dir = filepath.Join(dir, askedFolder)
	}
	return &acpStore{dir: dir, save: save}
}

// askedFolder holds the asked agents' sessions, inside the sessions folder.
const askedFolder = "asked"

var _ acp.Store = (*acpStore)(nil)

func (st *acpStore) saving(o orchestrator.Options) bool {
	return st.save && (o.Config == nil || o.Config.Persist)
}

func (st *acpStore) header(o orchestrator.Options) sessions.Header { return sessionHeader(o) }

// sessionHeader is the header of a session started with o.
func sessionHeader(o orchestrator.Options) sessions.Header {
	h := sessions.Header{Cwd: o.Cwd, Model: o.Model}
	if o.Config != nil {
		h.Config = o.Config.Abs
		if h.Model == "" {
			h.Model = o.Config.Model
		}
	}
	return h
}

// Create starts a session file; its id is the ACP session id. Nothing is
// written before the first message.
func (st *acpStore) Create(_ context.Context, o orchestrator.Options) (acp.Saved, error) {
	if !st.saving(o) {
		return acp.Saved{}, nil
	}
	w, err := sessions.Create(st.dir, st.header(o))
	if err != nil {
		return acp.Saved{}, err
	}
	return acp.Saved{ID: w.ID(), Recorder: w, Close: w.Close}, nil
}

// Open reads the session id back and goes on saving it in its own file.
// Where the line mode would fork it (another mm holds it, its last line
// is torn), a load fails instead: the client goes on naming the session
// by the id it asked for, which must stay the file that holds what
// follows.
func (st *acpStore) Open(_ context.Context, id string, o orchestrator.Options) (acp.Saved, error) {
	if st.dir == "" {
		return acp.Saved{}, errNoDir
	}
	path, err := sessions.Find(st.dir, id)
	if err != nil || filepath.Base(path) != id+".jsonl" {
		return acp.Saved{}, acp.UnknownSession(fmt.Sprintf("no saved session %q in %s: session/list lists them", id, st.dir))
	}
	saved, err := sessions.Read(path)
	if err != nil {
		return acp.Saved{}, err
	}
	out := acp.Saved{
		ID:      saved.ID,
		Resume:  &orchestrator.Resumed{History: saved.History, AskedSessions: saved.AskedSessions},
		Notices: saved.Notices,
	}
	if !st.saving(o) {
		return out, nil
	}
	if saved.Torn {
		return acp.Saved{}, fmt.Errorf("session %s cannot be loaded: its file ends in a line cut short (mm was stopped while writing it); mm --resume %s goes on with a copy", id, id)
	}
	w, notice, err := sessions.Resume(st.dir, saved, st.header(o))
	if err != nil {
		return acp.Saved{}, err
	}
	if w.ID() != saved.ID {
		// A fork: closed before anything is recorded, it leaves no file.
		if err := w.Close(); err != nil {
			return acp.Saved{}, err
		}
		return acp.Saved{}, fmt.Errorf("session %s is in use by another mm: end it there, then load it again", id)
	}
	if notice != "" {
		out.Notices = append(out.Notices, notice)
	}
	out.Recorder, out.Close = w, w.Close
	return out, nil
}

// List is the folder's sessions that can be loaded, the latest first.
func (st *acpStore) List(_ context.Context, cwd string) ([]acp.SessionInfo, error) {
	if st.dir == "" {
		return nil, errNoDir
	}
	list, err := sessions.List(st.dir, cwd, cwd == "")
	if err != nil {
		return nil, err
	}
	out := make([]acp.SessionInfo, 0, len(list))
	for _, s := range list {
		if s.Problem != "" {
			continue // mm sessions says why
		}
		out = append(out, acp.SessionInfo{ID: s.ID, Cwd: s.Cwd, Title: s.First, Updated: s.Modified})
	}
	return out, nil
}
