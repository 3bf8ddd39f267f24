// Package llamatest is a test double of llama.cpp's llama-server, for the
// tests and benchmarks of mm's context window and of what a hand-off costs
// its cache: GET /props as llama.cpp answers it, chat completions streamed
// as llama.cpp streams them (usage and timings in the last chunk), a
// request over the window refused with llama.cpp's own error body, and its
// prompt cache: each request's timings say how many of its tokens were
// found in the cache (cache_n, the prefix shared with the slot's previous
// request and its reply) and how many were read anew (prompt_n). Like
// llama-server it runs slots (--parallel), each with a cache of its own: a
// request names its slot (id_slot), or takes the one llama-server would
// give it (pickSlot).
//
// Its tokenizer counts a token for every three bytes of the prompt as a
// chat template renders it: more tokens than mm's estimate of a token for
// four bytes, as real tokenizers give for code, so that a test sees mm
// rely on the server's counts.
package llamatest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// BytesPerToken is the tokenizer's ratio.
const BytesPerToken = 3

// Message is a message of a request, as OpenAI's API has it.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// ToolCall is a call in an assistant message.
type ToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// Request is a chat completion request.
type Request struct {
	Model    string            `json:"model"`
	Messages []Message         `json:"messages"`
	Tools    []json.RawMessage `json:"tools"`
	// IDSlot is the slot the request asks for; nil for any.
	IDSlot *int `json:"id_slot"`
}

// Reply is what the server answers: text, or tool calls (name and JSON
// arguments).
type Reply struct {
	Content string
	Calls   [][2]string
}

// Stat is the server's count of one request.
type Stat struct {
	// Tokens is the prompt's tokens; CacheN those found in the cache,
	// PromptN those read anew (Tokens = CacheN + PromptN).
	Tokens, CacheN, PromptN int
	// Refused says the request was over the window (HTTP 400).
	Refused bool
	// Slot is the slot that served it.
	Slot int
}

// Server is a running test server.
type Server struct {
	// URL is the API root, up to and including /v1.
	URL string
	srv *httptest.Server
	// nCtx is the window; props what /props says (0: no /props, HTTP 404).
	nCtx, props int
	reply       func(Request) Reply
	toolNames   bool

	// mu is held for a whole request: requests are served one at a
	// time, so that no slot is ever busy when one is picked (a real
	// server defers a request for a busy slot, and gives one that names
	// none an idle slot).
	mu    sync.Mutex
	slots []slot
	// clock orders the slots' last uses.
	clock int64
	// bodies are the bodies of the chat requests, in order; stats their
	// counts.
	bodies [][]byte
	stats  []Stat
	probes int
}

// Options configure a Server.
type Options struct {
	// NCtx is the window, in tokens.
	NCtx int
	// Props is the n_ctx GET /props says: 0 for NCtx, -1 for no /props at
	// all (an older server, HTTP 404), another number for a server that
	// says another window than it has.
	Props int
	// Reply answers each accepted request.
	Reply func(Request) Reply
	// Slots is how many slots the server runs (llama-server's
	// --parallel): 0 for one.
	Slots int
	// ToolNames makes the chat template write each tool by its name
	// alone: as some models' templates do, far less of the tools than
	// their JSON, which mm's estimate reads.
	ToolNames bool
}

// slot is one of the server's slots: the text its cache holds and when
// it was last used (-1: never, as llama-server's t_last_used).
type slot struct {
	cache    string
	lastUsed int64
}

// Start starts a server; Close stops it.
func Start(opts Options) *Server {
	s := &Server{nCtx: opts.NCtx, props: opts.Props, reply: opts.Reply, toolNames: opts.ToolNames, slots: make([]slot, max(1, opts.Slots))}
	if s.props == 0 {
		s.props = s.nCtx
	}
	for i := range s.slots {
		s.slots[i].lastUsed = -1
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /props", s.handleProps)
	mux.HandleFunc("GET /v1/models", s.handleModels)
	mux.HandleFunc("POST /v1/chat/completions", s.handleChat)
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL + "/v1"
	return s
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Bodies are the bodies of the chat requests received, in order.
func (s *Server) Bodies() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.bodies...)
}

// Stats are the counts of the chat requests received, in order.
func (s *Server) Stats() []Stat {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Stat(nil), s.stats...)
}

// Probes is how many times GET /props was asked.
func (s *Server) Probes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.probes
}

// handleProps answers GET /props with the fields of llama.cpp's answer
// that matter (the real one also has the chat template, the model's
// path, the build).
func (s *Server) handleProps(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.probes++
	s.mu.Unlock()
	if s.props < 0 {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	fmt.Fprintf(w, `{"default_generation_settings":{"n_ctx":%d,"params":{"n_predict":-1,"temperature":0.8}},"total_slots":%d,"model_path":"/models/test.gguf","build_info":"b6881-test","modalities":{"vision":false,"audio":false}}`, s.props, len(s.slots))
}

// handleModels answers GET /v1/models as llama-server does: the one model
// it was started with, named by its file.
func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	fmt.Fprint(w, `{"object":"list","data":[{"id":"/models/test.gguf","object":"model","created":1700000000,"owned_by":"llamacpp","meta":{"n_ctx_train":32768}}]}`)
}

// Render is the prompt of msgs and tools as a ChatML template writes it:
// the text the tokenizer reads.
func Render(req Request) string {
	var b strings.Builder
	for i, m := range req.Messages {
		b.WriteString("<|im_start|>" + m.Role + "\n" + m.Content)
		if i == 0 && m.Role == "system" && len(req.Tools) > 0 {
			b.WriteString("\n<tools>\n")
			for _, t := range req.Tools {
				b.Write(t)
				b.WriteByte('\n')
			}
			b.WriteString("</tools>")
		}
		for _, c := range m.ToolCalls {
			b.WriteString("\n<tool_call>" + c.Function.Name + " " + c.Function.Arguments + "</tool_call>")
		}
		b.WriteString("<|im_end|>\n")
	}
	return b.String()
}

