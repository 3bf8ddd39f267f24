package a2a

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// fakeStore logs what the server asks of a Store: each context's session
// opened (new, or going on with what it said before) and ended. Contexts
// are named A, B, … in the order they first come.
type fakeStore struct {
	mu    sync.Mutex
	names map[string]string
	log   []string
}

func (s *fakeStore) Open(id string, _ orchestrator.Options) (orchestrator.Recorder, *orchestrator.Resumed, func() error, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, seen := s.names[id]
	if !seen {
		n = string(rune('A' + len(s.names)))
		s.names[id] = n
	}
	end := func() error {
		s.mu.Lock()
		s.log = append(s.log, "end "+n)
		s.mu.Unlock()
		return nil
	}
	if seen {
		s.log = append(s.log, "open "+n+" again")
		return nil, &orchestrator.Resumed{History: []llm.Message{{Role: llm.RoleUser, Content: "one"}}}, end, nil
	}
	s.log = append(s.log, "open "+n)
	return nil, nil, end, nil
}

// A context whose session was closed to make room for another goes on with
// its saved history when it comes back; every session's saving ends with it.
func TestContextsAreSaved(t *testing.T) {
	st := &fakeStore{names: map[string]string{}}
	url, f, stop := serve(t, Options{MaxSessions: 1, Store: st})
	a, b := client(t, url, ""), client(t, url, "")
	for _, q := range []string{"one", "two", "three"} {
		who := a
		if q == "two" {
			who = b
		}
		if _, err := ask(context.Background(), who, q); err != "" {
			t.Fatalf("%s: %s", q, err)
		}
	}
	stop()
	want := []string{"open A", "end A", "open B", "end B", "open A again", "end A"}
	if !slices.Equal(st.log, want) {
		t.Errorf("store calls\n got %q\nwant %q", st.log, want)
	}
	if want := []bool{false, false, true}; !slices.Equal(f.resumed, want) {
		t.Errorf("sessions given a saved history: %v, want %v", f.resumed, want)
	}
}
