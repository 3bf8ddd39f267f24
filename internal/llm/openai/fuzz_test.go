package openai

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
)

// FuzzReadStream: whatever a server streams, the reply is read or the
// error is one line, never a panic; what it streamed as text is the
// reply's content, and its counts are within mm's bounds. The same body
// sent whole (a server that ignores stream: true) reads the same way.
func FuzzReadStream(f *testing.F) {
	files, _ := filepath.Glob("testdata/sse/*.sse")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var told []string
		acc := &accumulator{provider: "p", ids: new(atomic.Int64), bad: func(source, field, problem, then string) {
			told = append(told, badLine("p", source, field, problem, then))
		}}
		var streamed strings.Builder
		err := acc.readStream(bytes.NewReader(body), func(s string) { streamed.WriteString(s) })
		r := acc.reply()
		if err != nil {
			if msg := err.Error(); msg == "" || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("error %q: not one line", msg)
			}
		}
		if r.Content != streamed.String() {
			t.Fatalf("content %q, streamed %q", r.Content, streamed.String())
		}
		checkReply(t, r)
		for _, l := range told {
			if strings.ContainsAny(l, "\n\r") {
				t.Fatalf("line %q: not one line", l)
			}
		}
		whole := &accumulator{provider: "p", ids: new(atomic.Int64)}
		if err := whole.readWhole(bytes.NewReader(body), nil); err == nil {
			checkReply(t, whole.reply())
		}
	})
}

// checkReply fails t on a reply outside mm's bounds.
func checkReply(t *testing.T, r llm.Reply) {
	t.Helper()
	u := r.Usage
	for _, n := range []int{u.InputTokens, u.OutputTokens, u.CachedTokens} {
		if n < 0 || n > maxTokens {
			t.Fatalf("usage %+v out of range", u)
		}
	}
	if u.Generation < 0 || u.Generation > maxGeneration {
		t.Fatalf("generation %v out of range", u.Generation)
	}
	switch r.FinishReason {
	case "stop", "tool_calls", "length":
	default:
		if len(r.ToolCalls) > 0 {
			t.Fatalf("finish %q with calls", r.FinishReason)
		}
	}
	for _, c := range r.ToolCalls {
		if c.ID == "" {
			t.Fatalf("a call without an id: %+v", c)
		}
	}
}
