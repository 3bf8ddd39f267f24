package orchestrator

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
)

// memRecorder keeps what a session records.
type memRecorder struct {
	mu       sync.Mutex
	appended []llm.Message
	asked    map[string]string
	models   []string
}

func (r *memRecorder) Append(msgs ...llm.Message) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.appended = append(r.appended, msgs...)
	return nil
}
func (r *memRecorder) Replace([]llm.Message) error { return nil }
func (r *memRecorder) UsesModel(ref string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.models = append(r.models, ref)
}
func (r *memRecorder) AskedSession(name, id string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.asked == nil {
		r.asked = map[string]string{}
	}
	r.asked[name] = id
	return nil
}

// oneStore resumes one saved session into rec.
type oneStore struct {
	saved *Resumed
	rec   Recorder
	ids   []string
}

func (st *oneStore) List() (string, error) { return "1m8rp0pc0qje  3 h ago  1  fix the build", nil }
func (st *oneStore) Choices() ([]SavedSession, error) {
	return []SavedSession{{ID: "1m8rp0pc0qje", Age: "3 h ago", Turns: 1, First: "fix the build"}}, nil
}
func (st *oneStore) Rename(name string) (string, error) { return "(named " + name + ")", nil }
func (st *oneStore) Resume(id string) (*Resumed, Recorder, string, error) {
	st.ids = append(st.ids, id)
	if id != "1m8rp" {
		return nil, nil, "", errors.New(`no saved session "` + id + `"`)
	}
	return st.saved, st.rec, "resumed session 1m8rp0pc0qje (1 turn, 2 messages)", nil
}

// TestResumeSavedInPlace: /resume makes the saved session the one that
// runs: the model reads its history, what follows is recorded into its
// recorder and not the one before, and its asked agents' sessions are the
// ones a hand-off loads.
func TestResumeSavedInPlace(t *testing.T) {
	model := &fakeModel{}
	s := newTestSession(t, nil, model, &recSink{})
	before := &memRecorder{}
	s.history.recorder = before
	if err := s.Prompt(context.Background(), "first"); err != nil {
		t.Fatal(err)
	}
	saved := []llm.Message{{Role: llm.RoleUser, Content: "fix the build"}, {Role: llm.RoleAssistant, Content: "Fixed."}}
	after := &memRecorder{}
	store := &oneStore{saved: &Resumed{History: saved, AskedSessions: map[string]string{"expert": "1m8rp3k0hm0v"}}, rec: after}
	s.store = store

	if _, err := s.ResumeSaved("2zz"); err == nil || err.Error() != `no saved session "2zz"` {
		t.Fatalf("unknown id: %v", err)
	}
	if got := s.History(); len(got) != 2 || got[0].Content != "first" {
		t.Fatalf("a failed resume changed the history: %v", got)
	}
	say, err := s.ResumeSaved("1m8rp")
	if err != nil || say != "resumed session 1m8rp0pc0qje (1 turn, 2 messages)" {
		t.Fatalf("ResumeSaved: %q, %v", say, err)
	}
	if got := s.History(); !reflect.DeepEqual(got, saved) {
		t.Errorf("history after /resume: %v", got)
	}
	if got := s.history.askedSession("expert"); got != "1m8rp3k0hm0v" {
		t.Errorf("the expert's session: %q", got)
	}
	if err := s.Prompt(context.Background(), "and the tests?"); err != nil {
		t.Fatal(err)
	}
	last := model.requests[len(model.requests)-1].Messages
	tail := last[len(last)-3:]
	want := append(append([]llm.Message(nil), saved...), llm.Message{Role: llm.RoleUser, Content: "and the tests?"})
	if !reflect.DeepEqual(tail, want) {
		t.Errorf("the model read\n%v\nwant it to end with\n%v", last, want)
	}
	if len(before.appended) != 2 || len(after.appended) != 2 || after.appended[0].Content != "and the tests?" {
		t.Errorf("recorded before %v, after %v", before.appended, after.appended)
	}
	// A resumed session the store saves nothing of (--no-save) records
	// nothing more.
	store.rec = nil
	if _, err := s.ResumeSaved("1m8rp"); err != nil {
		t.Fatal(err)
	}
	s.Prompt(context.Background(), "unsaved")
	if len(after.appended) != 2 {
		t.Errorf("recorded after --no-save's resume: %v", after.appended)
	}
}

// TestNoStore: without a store, /sessions and /resume say sessions are not
// saved here.
func TestNoStore(t *testing.T) {
	s := newTestSession(t, nil, &fakeModel{}, &recSink{})
	if _, err := s.SavedSessions(); !errors.Is(err, errNoStore) {
		t.Errorf("SavedSessions: %v", err)
	}
	if _, err := s.ResumeSaved("1m8rp"); !errors.Is(err, errNoStore) {
		t.Errorf("ResumeSaved: %v", err)
	}
}
