package openai

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/llm"
)

// serveStream answers every request with body as an event stream, written a
// few bytes at a time with a flush after each write, as a server producing
// tokens does: lines arrive cut at any byte.
func serveStream(body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		for rest := body; len(rest) > 0; {
			n := min(7, len(rest))
			w.Write(rest[:n])
			w.(http.Flusher).Flush()
			rest = rest[n:]
		}
	}
}

// testModel returns the model ref with provider pointed at srv.
func testModel(t *testing.T, ref string, srv *httptest.Server) llm.Model {
	t.Helper()
	provider, _, _ := strings.Cut(ref, "/")
	m, err := New(ref, Options{Providers: map[string]Provider{provider: {BaseURL: srv.URL + "/v1"}}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestStreamFixtures(t *testing.T) {
	tests := []struct {
		file    string
		want    llm.Reply
		pieces  string // onText's pieces, joined by "|"
		wantErr string
	}{
		{
			file:   "llamacpp_text.sse",
			want:   llm.Reply{Content: "Hello! The files are listed below.", FinishReason: "stop", Usage: llm.Usage{InputTokens: 310, OutputTokens: 42, Generation: 512900 * time.Microsecond}},
			pieces: "Hello|!| The| files| are| listed| below|.",
		},
		{
			file: "llamacpp_tools.sse",
			want: llm.Reply{Content: "Let me look.", FinishReason: "tool_calls", Usage: llm.Usage{InputTokens: 310, OutputTokens: 42, Generation: 512900 * time.Microsecond}, ToolCalls: []llm.ToolCall{
				{ID: "Kq3vZ0bNw7tC1sYpQe5hR2uD", Name: "bash", Arguments: `{"command":"ls -la /tmp"}`},
				{ID: "p8LrT2mVx0aGc9fJk4nS6wEq", Name: "read_file", Arguments: `{"path":"go.mod"}`},
			}},
			pieces: "Let| me| look|.",
		},
		{
			file:   "llamacpp_reasoning.sse",
			want:   llm.Reply{Content: "Hi!", FinishReason: "stop", Usage: llm.Usage{InputTokens: 310, OutputTokens: 42, Generation: 512900 * time.Microsecond}},
			pieces: "Hi|!",
		},
		{
			file:    "llamacpp_old_error.sse",
			pieces:  "Hel",
			wantErr: "llamacpp: error in the stream: the request exceeds the available context size, try increasing it",
		},
		{
			file:    "llamacpp_error.sse",
			wantErr: "llamacpp: error in the stream: Failed to parse tool call arguments as JSON",
		},
		{
			file: "ollama_tools.sse",
			want: llm.Reply{FinishReason: "tool_calls", ToolCalls: []llm.ToolCall{
				{ID: "call_wteop8bt", Name: "ask_agent", Arguments: `{"agent":"expert","question":"why?"}`},
				{ID: "call_rk2xye1l", Name: "ask_agent", Arguments: `{"agent":"critic","question":"why not?"}`},
			}},
		},
		{
			file: "ollama_noindex.sse",
			want: llm.Reply{FinishReason: "tool_calls", ToolCalls: []llm.ToolCall{
				{ID: "call_a1", Name: "bash", Arguments: `{"command":"date"}`},
				{ID: "call_b2", Name: "bash", Arguments: `{"command":"uptime"}`},
			}},
		},
		{
			file: "ollama_index0.sse",
			want: llm.Reply{FinishReason: "tool_calls", ToolCalls: []llm.ToolCall{
				{ID: "call_x1", Name: "bash", Arguments: `{"command":"pwd"}`},
				{ID: "call_x2", Name: "bash", Arguments: `{"command":"id"}`},
			}},
		},
		{
			file:   "ollama_usage.sse",
			want:   llm.Reply{Content: "Paris.", FinishReason: "stop", Usage: llm.Usage{InputTokens: 27, OutputTokens: 3}},
			pieces: "Paris|.",
		},
		{
			file:   "ollama_text.sse",
			want:   llm.Reply{Content: "Paris.", FinishReason: "stop"},
			pieces: "Paris|.",
		},
		{
			file: "noids.sse",
			want: llm.Reply{FinishReason: "tool_calls", ToolCalls: []llm.ToolCall{
				{ID: "call_1", Name: "write_file", Arguments: `{"path":"a.txt"}`},
				{ID: "call_2", Name: "bash", Arguments: `{}`},
			}},
		},
		{
			file: "function_call.sse",
			want: llm.Reply{FinishReason: "tool_calls", ToolCalls: []llm.ToolCall{
				{ID: "call_1", Name: "bash", Arguments: `{"command":"ls"}`},
			}},
		},
		{
			file: "object_args.sse",
			want: llm.Reply{FinishReason: "tool_calls", ToolCalls: []llm.ToolCall{
				{ID: "c1", Name: "bash", Arguments: `{"command":"ls"}`},
			}},
		},
		{
			file:   "crlf_nodone.sse",
			want:   llm.Reply{Content: "a\nb c", FinishReason: "length"},
			pieces: "a\nb| c",
		},
		{
			file:   "done_nofinish.sse",
			want:   llm.Reply{Content: "done", FinishReason: "stop"},
			pieces: "done",
		},
		{
			file:    "cut.sse",
			pieces:  "Half an ans",
			wantErr: "llamacpp stream ended before the reply was complete",
		},
		{
			file:    "badjson.sse",
			pieces:  "ok",
			wantErr: `llamacpp: bad data in the stream (unexpected end of JSON input): {"choices":[{"index":0,"delta":{"content":`,
		},
		{
			file:    "event_error.sse",
			wantErr: "llamacpp: error in the stream: model crashed",
		},
		{
			file:    "empty.sse",
			wantErr: "llamacpp: the server sent no chat completion stream (is baseURL the API root, ending in /v1?)",
		},
		{
			file:    "html.sse",
			wantErr: "llamacpp: the server sent no chat completion stream (is baseURL the API root, ending in /v1?)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			body, err := os.ReadFile(filepath.Join("testdata", "sse", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(serveStream(body))
			defer srv.Close()
			var pieces []string
			got, err := testModel(t, "llamacpp/qwen3-8b", srv).Stream(t.Context(),
				llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}},
				func(s string) { pieces = append(pieces, s) })
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error:\n got %v\nwant %s", err, tt.wantErr)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, tt.want) {
					t.Errorf("reply:\n got %#v\nwant %#v", got, tt.want)
				}
			}
			if p := strings.Join(pieces, "|"); p != tt.pieces {
				t.Errorf("pieces: got %q, want %q", p, tt.pieces)
			}
		})
	}
}

