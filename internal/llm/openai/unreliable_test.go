package openai

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mm-agent/mm/internal/llm"
)

// pipeListener is a net.Listener over in-memory pipes. A real http.Server
// serves on it inside a synctest bubble, where time is virtual: a model
// server that stalls for minutes, or a back-off of seconds, passes at once.
// (Loopback sockets would keep the bubble from ever being idle.)
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

func (l *pipeListener) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	srv, cli := net.Pipe()
	select {
	case l.conns <- srv:
		return cli, nil
	case <-l.done:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }

// pipeModel returns the model ref, its provider p pointed at a real
// http.Server running handler over pipes; it must be called in a bubble.
// Its notices go to notify.
func pipeModel(t *testing.T, ref string, p Provider, handler http.Handler, notify func(string)) llm.Model {
	t.Helper()
	l := &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
	srv := &http.Server{Handler: handler}
	served := make(chan struct{})
	go func() {
		defer close(served)
		srv.Serve(l)
	}()
	tr := &http.Transport{DialContext: l.dial}
	t.Cleanup(func() {
		tr.CloseIdleConnections()
		srv.Close()
		<-served
	})
	provider, _, _ := strings.Cut(ref, "/")
	p.BaseURL = "http://" + provider + ".test/v1"
	m, err := New(ref, Options{
		Providers:  map[string]Provider{provider: p},
		HTTPClient: &http.Client{Transport: tr},
		Notify:     notify,
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// collect returns a notify func that appends to *lines.
func collect(lines *[]string) func(string) {
	return func(line string) { *lines = append(*lines, line) }
}

const firstPiece = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Once\"}}]}\n\n"

// stall writes what it is given, flushing each, then waits for the client
// to leave: a model server that hangs.
func stall(pieces ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if len(pieces) > 0 {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
		}
		for _, p := range pieces[min(1, len(pieces)):] {
			io.WriteString(w, p)
			w.(http.Flusher).Flush()
		}
		<-r.Context().Done()
	}
}

func TestStall(t *testing.T) {
	const before = "sent nothing for 5m0s (idleTimeout) at http://ollama.test/v1 (model qwen3:8b): " +
		"the model server stalled before answering; check that it is running, " +
		"or raise providers.ollama.idleTimeout if the model needs longer to read a long prompt"
	tests := []struct {
		name    string
		handler http.HandlerFunc
		idle    time.Duration
		content string
		wantErr string
		waited  time.Duration
	}{
		{"before the headers", stall(), 0, "", "ollama " + before, DefaultIdleTimeout},
		{"after the headers", stall("headers"), 0, "", "ollama " + before, DefaultIdleTimeout},
		{"after one piece", stall("headers", firstPiece), 0, "Once",
			"ollama sent nothing for 5m0s (idleTimeout) at http://ollama.test/v1 (model qwen3:8b): " +
				"the model server stalled mid-reply; check that it is still running and try again, " +
				"or raise providers.ollama.idleTimeout",
			DefaultIdleTimeout},
		{"idleTimeout set", stall("headers", firstPiece), 90 * time.Second, "Once",
			"ollama sent nothing for 1m30s (idleTimeout) at http://ollama.test/v1 (model qwen3:8b): " +
				"the model server stalled mid-reply; check that it is still running and try again, " +
				"or raise providers.ollama.idleTimeout",
			90 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var notices []string
				m := pipeModel(t, "ollama/qwen3:8b", Provider{IdleTimeout: tt.idle}, tt.handler, collect(&notices))
				start := time.Now()
				got, err := m.Stream(t.Context(), llm.Request{}, nil)
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error:\n got %v\nwant %s", err, tt.wantErr)
				}
				if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("a stall reads as a cancellation: %#v", err)
				}
				if got.Content != tt.content {
					t.Errorf("content so far: got %q, want %q", got.Content, tt.content)
				}
				if waited := time.Since(start); waited != tt.waited {
					t.Errorf("gave up after %v, want %v", waited, tt.waited)
				}
			})
		})
	}
}

