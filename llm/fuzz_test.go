package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// addFiles adds each file of the glob as a seed, followed by more (the
// other arguments of the fuzz target).
func addFiles(f *testing.F, glob string, more ...any) {
	files, _ := filepath.Glob(glob)
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(append([]any{b}, more...)...)
		}
	}
}

// FuzzReadStream: whatever a server streams, the reply is read or the
// error is one line, never a panic; what it streamed as text is the
// reply's content, and its counts are within mm's bounds. The same body
// sent whole (a server that ignores stream: true) reads the same way.
func FuzzReadStream(f *testing.F) {
	addFiles(f, "testdata/sse/*.sse")
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
func checkReply(t *testing.T, r Reply) {
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

// FuzzScript: whatever a script file holds, it loads or its error is one
// line at a line of the file, never a panic; a script that loads answers
// a question (its delays left out) with a reply whose calls' arguments
// are JSON, or an error.
func FuzzScript(f *testing.F) {
	addFiles(f, "testdata/script/*.yaml", "list the files")
	addFiles(f, "testdata/script/bad/*.yaml", "hi")
	addFiles(f, "../examples/*/script.yaml", "what is an inode?")
	f.Fuzz(func(t *testing.T, data []byte, question string) {
		rules, err := parseScript(data)
		if err != nil {
			if msg := err.Error(); msg == "" || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("error %q: not one line", msg)
			}
			return
		}
		for i := range rules {
			rules[i].delay = 0
		}
		s := &scriptModel{path: "f.yaml", rules: rules, spent: make([]bool, len(rules))}
		req := Request{Messages: []Message{{Role: RoleSystem, Content: "sys"}, {Role: RoleUser, Content: question}}}
		r, err := s.Stream(context.Background(), req, nil)
		if err != nil {
			return
		}
		for _, c := range r.ToolCalls {
			if !json.Valid([]byte(c.Arguments)) && !rawArgs(rules, c.Name) {
				t.Fatalf("call %s: arguments %q are not JSON", c.Name, c.Arguments)
			}
		}
	})
}

// rawArgs says a rule calls name with rawArgs, which may be any text.
func rawArgs(rules []scriptRule, name string) bool {
	for _, r := range rules {
		for _, c := range r.calls {
			if c.name == name && c.hasRaw {
				return true
			}
		}
	}
	return false
}
