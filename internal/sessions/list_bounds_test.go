package sessions_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/sessions"
)

// bigSession writes a session of cwd whose file is size bytes: its first
// turn, a hole of size bytes (sparse: it costs no disk), then a second
// turn, as if a turn had saved a huge tool output.
func bigSession(t testing.TB, dir, cwd string, size int64) string {
	t.Helper()
	w, err := sessions.Create(dir, sessions.Header{Cwd: cwd})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(llm.Message{Role: llm.RoleUser, Content: "first question"}, llm.Message{Role: llm.RoleAssistant, Content: "ok"}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	f, err := os.OpenFile(w.Path(), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(size, 0); err != nil {
		t.Fatal(err)
	}
	// A second turn after the hole, numbered as the writer numbers it.
	if _, err := f.WriteString("\n" + `{"t":"message","role":"user","turn":2,"content":"second"}` + "\n" + `{"t":"message","role":"assistant","content":"done"}` + "\n"); err != nil {
		t.Fatal(err)
	}
	return w.ID()
}

// The listing reads a session's header, its first question and its last
// lines, not the file: a 256 MiB session lists with a few MiB allocated.
func TestListReadsTheEndsOnly(t *testing.T) {
	dir := t.TempDir()
	id := bigSession(t, dir, "/work/p", 256<<20)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	list, err := sessions.List(dir, "/work/p", false)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].ID != id || list[0].First != "first question" || list[0].Turns != 2 || list[0].Problem != "" {
		t.Fatalf("List = %+v", list)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 32<<20 {
		t.Errorf("listing a 256 MiB session allocated %d MiB; want a few (the header and the last lines)", got>>20)
	}
}

// Turns come from the last question's number, a replace line's count, or,
// in a file written before questions were numbered, the lines counted.
func TestListTurns(t *testing.T) {
	dir := t.TempDir()
	w, _ := sessions.Create(dir, sessions.Header{Cwd: "/work/p"})
	w.Append(history()...)
	w.Append(llm.Message{Role: llm.RoleUser, Content: "two"}, llm.Message{Role: llm.RoleUser, Content: "three"})
	w.Close()
	numbered, _ := os.ReadFile(w.Path())
	if !strings.Contains(string(numbered), `{"t":"message","role":"user","turn":3,"content":"three"}`) {
		t.Errorf("the third question is not numbered:\n%s", numbered)
	}
	w2, _ := sessions.Create(dir, sessions.Header{Cwd: "/work/q"})
	w2.Append(history()...)
	w2.Replace([]llm.Message{{Role: llm.RoleUser, Content: "summary"}, {Role: llm.RoleUser, Content: "next"}, {Role: llm.RoleAssistant, Content: "x"}})
	w2.Append(llm.Message{Role: llm.RoleTool, Content: "out"})
	w2.Close()
	old := filepath.Join(dir, "1m7zzx0mj2hk.jsonl")
	os.WriteFile(old, []byte(`{"t":"session","v":1,"id":"1m7zzx0mj2hk","cwd":"/work/r"}`+"\n"+
		`{"t":"message","role":"user","content":"a"}`+"\n"+`{"t":"message","role":"user","content":"b"}`+"\n"), 0o600)
	for _, tt := range []struct {
		cwd   string
		turns int
	}{{"/work/p", 3}, {"/work/q", 2}, {"/work/r", 2}} {
		list, err := sessions.List(dir, tt.cwd, false)
		if err != nil || len(list) != 1 || list[0].Turns != tt.turns {
			t.Errorf("List(%s) = %+v, %v; want %d turns", tt.cwd, list, err, tt.turns)
		}
	}
}

// A named pipe named like a session file is listed as what it is, and
// refused by Open, at once: nothing waits for a writer.
func TestNamedPipeInTheFolder(t *testing.T) {
	dir := t.TempDir()
	const id = "1m7zzx0mj2hk"
	fifo := filepath.Join(dir, id+".jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// On failure the pipe is opened for writing once, so that a blocked
	// open returns and the test ends.
	t.Cleanup(func() {
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	type result struct {
		list []sessions.Summary
		err  error
	}
	done := make(chan result, 1)
	go func() {
		list, err := sessions.List(dir, "/work/p", true)
		if err == nil {
			_, err = sessions.Open(dir, id)
		}
		done <- result{list, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("mm sessions waited on a named pipe")
	}
	want := fifo + ": a named pipe, not a regular file: mm reads only the session files it wrote"
	if len(r.list) != 1 || r.list[0].Problem != want {
		t.Errorf("List = %+v\nwant the problem %s", r.list, want)
	}
	if r.err == nil || r.err.Error() != want {
		t.Errorf("Open: %v\nwant %s", r.err, want)
	}
}
