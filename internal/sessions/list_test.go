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

// TestList: this folder's sessions (or every folder's), the one used last
// first, with their turns and first question on one line; a file that
// cannot be resumed is listed with the reason.
func TestList(t *testing.T) {
	dir := t.TempDir()
	write := func(cwd string, modified time.Time, msgs ...llm.Message) string {
		w, err := sessions.Create(dir, sessions.Header{Cwd: cwd})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Append(msgs...); err != nil {
			t.Fatal(err)
		}
		w.Close()
		if err := os.Chtimes(w.Path(), modified, modified); err != nil {
			t.Fatal(err)
		}
		return w.ID()
	}
	day := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	long := strings.Repeat("word ", 20)
	old := write("/work/p", day, history()...)
	recent := write("/work/p", day.Add(2*time.Hour),
		llm.Message{Role: llm.RoleUser, Content: "  fix\n\tthe build\n\nhook context"},
		llm.Message{Role: llm.RoleAssistant, Content: "done"},
		llm.Message{Role: llm.RoleUser, Content: long})
	other := write("/work/q", day.Add(time.Hour), llm.Message{Role: llm.RoleUser, Content: "elsewhere"})
	// A compression: the turns are those of the history as it stands.
	w, _ := sessions.Create(dir, sessions.Header{Cwd: "/work/p"})
	w.Append(history()...)
	w.Replace([]llm.Message{{Role: llm.RoleUser, Content: "summary"}, {Role: llm.RoleUser, Content: "next"}})
	w.Close()
	os.Chtimes(w.Path(), day.Add(-time.Hour), day.Add(-time.Hour))
	compressed := w.ID()
	// A file of a newer mm in this folder.
	newer := "1ngxbx0mj2hk"
	os.WriteFile(filepath.Join(dir, newer+".jsonl"), []byte(`{"t":"session","v":9,"id":"1ngxbx0mj2hk","cwd":"/work/p"}`+"\n"), 0o600)
	os.Chtimes(filepath.Join(dir, newer+".jsonl"), day.Add(-2*time.Hour), day.Add(-2*time.Hour))

	got, err := sessions.List(dir, "/work/p", false)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		ID, Cwd, First, Problem string
		Turns                   int
	}
	rows := func(list []sessions.Summary) []row {
		var out []row
		for _, s := range list {
			out = append(out, row{s.ID, s.Cwd, s.First, s.Problem, s.Turns})
		}
		return out
	}
	want := []row{
		{recent, "/work/p", "fix the build hook context", "", 2},
		{old, "/work/p", "list the files hook context", "", 1},
		{compressed, "/work/p", "list the files hook context", "", 2}, // the first question asked, though compressed since
		{newer, "/work/p", "", filepath.Join(dir, newer+".jsonl") + ": written by a newer mm (session format 9; this mm reads up to 1): update mm to resume it", 0},
	}
	if !reflect.DeepEqual(rows(got), want) {
		t.Errorf("List\n got %+v\nwant %+v", rows(got), want)
	}
	all, _ := sessions.List(dir, "/work/p", true)
	if len(all) != 5 || all[1].ID != other || all[1].Cwd != "/work/q" {
		t.Errorf("List all: %+v", rows(all))
	}
	// The long question is cut at 60 characters.
	long2 := write("/work/r", day, llm.Message{Role: llm.RoleUser, Content: long})
	r, _ := sessions.List(dir, "/work/r", false)
	if len(r) != 1 || r[0].ID != long2 || r[0].First != strings.Repeat("word ", 11)+"word…" {
		t.Errorf("long question: %+v", rows(r))
	}
}

// TestListDamaged: a file with a line Open cannot read is listed with
// Open's words, naming the line, not as a session without questions; a
// last line cut short is no damage (Open resumes without it).
func TestListDamaged(t *testing.T) {
	const header = `{"t":"session","v":1,"id":"%s","cwd":"/work/p"}` + "\n"
	tests := []struct {
		name, id, body, problem string
	}{
		{"before the first question", "1m7zzx0aaaaa", "{garbage\n" + `{"t":"message","role":"user","content":"x"}` + "\n",
			`:2: not a session line (invalid character 'g' looking for beginning of object key string): the file is left as it is`},
		{"after it", "1m7zzx0bbbbb", `{"t":"message","role":"user","content":"list the files"}` + "\n" + `{"t":"message","role":"assis` + "\n" + `{"t":"message","role":"assistant","content":"Two files."}` + "\n",
			`:3: not a session line (unexpected end of JSON input): the file is left as it is`},
		{"an unknown kind", "1m7zzx0ccccc", `{"t":"message","role":"user","content":"x"}` + "\n" + `{"t":"bookmark"}` + "\n",
			`:3: not a session line (its kind "bookmark" is unknown to session format 1): the file is left as it is`},
		{"a torn last line", "1m7zzx0ddddd", `{"t":"message","role":"user","content":"x"}` + "\n" + `{"t":"message","role":"assis`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, tc.id+".jsonl")
			if err := os.WriteFile(path, []byte(strings.Replace(header, "%s", tc.id, 1)+tc.body), 0o600); err != nil {
				t.Fatal(err)
			}
			list, err := sessions.List(dir, "/work/p", false)
			if err != nil || len(list) != 1 {
				t.Fatalf("List = %+v, %v", list, err)
			}
			want := tc.problem
			if want != "" {
				want = path + want
			}
			if list[0].Problem != want {
				t.Errorf("Problem\n got %q\nwant %q", list[0].Problem, want)
			}
		})
	}
}
