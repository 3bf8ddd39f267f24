package acp

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// memStore keeps sessions in memory, for one test's servers one after the
// other, as the sessions folder does for mm processes.
type memStore struct {
	mu    sync.Mutex
	saved map[string]*memSaved
	n     int
	// now dates the sessions' changes.
	now time.Time
}

// memSaved is one saved session; it records what its session appends.
type memSaved struct {
	st      *memStore
	id, cwd string
	history []llm.Message
	asked   map[string]string
	updated time.Time
	open    bool
}

func newMemStore() *memStore {
	return &memStore{saved: map[string]*memSaved{}, now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
}

func (st *memStore) Create(_ context.Context, o orchestrator.Options) (Saved, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.n++
	m := &memSaved{st: st, id: fmt.Sprintf("s%d", st.n), cwd: o.Cwd, asked: map[string]string{}, updated: st.tick(), open: true}
	st.saved[m.id] = m
	return Saved{ID: m.id, Recorder: m, Close: m.close}, nil
}

func (st *memStore) Open(_ context.Context, id string, o orchestrator.Options) (Saved, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	m := st.saved[id]
	switch {
	case m == nil:
		return Saved{}, fmt.Errorf("session %q: %w (session/list lists them)", id, ErrUnknownSession)
	case m.open:
		return Saved{}, fmt.Errorf("session %q is in use by another mm", id)
	}
	m.open = true
	r := &orchestrator.Resumed{History: slices.Clone(m.history), AskedSessions: maps.Clone(m.asked)}
	return Saved{ID: id, Recorder: m, Resume: r, Close: m.close}, nil
}

func (st *memStore) List(_ context.Context, cwd string) ([]SessionInfo, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	var out []SessionInfo
	for _, m := range st.saved {
		if cwd != "" && m.cwd != cwd {
			continue
		}
		title := ""
		for _, msg := range m.history {
			if msg.Role == llm.RoleUser {
				title = msg.Content
				break
			}
		}
		out = append(out, SessionInfo{ID: m.id, Cwd: m.cwd, Title: title, Updated: m.updated})
	}
	slices.SortFunc(out, func(a, b SessionInfo) int { return b.Updated.Compare(a.Updated) })
	return out, nil
}

// tick is the time of a change: a minute after the one before.
func (st *memStore) tick() time.Time {
	st.now = st.now.Add(time.Minute)
	return st.now
}

// history is what session id has saved.
func (st *memStore) history(id string) []llm.Message {
	st.mu.Lock()
	defer st.mu.Unlock()
	return slices.Clone(st.saved[id].history)
}

func (m *memSaved) Append(msgs ...llm.Message) error {
	m.st.mu.Lock()
	defer m.st.mu.Unlock()
	m.history = append(m.history, msgs...)
	m.updated = m.st.tick()
	return nil
}

func (m *memSaved) Replace(msgs []llm.Message) error {
	m.st.mu.Lock()
	defer m.st.mu.Unlock()
	m.history = slices.Clone(msgs)
	m.updated = m.st.tick()
	return nil
}

func (m *memSaved) AskedSession(name, id string) error {
	m.st.mu.Lock()
	defer m.st.mu.Unlock()
	m.asked[name] = id
	return nil
}

// UsesModel: an editor's sessions run their configuration's model.
func (m *memSaved) UsesModel(string) {}

func (m *memSaved) close() error {
	m.st.mu.Lock()
	defer m.st.mu.Unlock()
	m.open = false
	return nil
}
