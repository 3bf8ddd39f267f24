package sessions_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/sessions"
)

// newSession writes a session of msgs and returns its folder and id; the
// writer is left open when keep (another mm still runs it).
func newSession(t *testing.T, dir string, keep bool, msgs ...llm.Message) *sessions.Writer {
	t.Helper()
	w, err := sessions.Create(dir, sessions.Header{Cwd: "/work/p", Model: "echo/x"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(msgs...); err != nil {
		t.Fatal(err)
	}
	if !keep {
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	} else {
		t.Cleanup(func() { w.Close() })
	}
	return w
}

// TestResumeAppends: a session nobody runs goes on in its own file.
func TestResumeAppends(t *testing.T) {
	dir := t.TempDir()
	first := newSession(t, dir, false, history()...)
	s, err := sessions.Open(dir, first.ID())
	if err != nil {
		t.Fatal(err)
	}
	w, notice, err := sessions.Resume(dir, s, sessions.Header{Cwd: "/elsewhere"})
	if err != nil || notice != "" || w.ID() != first.ID() {
		t.Fatalf("Resume: %v, %q, id %s", err, notice, w.ID())
	}
	more := llm.Message{Role: llm.RoleUser, Content: "and then?"}
	if err := w.Append(more); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := sessions.Open(dir, first.ID())
	if err != nil {
		t.Fatal(err)
	}
	if want := append(history(), more); !reflect.DeepEqual(again.History, want) {
		t.Errorf("history\n got %#v\nwant %#v", again.History, want)
	}
	if again.Cwd != "/work/p" {
		t.Errorf("the header changed: %+v", again.Header)
	}
}

// TestResumeForks: a session another mm holds, or whose last line was cut
// short, goes on in a new session that starts with a copy of its history;
// its own file is left as it is.
func TestResumeForks(t *testing.T) {
	for _, tc := range []struct {
		name, why string
		prepare   func(t *testing.T, dir string) string // the session's id
	}{
		{"in use", "another mm is using it", func(t *testing.T, dir string) string {
			return newSession(t, dir, true, history()...).ID()
		}},
		{"torn", "its file ends in a line cut short", func(t *testing.T, dir string) string {
			w := newSession(t, dir, false, history()...)
			f, err := os.OpenFile(w.Path(), os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprint(f, `{"t":"message","role":"user","con`)
			f.Close()
			return w.ID()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			id := tc.prepare(t, dir)
			s, err := sessions.Open(dir, id)
			if err != nil {
				t.Fatal(err)
			}
			s.AskedSessions["reviewer"] = "1ngxbx0aaaaa"
			before, _ := os.ReadFile(s.Path)
			w, notice, err := sessions.Resume(dir, s, sessions.Header{Cwd: "/work/q", Config: "/work/q/agent.yaml", Model: "ollama/m"})
			if err != nil {
				t.Fatal(err)
			}
			want := fmt.Sprintf("session %s: %s: going on in a new session %s, with a copy of its history", id, tc.why, w.ID())
			if w.ID() == id || notice != want {
				t.Fatalf("notice\n got %q\nwant %q", notice, want)
			}
			// Nothing is written before the fork's first message.
			if fi, err := os.Stat(w.Path()); err == nil && fi.Size() != 0 {
				t.Errorf("the fork's file has %d bytes before its first message", fi.Size())
			}
			more := llm.Message{Role: llm.RoleUser, Content: "and then?"}
			if err := w.Append(more); err != nil {
				t.Fatal(err)
			}
			w.Close()
			if after, _ := os.ReadFile(s.Path); string(after) != string(before) {
				t.Errorf("the resumed session's file changed")
			}
			fork, err := sessions.Open(dir, w.ID())
			if err != nil {
				t.Fatal(err)
			}
			if want := append(history(), more); !reflect.DeepEqual(fork.History, want) {
				t.Errorf("fork's history\n got %#v\nwant %#v", fork.History, want)
			}
			if fork.ForkedFrom != id || fork.Cwd != "/work/q" || fork.Model != "ollama/m" || fork.AskedSessions["reviewer"] != "1ngxbx0aaaaa" {
				t.Errorf("fork: %+v, asked %v", fork.Header, fork.AskedSessions)
			}
		})
	}
}

// TestNothingBeforeTheFirstMessage: a session that never had a message
// leaves no file (mm -p whose model is missing); while it waits for one,
// its empty file is no session to list or resume.
func TestNothingBeforeTheFirstMessage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	w, err := sessions.Create(dir, sessions.Header{Cwd: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sessions.Find(dir, w.ID()); err == nil {
		t.Errorf("a session without messages is found")
	}
	if list, _ := sessions.List(dir, "/p", true); len(list) != 0 {
		t.Errorf("a session without messages is listed: %+v", list)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a session without messages left %v", entries)
	}
}

// TestPrivateFolder: the folder others could enter is made 0700 again at
// the first write.
func TestPrivateFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	newSession(t, dir, false, history()...)
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("mode %04o, want 0700", fi.Mode().Perm())
	}
}