// TestSlowButAlive: every byte resets the idle time, so a model that takes
// minutes between pieces (a long prompt, a slow laptop) is waited for.
func TestSlowButAlive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		body, err := os.ReadFile("testdata/sse/ollama_text.sse")
		if err != nil {
			t.Fatal(err)
		}
		var notices []string
		m := pipeModel(t, "ollama/qwen3:8b", Provider{}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "text/event-stream")
			for _, line := range strings.SplitAfter(string(body), "\n") {
				select { // the prompt, then each piece, takes its time
				case <-time.After(DefaultIdleTimeout - time.Second):
				case <-r.Context().Done():
					return
				}
				io.WriteString(w, line)
				w.(http.Flusher).Flush()
			}
		}), collect(&notices))
		got, err := m.Stream(t.Context(), llm.Request{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got.Content != "Paris." {
			t.Errorf("got %q, want Paris.", got.Content)
		}
	})
}

// TestStallCancel: Ctrl-C ends a stalled stream at once, whatever the idle
// time left.
func TestStallCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var notices []string
		m := pipeModel(t, "ollama/m", Provider{}, stall("headers", firstPiece), collect(&notices))
		ctx, cancel := context.WithCancel(t.Context())
		start := time.Now()
		got, err := m.Stream(ctx, llm.Request{}, func(string) { cancel() })
		if !errors.Is(err, context.Canceled) || err.Error() != "ollama: context canceled" {
			t.Fatalf("got %v, want ollama: context canceled", err)
		}
		if got.Content != "Once" {
			t.Errorf("content so far: got %q", got.Content)
		}
		if waited := time.Since(start); waited != 0 {
			t.Errorf("the cancel waited %v", waited)
		}
	})
}

// busy answers status (with a Retry-After when after is set) to the first n
// requests, then streams the fixture. It counts the requests in *calls.
func busy(t *testing.T, n, status int, after func() string, calls *int) http.HandlerFunc {
	body, err := os.ReadFile("testdata/sse/ollama_text.sse")
	if err != nil {
		t.Fatal(err)
	}
	return func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		*calls++
		if *calls <= n {
			if after != nil {
				w.Header().Set("Retry-After", after())
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			io.WriteString(w, `{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}`)
			return
		}
		serveStream(body)(w, r)
	}
}

