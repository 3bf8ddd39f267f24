package sessions_test

import (
	"os"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/sessions"
)

// TestLastModel: a question asked of another model than the file said
// last notes it on its line, and Open reads the last one noted, else the
// header's; a session resumed in its own file and switched again notes
// the new one.
func TestLastModel(t *testing.T) {
	dir := t.TempDir()
	q := func(text string) llm.Message { return llm.Message{Role: llm.RoleUser, Content: text} }
	a := llm.Message{Role: llm.RoleAssistant, Content: "ok"}
	w := newSession(t, dir, true, q("one"), a)
	w.UsesModel("echo/x") // the header's: nothing to note
	w.Append(q("two"), a)
	w.UsesModel("ollama/qwen3:8b")
	w.Append(q("three"), a, q("four"))
	w.Close()
	b, _ := os.ReadFile(w.Path())
	if got := strings.Count(string(b), `"model":"ollama/qwen3:8b"`); got != 1 ||
		!strings.Contains(string(b), `{"t":"message","role":"user","turn":3,"content":"three","model":"ollama/qwen3:8b"}`) {
		t.Errorf("the switch is noted %d times; the file:\n%s", got, b)
	}
	s, err := sessions.Open(dir, w.ID())
	if err != nil || s.LastModel != "ollama/qwen3:8b" || s.Header.Model != "echo/x" {
		t.Fatalf("Open: %v, last model %q, header's %q", err, s.LastModel, s.Header.Model)
	}
	r, _, err := sessions.Resume(dir, s, sessions.Header{})
	if err != nil {
		t.Fatal(err)
	}
	r.UsesModel("ollama/qwen3:8b") // the one it said: nothing to note
	r.Append(q("five"))
	r.UsesModel("echo/x")
	r.Append(q("six"))
	r.Close()
	s, err = sessions.Open(dir, w.ID())
	if err != nil || s.LastModel != "echo/x" {
		t.Fatalf("Open after resuming: %v, last model %q", err, s.LastModel)
	}
	b, _ = os.ReadFile(w.Path())
	if got := strings.Count(string(b), `"model":`); got != 3 { // the header's, three's and six's
		t.Errorf("%d models in the file:\n%s", got, b)
	}
	// A file of an older mm notes none: the header's.
	old := newSession(t, dir, false, q("one"))
	if s, _ := sessions.Open(dir, old.ID()); s.LastModel != "echo/x" {
		t.Errorf("an older file's last model: %q", s.LastModel)
	}
}
