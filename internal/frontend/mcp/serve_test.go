package mcp

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// initialize is an MCP initialize request, a new session's first.
const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`

// serveHTTP serves opts on a loopback port until the test ends; it
// returns the endpoint's URL.
func serveHTTP(t *testing.T, opts Options) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if opts.Name == "" {
		opts.Name = "mm"
	}
	opts.NewSession = func(context.Context, orchestrator.Options) (Session, error) {
		return &fakeSession{asked: make(chan string, 1)}, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeHTTP(ctx, ln, opts) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return "http://" + ln.Addr().String() + "/mcp"
}

// post sends body to url as a client of the streamable transport does;
// it returns the status and the body's first line.
func post(t *testing.T, url, token, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	line, _, _ := strings.Cut(string(b), "\n")
	return resp.StatusCode, line
}

// TestHTTPBounds: the token is asked; a body past MaxBody is refused; MCP
// sessions are bounded, one more initialize answered 503 with one line.
func TestHTTPBounds(t *testing.T) {
	url := serveHTTP(t, Options{Token: "t0ken", MaxSessions: 2})
	if code, line := post(t, url, "", initialize); code != 401 || line != "a bearer token is required: Authorization: Bearer <token>" {
		t.Errorf("without the token: %d %q", code, line)
	}
	big := `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"` + strings.Repeat("x", MaxBody) + `"}}`
	if code, _ := post(t, url, "t0ken", big); code != http.StatusRequestEntityTooLarge {
		t.Errorf("a body past %d bytes: %d, want 413", MaxBody, code)
	}
	for i := range 2 {
		if code, _ := post(t, url, "t0ken", initialize); code != 200 {
			t.Fatalf("session %d: %d", i+1, code)
		}
	}
	if code, line := post(t, url, "t0ken", initialize); code != 503 || line != "mm serve holds 2 MCP sessions, its limit: try again when one has ended" {
		t.Errorf("one session more: %d %q", code, line)
	}
}