func TestRequest(t *testing.T) {
	var gotBody []byte
	var gotReq *http.Request
	body, _ := os.ReadFile("testdata/sse/llamacpp_text.sse")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotReq = r
		gotBody, _ = io.ReadAll(r.Body)
		serveStream(body)(w, r)
	}))
	defer srv.Close()
	m, err := New("mybox/qwen3:8b", Options{
		Providers: map[string]Provider{"mybox": {BaseURL: srv.URL + "/v1/", APIKeyEnv: "MYBOX_KEY"}},
		Getenv: func(k string) string {
			if k == "MYBOX_KEY" {
				return "sk-test"
			}
			return ""
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	req := llm.Request{
		Messages: []llm.Message{
			{Role: llm.RoleSystem, Content: "Be brief."},
			{Role: llm.RoleUser, Content: "List the files."},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{
				{ID: "call_1", Name: "bash", Arguments: `{"command":"ls"}`},
				{ID: "call_2", Name: "date"},
			}},
			{Role: llm.RoleTool, ToolCallID: "call_1", Name: "bash", Content: "a.txt\n"},
			{Role: llm.RoleTool, ToolCallID: "call_2", Name: "date", Content: "Monday"},
		},
		Tools: []llm.ToolSpec{
			{Name: "bash", Description: "Run a command.", Parameters: []byte(`{"type": "object", "properties": {"command": {"type": "string"}}}`)},
			{Name: "date"},
		},
	}
	if _, err := m.Stream(t.Context(), req, nil); err != nil {
		t.Fatal(err)
	}
	want := `{"model":"qwen3:8b","messages":[` +
		`{"role":"system","content":"Be brief."},` +
		`{"role":"user","content":"List the files."},` +
		`{"role":"assistant","content":"","tool_calls":[` +
		`{"id":"call_1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}},` +
		`{"id":"call_2","type":"function","function":{"name":"date","arguments":"{}"}}]},` +
		`{"role":"tool","content":"a.txt\n","tool_call_id":"call_1"},` +
		`{"role":"tool","content":"Monday","tool_call_id":"call_2"}],` +
		`"tools":[` +
		`{"type":"function","function":{"name":"bash","description":"Run a command.","parameters":{"type":"object","properties":{"command":{"type":"string"}}}}},` +
		`{"type":"function","function":{"name":"date","parameters":{"type":"object","properties":{}}}}],` +
		`"stream":true,"stream_options":{"include_usage":true}}`
	if string(gotBody) != want {
		t.Errorf("body:\n got %s\nwant %s", gotBody, want)
	}
	for _, h := range []struct{ key, want string }{
		{"Authorization", "Bearer sk-test"},
		{"Content-Type", "application/json"},
		{"Accept", "text/event-stream"},
	} {
		if got := gotReq.Header.Get(h.key); got != h.want {
			t.Errorf("header %s: got %q, want %q", h.key, got, h.want)
		}
	}
	if gotReq.Method != http.MethodPost || gotReq.URL.Path != "/v1/chat/completions" {
		t.Errorf("request: %s %s, want POST /v1/chat/completions", gotReq.Method, gotReq.URL.Path)
	}
}

func TestRequestNoToolsNoKey(t *testing.T) {
	var gotBody []byte
	var gotAuth []string
	body, _ := os.ReadFile("testdata/sse/ollama_text.sse")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotBody, _ = io.ReadAll(r.Body)
		gotAuth = r.Header.Values("Authorization")
		serveStream(body)(w, r)
	}))
	defer srv.Close()
	_, err := testModel(t, "ollama/qwen3:8b", srv).Stream(t.Context(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "<b>&</b>"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"qwen3:8b","messages":[{"role":"user","content":"\u003cb\u003e\u0026\u003c/b\u003e"}],"stream":true,"stream_options":{"include_usage":true}}`
	if string(gotBody) != want {
		t.Errorf("body:\n got %s\nwant %s", gotBody, want)
	}
	if gotAuth != nil {
		t.Errorf("Authorization sent without a key: %q", gotAuth)
	}
}

// TestRequestResponseFormat: a structured answer is asked for as
// response_format's json_schema, beside the tools.
func TestRequestResponseFormat(t *testing.T) {
	var gotBody []byte
	body, _ := os.ReadFile("testdata/sse/ollama_text.sse")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotBody, _ = io.ReadAll(r.Body)
		serveStream(body)(w, r)
	}))
	defer srv.Close()
	req := llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "Weather in Paris?"}},
		Tools:    []llm.ToolSpec{{Name: "date"}},
		Format:   &llm.JSONSchemaFormat{Name: "weather", Schema: []byte(`{"type":"object","required":["city"]}`), Strict: true},
	}
	if _, err := testModel(t, "ollama/qwen3:8b", srv).Stream(t.Context(), req, nil); err != nil {
		t.Fatal(err)
	}
	want := `{"model":"qwen3:8b","messages":[{"role":"user","content":"Weather in Paris?"}],` +
		`"tools":[{"type":"function","function":{"name":"date","parameters":{"type":"object","properties":{}}}}],` +
		`"stream":true,"stream_options":{"include_usage":true},` +
		`"response_format":{"type":"json_schema","json_schema":{"name":"weather","schema":{"type":"object","required":["city"]},"strict":true}}}`
	if string(gotBody) != want {
		t.Errorf("body:\n got %s\nwant %s", gotBody, want)
	}

	m, _ := New("ollama/x", Options{})
	_, err := m.Stream(t.Context(), llm.Request{Format: &llm.JSONSchemaFormat{Name: "w", Schema: []byte(`{`)}}, nil)
	if want := `ollama: response format "w": the schema is not valid JSON`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestBadToolParameters(t *testing.T) {
	m, err := New("ollama/x", Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Stream(t.Context(), llm.Request{Tools: []llm.ToolSpec{{Name: "bash", Parameters: []byte(`{"type":`)}}}, nil)
	want := `ollama: tool "bash": parameters are not valid JSON`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestMissingAPIKey(t *testing.T) {
	m, err := New("openai/gpt-4o-mini", Options{Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Stream(t.Context(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}, nil)
	want := "openai: no API key: set OPENAI_API_KEY"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// nginx502 is nginx's own error page, as a proxy in front of a model
// server that is down sends it.
const nginx502 = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n" +
	"<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.24.0 (Ubuntu)</center>\r\n</body>\r\n</html>\r\n"

func TestHTTPErrors(t *testing.T) {
	long := strings.Repeat("x", 400)
	tests := []struct {
		status int
		body   string
		want   string
	}{
		{500, `{"error":{"code":500,"message":"Failed to load model","type":"server_error"}}`,
			"llamacpp: HTTP 500: Failed to load model"},
		{404, `{"error":{"message":"model \"qwen9\" not found, try pulling it first","type":"api_error","param":null,"code":null}}`,
			`llamacpp: HTTP 404: model "qwen9" not found, try pulling it first`},
		{400, `{"error":"invalid character 'x' looking for beginning of value"}`,
			`llamacpp: HTTP 400: invalid character 'x' looking for beginning of value`},
		{422, `{"detail":"messages: field required"}`,
			"llamacpp: HTTP 422: messages: field required"},
		{401, "{\"error\":{\"message\":\"Incorrect API key provided.\\nSee the docs.\"}}",
			"llamacpp: HTTP 401: Incorrect API key provided. See the docs."},
		{404, "404 page not found\n", "llamacpp: HTTP 404: 404 page not found"},
		{502, "<html>\n<body>Bad Gateway</body>\n</html>\n", "llamacpp: HTTP 502 Bad Gateway (an HTML page with no title)"},
		{502, nginx502, `llamacpp: HTTP 502 Bad Gateway: "502 Bad Gateway"`},
		{500, "<!DOCTYPE html>\n<HTML><Head><TITLE lang=en>\n  Error &amp; \x1b[2J\u202e\n</TITLE>" + strings.Repeat("<p>x</p>", 20000),
			`llamacpp: HTTP 500 Internal Server Error: "Error & \x1b[2J\u202e"`},
		{520, "<!DOCTYPE html><html><head><title>example.com | 520: Web server is returning an unknown error</title>",
			`llamacpp: HTTP 520: "example.com | 520: Web server is returning an unknown error"`},
		{504, "", "llamacpp: HTTP 504: Gateway Timeout"},
		{500, long, "llamacpp: HTTP 500: " + long[:300] + "…"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.status), func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				io.WriteString(w, tt.body)
			}))
			defer srv.Close()
			_, err := testModel(t, "llamacpp/m", srv).Stream(t.Context(), llm.Request{}, nil)
			if err == nil || err.Error() != tt.want {
				t.Errorf("got %v\nwant %s", err, tt.want)
			}
		})
	}
}

// serveRaw answers with raw bytes on the bare connection, then closes it:
// a server that dies mid-reply.
func serveRaw(t *testing.T, raw string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		buf.WriteString(raw)
		buf.Flush()
		conn.Close()
	}))
}

func TestServerDies(t *testing.T) {
	chunked := func(s string) string { return fmt.Sprintf("%x\r\n%s\r\n", len(s), s) }
	const head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
	tests := []struct {
		name    string
		raw     string
		want    llm.Reply
		wantErr string
	}{
		{
			name: "chunked, cut mid-chunk",
			raw: head + "Transfer-Encoding: chunked\r\n\r\n" +
				chunked("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hal\"}}]}\n\n") + "40\r\ndata: {\"cho",
			wantErr: "llamacpp stream ended before the reply was complete: unexpected EOF",
		},
		{
			name: "chunked, no last chunk",
			raw: head + "Transfer-Encoding: chunked\r\n\r\n" +
				chunked("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hal\"}}]}\n\n"),
			wantErr: "llamacpp stream ended before the reply was complete: unexpected EOF",
		},
		{
			name: "closed connection ends the body",
			raw: head + "Connection: close\r\n\r\n" +
				"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hal\"}}]}\n\n",
			wantErr: "llamacpp stream ended before the reply was complete",
		},
		{
			name: "finished, then cut before [DONE]",
			raw: head + "Transfer-Encoding: chunked\r\n\r\n" +
				chunked("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Whole\"},\"finish_reason\":\"stop\"}]}\n\n"),
			want: llm.Reply{Content: "Whole", FinishReason: "stop"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serveRaw(t, tt.raw)
			defer srv.Close()
			got, err := testModel(t, "llamacpp/m", srv).Stream(t.Context(), llm.Request{}, nil)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("got %v\nwant %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

// freeURL returns a URL nothing listens at.
func freeURL(t *testing.T) (string, string) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, port, _ := net.SplitHostPort(addr)
	return "http://" + addr + "/v1", port
}

func TestUnreachable(t *testing.T) {
	base, port := freeURL(t)
	tests := []struct {
		provider string
		want     string
	}{
		{"llmman", "cannot reach llmman at " + base + ": is it running? start it with: llmman serve"},
		{"ollama", "cannot reach ollama at " + base + ": is it running? start it with: ollama serve"},
		{"llamacpp", "cannot reach llamacpp at " + base + ": is it running? start it with: llama-server -m <model.gguf> --port " + port},
		{"lmstudio", "cannot reach lmstudio at " + base + ": is it running? start the LM Studio server (in the app, or: lms server start)"},
		{"mybox", "cannot reach mybox at " + base + ": is it running? (providers.mybox.baseURL in the config says where it should be)"},
	}
	for _, tt := range tests {
		t.Run(tt.provider, func(t *testing.T) {
			m, err := New(tt.provider+"/m", Options{Providers: map[string]Provider{tt.provider: {BaseURL: base}}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = m.Stream(t.Context(), llm.Request{}, nil)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("got %v\nwant %s", err, tt.want)
			}
			if !errors.Is(err, syscall.ECONNREFUSED) {
				t.Errorf("error does not wrap ECONNREFUSED: %#v", err)
			}
		})
	}
}

func TestTransportError(t *testing.T) {
	dial := func(err error) error {
		return &url.Error{Op: "Post", URL: "x", Err: &net.OpError{Op: "dial", Net: "tcp", Err: err}}
	}
	tests := []struct {
		provider, base string
		err            error
		want           string
	}{
		{"ollama", "http://gpu.lan:11434/v1", dial(&net.DNSError{Err: "no such host", Name: "gpu.lan", IsNotFound: true}),
			"cannot reach ollama at http://gpu.lan:11434/v1 (no such host): is it running? start it with: ollama serve"},
		{"llamacpp", "http://10.0.0.9/v1", dial(os.ErrDeadlineExceeded),
			"cannot reach llamacpp at http://10.0.0.9/v1 (timed out): is it running? start it with: llama-server -m <model.gguf> --port 8080"},
		{"openai", "https://api.openai.com/v1", dial(syscall.ENETUNREACH),
			"cannot reach openai at https://api.openai.com/v1 (network is unreachable): check the network connection"},
		{"openai", "https://api.openai.com/v1", &url.Error{Op: "Post", URL: "https://api.openai.com/v1/chat/completions", Err: errors.New("tls: bad certificate")},
			`openai: POST https://api.openai.com/v1/chat/completions: Post "https://api.openai.com/v1/chat/completions": tls: bad certificate`},
	}
	for _, tt := range tests {
		if got := transportError(tt.provider, tt.base, tt.err).Error(); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}

func TestCancel(t *testing.T) {
	first := []byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Once\"}}]}\n\n")
	t.Run("mid-stream", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write(first)
			w.(http.Flusher).Flush()
			<-r.Context().Done() // a model that goes quiet
		}))
		defer srv.Close()
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		got, err := testModel(t, "ollama/m", srv).Stream(ctx, llm.Request{}, func(string) { cancel() })
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v, want context.Canceled", err)
		}
		if err.Error() != "ollama: context canceled" {
			t.Errorf("got %q", err)
		}
		if got.Content != "Once" {
			t.Errorf("content so far: got %q, want %q", got.Content, "Once")
		}
	})
	t.Run("before the reply", func(t *testing.T) {
		started := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body) // so the server notices the client leave
			close(started)
			<-r.Context().Done() // a model still loading
		}))
		defer srv.Close()
		ctx, cancel := context.WithCancel(t.Context())
		go func() {
			<-started
			cancel()
		}()
		_, err := testModel(t, "ollama/m", srv).Stream(ctx, llm.Request{}, nil)
		if !errors.Is(err, context.Canceled) || err.Error() != "ollama: context canceled" {
			t.Fatalf("got %v, want ollama: context canceled", err)
		}
	})
}

