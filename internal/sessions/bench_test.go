package sessions_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/sessions"
)

// longSession is n messages as a working session has them: questions,
// answers calling tools, and tools' outputs, the largest.
func longSession(n int) []llm.Message {
	out := make([]llm.Message, 0, n)
	output := strings.Repeat("drwxr-xr-x 2 user user 4096 Nov 30 09:00 a-file-name.go\n", 20) // ~1.1 kB
	for i := 0; len(out) < n; i++ {
		id := fmt.Sprintf("call_%d", i)
		for _, m := range []llm.Message{
			{Role: llm.RoleUser, Content: fmt.Sprintf("question %d: list the files of the folder and say which one holds \"main\"", i)},
			{Role: llm.RoleAssistant, Content: "Let me look.", ToolCalls: []llm.ToolCall{{ID: id, Name: "bash", Arguments: `{"command":"ls -la ./cmd/mm"}`}}},
			{Role: llm.RoleTool, ToolCallID: id, Name: "bash", Content: output},
			{Role: llm.RoleAssistant, Content: "The file main.go holds func main; the others are its commands and their tests."},
		} {
			if len(out) < n {
				out = append(out, m)
			}
		}
	}
	return out
}

// BenchmarkOpen10000 reads back a 10,000-message session (about 5 MB):
// what --resume and --continue cost before the first turn.
func BenchmarkOpen10000(b *testing.B) {
	dir := b.TempDir()
	w, err := sessions.Create(dir, sessions.Header{Cwd: "/work/p"})
	if err != nil {
		b.Fatal(err)
	}
	msgs := longSession(10000)
	for _, m := range msgs {
		if err := w.Append(m); err != nil {
			b.Fatal(err)
		}
	}
	w.Close()
	b.ResetTimer()
	for b.Loop() {
		s, err := sessions.Open(dir, w.ID())
		if err != nil || len(s.History) != len(msgs) {
			b.Fatalf("%v, %d messages", err, len(s.History))
		}
	}
}

// BenchmarkAppend saves one message of a session, as the turn loop does
// before each model call: encoding and one write(2) to the file.
func BenchmarkAppend(b *testing.B) {
	w, err := sessions.Create(b.TempDir(), sessions.Header{Cwd: "/work/p"})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	msgs := longSession(4)
	b.ResetTimer()
	i := 0
	for b.Loop() {
		if err := w.Append(msgs[i%4]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkList lists a folder of 50 sessions of 200 messages each.
func BenchmarkList(b *testing.B) {
	dir := b.TempDir()
	msgs := longSession(200)
	for range 50 {
		w, _ := sessions.Create(dir, sessions.Header{Cwd: "/work/p"})
		w.Append(msgs...)
		w.Close()
	}
	b.ResetTimer()
	for b.Loop() {
		list, err := sessions.List(dir, "/work/p", false)
		if err != nil || len(list) != 50 {
			b.Fatalf("%v, %d sessions", err, len(list))
		}
	}
}

// BenchmarkListHugeSession lists a folder holding one 1 GiB session (a
// sparse file: a turn, a gigabyte, a turn): what mm sessions costs when a
// turn once saved a huge output. It reads the file's ends, not the file.
func BenchmarkListHugeSession(b *testing.B) {
	dir := b.TempDir()
	bigSession(b, dir, "/work/p", 1<<30)
	b.ReportAllocs()
	for b.Loop() {
		list, err := sessions.List(dir, "/work/p", false)
		if err != nil || len(list) != 1 || list[0].Turns != 2 {
			b.Fatalf("%v, %+v", err, list)
		}
	}
}
