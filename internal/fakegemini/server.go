// Package fakegemini is a Gemini API on loopback for the tests that ask
// Gemini CLI: it answers generation requests as the real API does (a
// stream of server-sent events for streamGenerateContent?alt=sse, one JSON
// object for generateContent, a count for countTokens), with what the test
// scripts the model to say, and keeps every request it was sent so that a
// test can read what reached the model.
package fakegemini

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Reply is what the model answers to one generation request: text, sent as
// one event per chunk, then function calls, if any, after Delay.
type Reply struct {
	Text  []string
	Calls []FunctionCall
	// Delay holds the answer back, as a slow model would; the server's
	// Close, or the client going away, ends the wait.
	Delay time.Duration
	// Error, when set, is the API's refusal instead of an answer: the
	// HTTP status Code (400 when 0) and its message.
	Error string
	Code  int
}

// Say is a Reply of text in the chunks given.
func Say(chunks ...string) Reply { return Reply{Text: chunks} }

// Call is a Reply that calls one function.
func Call(name string, args map[string]any) Reply {
	return Reply{Calls: []FunctionCall{{Name: name, Args: args}}}
}

// Answer chooses the Reply to a request.
type Answer func(Request) Reply

// Server is the fake API. Point Gemini CLI at URL with
// GOOGLE_GEMINI_BASE_URL (CLIEnv does).
type Server struct {
	URL       string
	answer    Answer
	hs        *httptest.Server
	closed    chan struct{}
	closeOnce sync.Once

	mu       sync.Mutex
	requests []Request
	received chan struct{} // closed and renewed at each request
}

// New starts a server on loopback that answers with answer. Close it.
func New(answer Answer) *Server {
	s := &Server{answer: answer, closed: make(chan struct{}), received: make(chan struct{})}
	s.hs = httptest.NewServer(s)
	s.URL = s.hs.URL
	return s
}

// Start is New, closed when the test ends.
func Start(t testing.TB, answer Answer) *Server {
	t.Helper()
	s := New(answer)
	t.Cleanup(s.Close)
	return s
}

// Close stops the server, ending the answers it holds back.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.closed)
		s.hs.Close()
	})
}

// Received is closed at the next request the server receives.
func (s *Server) Received() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.received
}

// Requests are the requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Generations are the generation requests received so far (stream or not),
// in order.
func (s *Server) Generations() []Request {
	var g []Request
	for _, r := range s.Requests() {
		if r.Method == "streamGenerateContent" || r.Method == "generateContent" {
			g = append(g, r)
		}
	}
	return g
}

// ServeHTTP answers POST /{version}/models/{model}:{method}.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	req := Request{Path: r.URL.Path, APIKey: r.Header.Get("x-goog-api-key")}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		apiError(w, http.StatusBadRequest, "read the request: "+err.Error())
		return
	}
	req.Raw = body
	// One connection a request: a client that reuses an idle connection
	// just as the other end drops it fails its request. (Gemini CLI's
	// "fetch failed" was seen once on a loaded machine, its cause not
	// found; this rules one out.) The API's keep-alive is not under test.
	w.Header().Set("Connection", "close")
	if _, rest, ok := strings.Cut(r.URL.Path, "/models/"); ok {
		req.Model, req.Method, _ = strings.Cut(rest, ":")
	}
	if r.Method == http.MethodPost && len(body) > 0 {
		if err := json.Unmarshal(body, &req.Body); err != nil {
			s.record(req)
			apiError(w, http.StatusBadRequest, "Invalid JSON payload received: "+err.Error())
			return
		}
	}
	s.record(req)

	switch {
	case r.Method != http.MethodPost:
		apiError(w, http.StatusNotFound, "the fake Gemini API has no "+r.Method+" "+r.URL.Path)
	case req.Method == "streamGenerateContent" && r.URL.Query().Get("alt") == "sse":
		if reply, ok := s.reply(r.Context(), w, req); ok {
			s.stream(w, req, reply)
		}
	case req.Method == "generateContent":
		if reply, ok := s.reply(r.Context(), w, req); ok {
			writeJSON(w, whole(req, reply))
		}
	case req.Method == "countTokens":
		writeJSON(w, map[string]any{"totalTokens": tokens(body)})
	default:
		apiError(w, http.StatusNotFound, "the fake Gemini API has no method "+r.URL.Path)
	}
}