func TestLongLine(t *testing.T) {
	big := strings.Repeat("a", 5<<20)
	body := "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"write_file\",\"arguments\":\"{\\\"content\\\":\\\"" +
		big + "\\\"}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, body)
	}))
	defer srv.Close()
	got, err := testModel(t, "ollama/m", srv).Stream(t.Context(), llm.Request{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.ToolCalls) != 1 || got.ToolCalls[0].Arguments != `{"content":"`+big+`"}` {
		t.Errorf("the long call did not come through whole")
	}
}

func TestWholeJSONReply(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		io.WriteString(w, `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Sure.","tool_calls":[{"id":"t1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}]},"finish_reason":"tool_calls"}]}`)
	}))
	defer srv.Close()
	var pieces []string
	got, err := testModel(t, "lmstudio/m", srv).Stream(t.Context(), llm.Request{}, func(s string) { pieces = append(pieces, s) })
	if err != nil {
		t.Fatal(err)
	}
	want := llm.Reply{Content: "Sure.", FinishReason: "tool_calls", ToolCalls: []llm.ToolCall{{ID: "t1", Name: "bash", Arguments: `{"command":"ls"}`}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v\nwant %#v", got, want)
	}
	if !reflect.DeepEqual(pieces, []string{"Sure."}) {
		t.Errorf("pieces: %q", pieces)
	}
}

