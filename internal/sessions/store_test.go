package sessions_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/sessions"
)

func history() []llm.Message {
	return []llm.Message{
		{Role: llm.RoleUser, Content: "list the files\n\nhook context"},
		{Role: llm.RoleAssistant, Content: "Let me look.", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "bash", Arguments: `{"command":"ls"}`}}},
		{Role: llm.RoleTool, ToolCallID: "c1", Name: "bash", Content: "a.go\nb.go\n"},
		{Role: llm.RoleAssistant, Content: "Two files: a.go and b.go.", ToolCalls: []llm.ToolCall{{ID: "c2", Name: "bash", Arguments: `{"command":"exit 3"}`}}},
		{Role: llm.RoleTool, ToolCallID: "c2", Name: "bash", Content: "[exit status 3]", IsError: true},
	}
}

// A session written message by message reads back as the same history,
// every field of every message, with the asked agents' ids.
func TestWriteThenOpen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	w, err := sessions.Create(dir, sessions.Header{Cwd: "/work/p", Config: "/work/p/agent.yaml", Model: "echo"})
	if err != nil {
		t.Fatal(err)
	}
	h := history()
	for _, m := range h {
		if err := w.Append(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.AskedSession("reviewer", "1ngxbx0mj2hk"); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := sessions.Open(dir, w.ID()[:9])
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.History, h) {
		t.Errorf("history:\n got %#v\nwant %#v", s.History, h)
	}
	if want := map[string]string{"reviewer": "1ngxbx0mj2hk"}; !reflect.DeepEqual(s.AskedSessions, want) {
		t.Errorf("asked sessions: got %v, want %v", s.AskedSessions, want)
	}
	if s.ID != w.ID() || s.Cwd != "/work/p" || s.Config != "/work/p/agent.yaml" || s.Model != "echo" || s.Version != sessions.Version || s.Turns != 1 {
		t.Errorf("header: got %+v", s.Header)
	}
	if time.Since(s.Created) > time.Minute {
		t.Errorf("created: %v", s.Created)
	}
	for path, want := range map[string]os.FileMode{dir: 0o700, s.Path: 0o600} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %04o, want %04o", path, fi.Mode().Perm(), want)
		}
	}
	if s.Notices != nil {
		t.Errorf("notices: %q", s.Notices)
	}
}

// A question saved expanded is written with what was typed after its
// content, in a message line and in a replace's history; a question that
// was not expanded has no "typed", as every line written before it.
func TestTypedIsWrittenBeside(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	w, err := sessions.Create(dir, sessions.Header{Cwd: "/work/p", Model: "echo"})
	if err != nil {
		t.Fatal(err)
	}
	expanded := llm.Message{Role: llm.RoleUser, Content: "look\n[file: a.md]\n```\nx\n```", Typed: "look\n@a.md"}
	if err := w.Append(expanded, llm.Message{Role: llm.RoleUser, Content: "plain"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Replace([]llm.Message{expanded}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")[1:]
	want := []string{
		`{"t":"message","role":"user","turn":1,"content":"look\n[file: a.md]\n` + "```" + `\nx\n` + "```" + `","typed":"look\n@a.md"}`,
		`{"t":"message","role":"user","turn":2,"content":"plain"}`,
		`{"t":"replace","turns":1,"history":[{"role":"user","content":"look\n[file: a.md]\n` + "```" + `\nx\n` + "```" + `","typed":"look\n@a.md"}]}`,
	}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("lines\n got %q\nwant %q", lines, want)
	}
}
