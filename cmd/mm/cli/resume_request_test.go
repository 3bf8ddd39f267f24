package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestResumedRequestsAreTheSame: a session resumed from its file sends the
// model server, byte for byte, the request it would have sent had it never
// stopped — a tool call, its output with a tab and non-ASCII text, and the
// answers included — so that a local server's cache of the prefix holds.
func TestResumedRequestsAreTheSame(t *testing.T) {
	var mu sync.Mutex
	var bodies [][]byte
	srv := httptest.NewServer(chatOnly(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, body)
		mu.Unlock()
		var req struct {
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		json.Unmarshal(body, &req)
		last := req.Messages[len(req.Messages)-1]
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(delta, finish string) {
			fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":%s,\"finish_reason\":%s}],\"object\":\"chat.completion.chunk\"}\n\n", delta, finish)
		}
		switch {
		case last.Role == "user" && strings.HasPrefix(last.Content, "list"):
			chunk(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"printf 'a\\tb — ü\\n'\"}"}}]}`, "null")
			chunk(`{}`, `"tool_calls"`)
		case last.Role == "tool":
			chunk(`{"content":"Two words: \"a\" and \"b — ü\"."}`, "null")
			chunk(`{}`, `"stop"`)
		default:
			chunk(`{"content":"ok"}`, "null")
			chunk(`{}`, `"stop"`)
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	})))
	defer srv.Close()

	dir := t.TempDir()
	cfg := fmt.Sprintf("model: local/test-model\nyolo: true\nproviders:\n  local:\n    baseURL: %s\n", srv.URL)
	if err := os.WriteFile(filepath.Join(dir, "agent.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(stdin string, args ...string) {
		t.Helper()
		cmd := exec.Command(mmBin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "MM_CONFIG=", "MM_MODEL=", "MM_ASKED_DEPTH=")
		cmd.Stdin = strings.NewReader(stdin)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("mm %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	// Stopped after the first question, resumed for the second.
	run("", "-p", "list the words")
	run("", "--continue", "-p", "and the second?")
	// The same two questions in one session that never stopped.
	run("list the words\nand the second?\n", "--no-save")

	mu.Lock()
	defer mu.Unlock()
	if len(bodies) != 6 {
		t.Fatalf("%d requests, want 6", len(bodies))
	}
	resumed, whole := bodies[2], bodies[5]
	if !bytes.Equal(resumed, whole) {
		t.Errorf("the resumed session's request differs from the uninterrupted one's\nresumed: %s\nwhole:   %s", resumed, whole)
	}
	if !bytes.Contains(whole, []byte(`a\tb — ü`)) || !bytes.Contains(whole, []byte(`"tool_call_id":"call_1"`)) {
		t.Errorf("the request lacks the tool call's output: %s", whole)
	}
}