func TestMadeUpIDsAreUniquePerModel(t *testing.T) {
	body, _ := os.ReadFile("testdata/sse/noids.sse")
	srv := httptest.NewServer(serveStream(body))
	defer srv.Close()
	m := testModel(t, "llamacpp/m", srv)
	var ids []string
	for range 2 {
		r, err := m.Stream(t.Context(), llm.Request{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range r.ToolCalls {
			ids = append(ids, c.ID)
		}
	}
	if want := []string{"call_1", "call_2", "call_3", "call_4"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("ids: got %q, want %q", ids, want)
	}
}

func TestNormalFinish(t *testing.T) {
	tests := []struct {
		reason string
		calls  bool
		want   string
	}{
		{"stop", false, "stop"},
		{"eos", false, "stop"},
		{"", false, "stop"},
		{"stop", true, "tool_calls"},
		{"tool_calls", true, "tool_calls"},
		{"function_call", true, "tool_calls"},
		{"length", false, "length"},
		{"length", true, "length"},
		{"content_filter", false, "content_filter"},
		// A reason mm does not know must not leave calls unrun.
		{"content_filter", true, "tool_calls"},
		{"0", true, "tool_calls"},
	}
	for _, tt := range tests {
		if got := normalFinish(tt.reason, tt.calls); got != tt.want {
			t.Errorf("normalFinish(%q, %v) = %q, want %q", tt.reason, tt.calls, got, tt.want)
		}
	}
}

func BenchmarkReadStream(b *testing.B) {
	body, err := os.ReadFile("testdata/sse/llamacpp_tools.sse")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		acc := &accumulator{provider: "llamacpp", ids: new(atomic.Int64)}
		if err := acc.readStream(strings.NewReader(string(body)), func(string) {}); err != nil {
			b.Fatal(err)
		}
	}
}