func (s *Server) record(r Request) {
	s.mu.Lock()
	s.requests = append(s.requests, r)
	close(s.received)
	s.received = make(chan struct{})
	s.mu.Unlock()
}

// reply asks the Answer, and waits its Delay: false when the wait was cut
// short, or the answer is the API's refusal (sent): nothing more is to be
// sent.
func (s *Server) reply(ctx context.Context, w http.ResponseWriter, req Request) (Reply, bool) {
	r := s.answer(req)
	if r.Delay > 0 {
		t := time.NewTimer(r.Delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return r, false
		case <-s.closed:
			return r, false
		}
	}
	if r.Error != "" {
		code := r.Code
		if code == 0 {
			code = http.StatusBadRequest
		}
		apiError(w, code, r.Error)
		return r, false
	}
	return r, true
}

// stream sends the reply as the API does with alt=sse: one
// GenerateContentResponse an event, a chunk of text each, then the function
// calls; the last event has the finish reason and the usage of the whole.
func (s *Server) stream(w http.ResponseWriter, req Request, reply Reply) {
	var events []GenerateContentResponse
	for _, t := range reply.Text {
		events = append(events, response(req, []Part{{Text: t}}))
	}
	if len(reply.Calls) > 0 || len(events) == 0 {
		events = append(events, response(req, callParts(reply.Calls)))
	}
	final := response(req, nil)
	finish(&final, req, reply)
	last := &events[len(events)-1]
	last.Candidates[0].FinishReason = final.Candidates[0].FinishReason
	last.UsageMetadata = final.UsageMetadata

	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	flusher, _ := w.(http.Flusher)
	for _, e := range events {
		b, err := json.Marshal(e)
		if err != nil {
			return
		}
		if _, err := fmt.Fprintf(w, "data: %s\r\n\r\n", b); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
	}
}

// whole is the answer of generateContent: the reply in one response.
func whole(req Request, reply Reply) GenerateContentResponse {
	var parts []Part
	if text := strings.Join(reply.Text, ""); text != "" {
		parts = append(parts, Part{Text: text})
	}
	resp := response(req, append(parts, callParts(reply.Calls)...))
	finish(&resp, req, reply)
	return resp
}

// response is one GenerateContentResponse carrying parts, with the usage of
// the prompt so far, as the API sends before the end.
func response(req Request, parts []Part) GenerateContentResponse {
	if len(parts) == 0 {
		parts = []Part{{Text: ""}}
	}
	prompt := tokens(req.Raw)
	return GenerateContentResponse{
		Candidates:    []Candidate{{Content: Content{Role: "model", Parts: parts}}},
		UsageMetadata: &UsageMetadata{PromptTokenCount: prompt, TotalTokenCount: prompt},
		ModelVersion:  req.Model,
		ResponseID:    "fake-response",
	}
}

// finish marks resp as the end of reply: the finish reason, and the usage
// of the prompt and of the whole answer.
func finish(resp *GenerateContentResponse, req Request, reply Reply) {
	resp.Candidates[0].FinishReason = "STOP"
	out := tokens([]byte(strings.Join(reply.Text, "")))
	for _, c := range reply.Calls {
		b, _ := json.Marshal(c)
		out += tokens(b)
	}
	prompt := tokens(req.Raw)
	resp.UsageMetadata = &UsageMetadata{PromptTokenCount: prompt, CandidatesTokenCount: out, TotalTokenCount: prompt + out}
}

func callParts(calls []FunctionCall) []Part {
	var parts []Part
	for _, c := range calls {
		parts = append(parts, Part{FunctionCall: &c})
	}
	return parts
}

// tokens estimates the tokens of a text as the API's rule of thumb does:
// four bytes a token.
func tokens(b []byte) int { return (len(b) + 3) / 4 }

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_ = json.NewEncoder(w).Encode(v)
}

// apiError answers as the API does when it refuses a request.
func apiError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(code)
	status := map[int]string{
		http.StatusBadRequest: "INVALID_ARGUMENT", http.StatusForbidden: "PERMISSION_DENIED",
		http.StatusNotFound: "NOT_FOUND", http.StatusTooManyRequests: "RESOURCE_EXHAUSTED",
		http.StatusInternalServerError: "INTERNAL", http.StatusServiceUnavailable: "UNAVAILABLE",
	}[code]
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": code, "message": msg, "status": status}})
}
