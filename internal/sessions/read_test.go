package sessions_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/sessions"
)

// install copies testdata/name into a sessions folder as the session id's
// file, private, and returns the folder and the file.
func install(t *testing.T, name, id string) (dir, path string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(t.TempDir(), "sessions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(dir, id+".jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

// TestRead: what each file reads back as, or the one line that refuses it,
// naming the file (and its line); a refused file is left as it is.
func TestRead(t *testing.T) {
	const id = "1ngxbx0mj2hk"
	tests := []struct {
		file    string
		history []llm.Message
		asked   map[string]string
		turns   int
		torn    bool
		notices []string // FILE stands for the file's path
		err     string
	}{
		{
			file: "ok.jsonl",
			// The replace line is the history after a compression; the
			// messages after it join it.
			history: []llm.Message{
				{Role: llm.RoleUser, Content: "Summary of the conversation so far: one file, a.go, no tests."},
				{Role: llm.RoleAssistant, Content: "Noted."},
				{Role: llm.RoleUser, Content: "write one"},
			},
			asked: map[string]string{"reviewer": "1ngxbx0bbbbb"},
			turns: 2,
		},
		{
			// A question saved expanded keeps what was typed beside it, in
			// a replace's history too; ok.jsonl, written before, has none.
			file: "typed.jsonl",
			history: []llm.Message{
				{Role: llm.RoleUser, Content: "what is in it?\n[file: notes.md]\n```\nbuy milk\n```", Typed: "what is in it?\n@notes.md"},
				{Role: llm.RoleAssistant, Content: "Milk."},
				{Role: llm.RoleUser, Content: "and then?"},
			},
			asked: map[string]string{},
			turns: 2,
		},
		{
			file: "torn.jsonl",
			history: []llm.Message{
				{Role: llm.RoleUser, Content: "list the files"},
				{Role: llm.RoleAssistant, Content: "Two files."},
			},
			asked:   map[string]string{},
			turns:   1,
			torn:    true,
			notices: []string{"FILE:4: the last line is cut short (mm was stopped while writing it): resumed without it"},
		},
		{
			// A line without its newline was cut short, even when what was
			// written of it reads: mm writes the newline with the line.
			file:    "torn_complete.jsonl",
			asked:   map[string]string{},
			torn:    true,
			notices: []string{"FILE:2: the last line is cut short (mm was stopped while writing it): resumed without it"},
		},
		{file: "corrupt.jsonl", err: "FILE:3: not a session line (unexpected end of JSON input): the file is left as it is"},
		{file: "unknown_kind.jsonl", err: `FILE:3: not a session line (its kind "bookmark" is unknown to session format 1): the file is left as it is`},
		{file: "newer.jsonl", err: "FILE: written by a newer mm (session format 2; this mm reads up to 1): update mm to resume it"},
		{file: "no_header.jsonl", err: "FILE:1: not an mm session file (no session header): the file is left as it is"},
		// An empty file is a session that has no message yet (its mm made
		// the file as it started): not one to resume.
		{file: "empty.jsonl", err: `no saved session "1ngxbx0m" in DIR: mm sessions --all lists them`},
		{file: "other_id.jsonl", err: `FILE:1: the header's id "1ngxbx0zzzzz" is not the file's name: the file is left as it is`},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			dir, path := install(t, tc.file, id)
			before, _ := os.ReadFile(path)
			s, err := sessions.Open(dir, "1ngxbx0m")
			after, _ := os.ReadFile(path)
			if string(after) != string(before) {
				t.Errorf("the file changed:\n%s", after)
			}
			if tc.err != "" {
				want := strings.ReplaceAll(strings.ReplaceAll(tc.err, "FILE", path), "DIR", dir)
				if err == nil || err.Error() != want {
					t.Fatalf("error\n got %v\nwant %s", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(s.History, tc.history) {
				t.Errorf("history\n got %#v\nwant %#v", s.History, tc.history)
			}
			if !reflect.DeepEqual(s.AskedSessions, tc.asked) {
				t.Errorf("asked sessions: got %v, want %v", s.AskedSessions, tc.asked)
			}
			var notices []string
			for _, n := range tc.notices {
				notices = append(notices, strings.ReplaceAll(n, "FILE", path))
			}
			if s.Turns != tc.turns || s.Torn != tc.torn || !reflect.DeepEqual(s.Notices, notices) {
				t.Errorf("turns %d, torn %v, notices %q; want %d, %v, %q", s.Turns, s.Torn, s.Notices, tc.turns, tc.torn, notices)
			}
			if s.ID != id || s.Cwd != "/work/p" || s.Model != "ollama/qwen3:8b" || s.Config != "/work/p/agent.yaml" || s.Created.Format("2006-01-02T15:04:05Z07:00") != "2026-11-30T09:00:00Z" {
				t.Errorf("header: %+v", s.Header)
			}
		})
	}
}

// TestReadPrivate: a session file others could read is made private again,
// and the person is told; one of another user is refused.
func TestReadPrivate(t *testing.T) {
	dir, path := install(t, "ok.jsonl", "1ngxbx0mj2hk")
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := sessions.Open(dir, "1ngxbx0mj2hk")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{path + ": others could read it (mode 0644): made it private (0600)"}
	if !reflect.DeepEqual(s.Notices, want) {
		t.Errorf("notices %q, want %q", s.Notices, want)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %04o, want 0600", fi.Mode().Perm())
	}

	if os.Getuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
	if err := os.Chown(path, 12345, 12345); err != nil {
		t.Fatal(err)
	}
	_, err = sessions.Open(dir, "1ngxbx0mj2hk")
	if want := path + ": belongs to another user (uid 12345): mm reads only your own sessions"; err == nil || err.Error() != want {
		t.Errorf("error\n got %v\nwant %s", err, want)
	}
	if err := os.Chown(dir, 12345, 12345); err != nil {
		t.Fatal(err)
	}
	w, _ := sessions.Create(dir, sessions.Header{})
	err = w.Append(llm.Message{Role: llm.RoleUser, Content: "q"})
	if want := dir + ": belongs to another user (uid 12345): mm reads only your own sessions"; err == nil || err.Error() != want {
		t.Errorf("error\n got %v\nwant %s", err, want)
	}
}

// TestFind: an id, or a unique start of it, names one file; an unknown,
// ambiguous or malformed one is one line saying what to do.
func TestFind(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"1ngxbx0mj2hk", "1ngxbx0mj3ab", "1ngxbx1aaaaa", "1ngxbx2aaaaa", "1ngxbx3aaaaa", "1ngxbx4aaaaa", "1ngxbx5aaaaa"} {
		if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), []byte("{}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// Not sessions: mm's ids only.
	for _, name := range []string{"notes.txt", "short.jsonl", "1NGXBX0MJ2HK.jsonl"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct{ arg, want, err string }{
		{arg: "1ngxbx0mj2hk", want: "1ngxbx0mj2hk"},
		{arg: "1ngxbx0mj2", want: "1ngxbx0mj2hk"},
		{arg: " 1NGXBX0MJ3 ", want: "1ngxbx0mj3ab"}, // copied from elsewhere
		{arg: "1ngxbx0mj", err: `session id "1ngxbx0mj" is ambiguous: 1ngxbx0mj2hk, 1ngxbx0mj3ab: give more of the id`},
		{arg: "1ngxbx", err: `session id "1ngxbx" is ambiguous: 1ngxbx0mj2hk, 1ngxbx0mj3ab, 1ngxbx1aaaaa, 1ngxbx2aaaaa, 1ngxbx3aaaaa and 2 more: give more of the id`},
		{arg: "2z", err: `no saved session "2z" in ` + dir + `: mm sessions --all lists them`},
		{arg: "shout", err: `"shout" is not a session id (ids are 12 characters of 0-9 and a-z, like 1m8rp0pc0qje): mm sessions lists them`}, // no o, no u
		{arg: "../etc/passwd", err: `"../etc/passwd" is not a session id (ids are 12 characters of 0-9 and a-z, like 1m8rp0pc0qje): mm sessions lists them`},
		{arg: "1ngxbx0mj2hkk", err: `"1ngxbx0mj2hkk" is not a session id (ids are 12 characters of 0-9 and a-z, like 1m8rp0pc0qje): mm sessions lists them`},
		{arg: "", err: "no session id given: mm sessions lists them"},
	}
	for _, tc := range tests {
		got, err := sessions.Find(dir, tc.arg)
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err {
				t.Errorf("Find(%q): error\n got %v\nwant %s", tc.arg, err, tc.err)
			}
		case err != nil:
			t.Errorf("Find(%q): %v", tc.arg, err)
		case got != filepath.Join(dir, tc.want+".jsonl"):
			t.Errorf("Find(%q) = %s, want %s", tc.arg, got, tc.want)
		}
	}
	// No folder yet: nothing was saved.
	if _, err := sessions.Find(filepath.Join(dir, "none"), "1ngx"); err == nil || !strings.HasPrefix(err.Error(), `no saved session "1ngx" in `) {
		t.Errorf("no folder: %v", err)
	}
}

// TestDir: the XDG state folder, else ~/.local/state.
func TestDir(t *testing.T) {
	for _, tc := range []struct{ state, want string }{
		{"/x/state", "/x/state/mm/sessions"},
		{"", "/home/p/.local/state/mm/sessions"},
		{"relative/state", "/home/p/.local/state/mm/sessions"}, // the spec: ignored
	} {
		env := map[string]string{"HOME": "/home/p", "XDG_STATE_HOME": tc.state}
		if got := sessions.Dir(func(k string) string { return map[string]string{"HOME": "", "XDG_STATE_HOME": tc.state}[k] }); tc.state != "/x/state" && got != "" {
			t.Errorf("no HOME, XDG_STATE_HOME=%q: Dir = %q, want none", tc.state, got)
		}
		if got := sessions.Dir(func(k string) string { return env[k] }); got != tc.want {
			t.Errorf("XDG_STATE_HOME=%q: Dir = %s, want %s", tc.state, got, tc.want)
		}
	}
}
