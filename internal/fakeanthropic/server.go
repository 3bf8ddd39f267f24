// Package fakeanthropic is a test helper: the Anthropic Messages API on
// loopback, answering Claude Code with scripted replies as the real one
// streams them (server-sent events), and keeping the requests. A test
// points Claude Code at it (Env) and drives it to call mm's MCP tools.
package fakeanthropic

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Request is one request to /v1/messages, as the server read it.
type Request struct {
	Model  string
	Stream bool
	// Tools are the names of the tools the request offers.
	Tools    []string
	Messages []Message
	Raw      []byte
}

// Message is one message of a request; Content is a string or blocks.
type Message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// Block is one content block of a message.
type Block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"`
}

// ToolResult is the tool result the request's last message carries: its
// text (the text blocks joined), whether it is an error, and ok false
// when there is none.
func (r Request) ToolResult() (text string, isError, ok bool) {
	if len(r.Messages) == 0 {
		return "", false, false
	}
	var blocks []Block
	if json.Unmarshal(r.Messages[len(r.Messages)-1].Content, &blocks) != nil {
		return "", false, false
	}
	for _, b := range blocks {
		if b.Type != "tool_result" {
			continue
		}
		var s string
		if json.Unmarshal(b.Content, &s) == nil {
			return s, b.IsError, true
		}
		var parts []Block
		_ = json.Unmarshal(b.Content, &parts)
		var out []string
		for _, p := range parts {
			// Claude Code adds its own reminders after a tool's output.
			if p.Type == "text" && !strings.HasPrefix(p.Text, "<system-reminder>") {
				out = append(out, p.Text)
			}
		}
		return strings.Join(out, ""), b.IsError, true
	}
	return "", false, false
}

// Offers says the request offers the tool name.
func (r Request) Offers(name string) bool {
	for _, t := range r.Tools {
		if t == name {
			return true
		}
	}
	return false
}

// Reply is what the model answers: text, or a call of a tool.
type Reply struct {
	Text string
	Tool *ToolUse
}

// ToolUse is a call of a tool by the model.
type ToolUse struct {
	Name  string
	Input any
}

// Server is the fake API.
type Server struct {
	URL   string
	reply func(Request) Reply

	mu       sync.Mutex
	requests []Request
}

// Start serves the API until the test ends; reply answers each request.
func Start(t testing.TB, reply func(Request) Reply) *Server {
	s := &Server{reply: reply}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// Requests are the requests to /v1/messages so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Env prepares home as Claude Code's home and returns the variables that
// point it at the server with a fake key, its own configuration folder,
// no traffic but the API's, no update, and MCP tools offered to the model
// at once rather than found through its tool search.
func (s *Server) Env(home string) ([]string, error) {
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
		return nil, fmt.Errorf("prepare Claude Code's home: %w", err)
	}
	return []string{
		"HOME=" + home,
		"CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude"),
		"ANTHROPIC_BASE_URL=" + s.URL,
		"ANTHROPIC_API_KEY=sk-fake",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
		"ENABLE_TOOL_SEARCH=false",
		"NO_COLOR=1",
	}, nil
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		http.NotFound(w, r)
		return
	}
	raw, _ := io.ReadAll(r.Body)
	var body struct {
		Model    string    `json:"model"`
		Stream   bool      `json:"stream"`
		Messages []Message `json:"messages"`
		Tools    []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req := Request{Model: body.Model, Stream: body.Stream, Messages: body.Messages, Raw: raw}
	for _, t := range body.Tools {
		req.Tools = append(req.Tools, t.Name)
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	n := len(s.requests)
	s.mu.Unlock()
	rep := s.reply(req)
	blocks, stop := []map[string]any{{"type": "text", "text": rep.Text}}, "end_turn"
	if rep.Tool != nil {
		blocks = []map[string]any{{"type": "tool_use", "id": fmt.Sprintf("toolu_%d", n), "name": rep.Tool.Name, "input": rep.Tool.Input}}
		stop = "tool_use"
	}
	if !body.Stream {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": fmt.Sprintf("msg_%d", n), "type": "message", "role": "assistant",
			"model": body.Model, "content": blocks, "stop_reason": stop, "usage": map[string]int{"input_tokens": 10, "output_tokens": 5}})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	event := func(name string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
	}
	event("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": fmt.Sprintf("msg_%d", n), "type": "message",
		"role": "assistant", "model": body.Model, "content": []any{}, "usage": map[string]int{"input_tokens": 10, "output_tokens": 1}}})
	for i, b := range blocks {
		if b["type"] == "text" {
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": b["text"]}})
		} else {
			in, _ := json.Marshal(b["input"])
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}})
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}})
		}
		event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	event("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop}, "usage": map[string]int{"output_tokens": 5}})
	event("message_stop", map[string]any{"type": "message_stop"})
}