func TestRetry(t *testing.T) {
	seconds := func(s string) func() string { return func() string { return s } }
	tests := []struct {
		name    string
		n       int
		status  int
		after   func() string
		calls   int
		waited  time.Duration
		notices []string
		wantErr string
	}{
		{
			name: "503 three times", n: 3, status: 503, calls: 4, waited: 14 * time.Second,
			notices: []string{
				"ollama is busy (HTTP 503: Loading model): retrying in 2s (attempt 2 of 5)",
				"ollama is busy (HTTP 503: Loading model): retrying in 4s (attempt 3 of 5)",
				"ollama is busy (HTTP 503: Loading model): retrying in 8s (attempt 4 of 5)",
			},
		},
		{
			name: "429 with Retry-After in seconds", n: 1, status: 429, after: seconds("7"), calls: 2, waited: 7 * time.Second,
			notices: []string{"ollama is busy (HTTP 429: Loading model): retrying in 7s (attempt 2 of 5)"},
		},
		{
			name: "429 with Retry-After as a date", n: 1, status: 429, calls: 2, waited: 12 * time.Second,
			after:   func() string { return time.Now().Add(12 * time.Second).UTC().Format(http.TimeFormat) },
			notices: []string{"ollama is busy (HTTP 429: Loading model): retrying in 12s (attempt 2 of 5)"},
		},
		{
			name: "Retry-After in the past", n: 1, status: 503, calls: 2, waited: 0,
			after:   func() string { return time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat) },
			notices: []string{"ollama is busy (HTTP 503: Loading model): retrying in 0s (attempt 2 of 5)"},
		},
		{
			name: "a bad Retry-After is the back-off", n: 1, status: 503, after: seconds("soon"), calls: 2, waited: 2 * time.Second,
			notices: []string{"ollama is busy (HTTP 503: Loading model): retrying in 2s (attempt 2 of 5)"},
		},
		{
			name: "503 for ever", n: 1000, status: 503, calls: 5, waited: 30 * time.Second,
			notices: []string{
				"ollama is busy (HTTP 503: Loading model): retrying in 2s (attempt 2 of 5)",
				"ollama is busy (HTTP 503: Loading model): retrying in 4s (attempt 3 of 5)",
				"ollama is busy (HTTP 503: Loading model): retrying in 8s (attempt 4 of 5)",
				"ollama is busy (HTTP 503: Loading model): retrying in 16s (attempt 5 of 5)",
			},
			wantErr: "ollama: HTTP 503: Loading model (still busy after 5 attempts in 30s; try again later)",
		},
		{
			name: "Retry-After over the cap", n: 1000, status: 429, after: seconds("3600"), calls: 1,
			wantErr: "ollama: HTTP 429: Loading model (the server asks to retry in 1h0m0s, longer than mm waits (30s); try again later)",
		},
		{
			name: "500 is not retried", n: 1, status: 500, calls: 1,
			wantErr: "ollama: HTTP 500: Loading model",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var notices []string
				calls := 0
				m := pipeModel(t, "ollama/qwen3:8b", Provider{}, busy(t, tt.n, tt.status, tt.after, &calls), collect(&notices))
				start := time.Now()
				got, err := m.Stream(t.Context(), llm.Request{}, nil)
				if tt.wantErr != "" {
					if err == nil || err.Error() != tt.wantErr {
						t.Fatalf("error:\n got %v\nwant %s", err, tt.wantErr)
					}
				} else {
					if err != nil {
						t.Fatal(err)
					}
					if got.Content != "Paris." {
						t.Errorf("got %q, want Paris.", got.Content)
					}
				}
				if calls != tt.calls {
					t.Errorf("%d requests, want %d", calls, tt.calls)
				}
				if waited := time.Since(start); waited != tt.waited {
					t.Errorf("waited %v, want %v", waited, tt.waited)
				}
				if !reflect.DeepEqual(notices, tt.notices) {
					t.Errorf("notices:\n got %q\nwant %q", notices, tt.notices)
				}
			})
		})
	}
}

// TestRetryCancel: Ctrl-C during a back-off ends the call at once.
func TestRetryCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		calls := 0
		m := pipeModel(t, "ollama/m", Provider{}, busy(t, 1000, 503, nil, &calls), func(string) { cancel() })
		start := time.Now()
		_, err := m.Stream(ctx, llm.Request{}, nil)
		if !errors.Is(err, context.Canceled) || err.Error() != "ollama: context canceled" {
			t.Fatalf("got %v, want ollama: context canceled", err)
		}
		if calls != 1 {
			t.Errorf("%d requests after the cancel, want 1", calls)
		}
		if waited := time.Since(start); waited != 0 {
			t.Errorf("the cancel waited %v", waited)
		}
	})
}

// TestStallRealSocket: the idle time holds over a real connection too.
func TestStallRealSocket(t *testing.T) {
	ts := httptest.NewServer(stall("headers"))
	defer ts.Close()
	srv := ts.URL
	m, err := New("llamacpp/m", Options{Providers: map[string]Provider{
		"llamacpp": {BaseURL: srv + "/v1", IdleTimeout: 50 * time.Millisecond},
	}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Stream(t.Context(), llm.Request{}, nil)
	want := "llamacpp sent nothing for 50ms (idleTimeout) at " + srv + "/v1 (model m): the model server stalled before answering"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("got %v\nwant %s…", err, want)
	}
}