// templated is req as the chat template reads it: with ToolNames, each
// tool is its name alone.
func (s *Server) templated(req Request) Request {
	if !s.toolNames {
		return req
	}
	short := make([]json.RawMessage, len(req.Tools))
	for i, t := range req.Tools {
		var tool struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		}
		_ = json.Unmarshal(t, &tool)
		short[i] = json.RawMessage(tool.Function.Name)
	}
	req.Tools = short
	return req
}

// Tokens is how many tokens the tokenizer makes of text.
func Tokens(text string) int { return (len(text) + BytesPerToken - 1) / BytesPerToken }

func (s *Server) handleChat(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var req Request
	if err := json.Unmarshal(body, &req); err != nil {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"error":{"code":400,"message":%q,"type":"invalid_request_error"}}`, err.Error())
		return
	}
	prompt := Render(s.templated(req))
	n := Tokens(prompt)
	s.mu.Lock()
	s.bodies = append(s.bodies, body)
	if n >= s.nCtx {
		s.stats = append(s.stats, Stat{Tokens: n, Refused: true})
		s.mu.Unlock()
		// llama.cpp's refusal: server_task_result_error::to_json for
		// ERROR_TYPE_EXCEED_CONTEXT_SIZE, sent with HTTP 400.
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"error":{"code":400,"message":"request (%d tokens) exceeds the available context size (%d tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":%d,"n_ctx":%d}}`,
			n, s.nCtx, n, s.nCtx)
		return
	}
	id := s.pickSlot(req.IDSlot, prompt)
	sl := &s.slots[id]
	cacheN := commonPrefix(sl.cache, prompt) / BytesPerToken
	reply := s.reply(req)
	calls := make([]ToolCall, len(reply.Calls))
	for i, c := range reply.Calls {
		// Ids that depend on the request only, as a resumed session needs.
		calls[i].ID = fmt.Sprintf("call_%d_%d", len(req.Messages), i)
		calls[i].Type = "function"
		calls[i].Function.Name, calls[i].Function.Arguments = c[0], c[1]
	}
	answer := Render(Request{Messages: []Message{{Role: "assistant", Content: reply.Content, ToolCalls: calls}}})
	sl.cache = prompt + answer
	s.clock++
	sl.lastUsed = s.clock
	s.stats = append(s.stats, Stat{Tokens: n, CacheN: cacheN, PromptN: n - cacheN, Slot: id})
	s.mu.Unlock()
	writeStream(w, reply.Content, calls, n, cacheN, Tokens(answer))
}

// SlotPromptSimilarity is llama-server's --slot-prompt-similarity
// default: the part of a prompt a slot's cache must share with it for the
// request to be given that slot.
const SlotPromptSimilarity = 0.1

// pickSlot is the slot llama-server's get_available_slot gives a request:
// the one it names, modulo the slots (a number past them wraps around);
// else the slot whose cache shares the largest part of the prompt, above
// SlotPromptSimilarity; else the least recently used, the last of equals.
// It keeps no host-memory copy of a slot it gives away (llama-server's
// --cache-ram). Called with s.mu held.
func (s *Server) pickSlot(idSlot *int, prompt string) int {
	if idSlot != nil && *idSlot >= 0 {
		return *idSlot % len(s.slots)
	}
	best, sim := -1, 0.0
	for i, sl := range s.slots {
		if sl.cache == "" {
			continue
		}
		if f := float64(commonPrefix(sl.cache, prompt)/BytesPerToken) / float64(Tokens(prompt)); f > sim && f > SlotPromptSimilarity {
			best, sim = i, f
		}
	}
	if best >= 0 {
		return best
	}
	lru := 0
	for i, sl := range s.slots {
		if sl.lastUsed <= s.slots[lru].lastUsed {
			lru = i
		}
	}
	return lru
}

// commonPrefix is the length in bytes of the prefix a and b share.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// writeStream sends the reply as llama.cpp streams it: a chunk for the
// text, one per call, the finishing chunk, then the usage and timings,
// then [DONE].
func writeStream(w http.ResponseWriter, content string, calls []ToolCall, prompt, cacheN, predicted int) {
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	type delta map[string]any
	choice := func(d delta, finish any) map[string]any {
		return map[string]any{"choices": []any{map[string]any{"index": 0, "delta": d, "finish_reason": finish}},
			"object": "chat.completion.chunk", "model": "test"}
	}
	chunk(choice(delta{"role": "assistant", "content": nil}, nil))
	if content != "" {
		chunk(choice(delta{"content": content}, nil))
	}
	for i, c := range calls {
		chunk(choice(delta{"tool_calls": []any{map[string]any{"index": i, "id": c.ID, "type": "function",
			"function": map[string]any{"name": c.Function.Name, "arguments": c.Function.Arguments}}}}, nil))
	}
	finish := "stop"
	if len(calls) > 0 {
		finish = "tool_calls"
	}
	chunk(choice(delta{}, finish))
	chunk(map[string]any{"choices": []any{}, "object": "chat.completion.chunk", "model": "test",
		"usage": map[string]any{"prompt_tokens": prompt, "completion_tokens": predicted, "total_tokens": prompt + predicted},
		"timings": map[string]any{"cache_n": cacheN, "prompt_n": prompt - cacheN, "prompt_ms": 1.0,
			"predicted_n": predicted, "predicted_ms": 1.0}})
	fmt.Fprint(w, "data: [DONE]\n\n")
}
