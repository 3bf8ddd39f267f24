package httpdoor

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// TestDoorWildcard: an address that serves every name of the machine
// (0.0.0.0) takes any Host: the token guards it (mm serve requires one
// there); Origin and Content-Type are checked all the same.
func TestDoorWildcard(t *testing.T) {
	d := NewDoor(fakeAddr("0.0.0.0:8000"), "", nil, CORS{})
	if why := d.HostRefused("myhost.lan:8000"); why != "" {
		t.Errorf("a wildcard address refused a Host: %s", why)
	}
	d = NewDoor(fakeAddr("192.168.1.5:8000"), "myhost.lan", nil, CORS{})
	for host, refused := range map[string]bool{"myhost.lan:8000": false, "MYHOST.lan:8000": false, "192.168.1.5:8000": false,
		"localhost:8000": true, "myhost.lan:80": true, "myhost.lan": true} {
		if why := d.HostRefused(host); (why != "") != refused {
			t.Errorf("Host %q: refused %q, want refused %v", host, why, refused)
		}
	}
}

// TestPreflight: the preflight of an allowed origin is answered with what
// the protocol's pages may send, and its answers name what they may read.
func TestPreflight(t *testing.T) {
	d := NewDoor(fakeAddr("127.0.0.1:8000"), "", []string{"https://app.example"},
		CORS{Methods: []string{"GET", "POST", "DELETE"}, Headers: []string{"Content-Type", "Mcp-Session-Id"}, Expose: []string{"Mcp-Session-Id"}})
	r := httptest.NewRequest(http.MethodOptions, "http://127.0.0.1:8000/mcp", nil)
	r.Header.Set("Origin", "https://app.example")
	w := httptest.NewRecorder()
	if !d.Check(w, r) {
		t.Fatal("a preflight was not answered")
	}
	h := w.Result().Header
	for k, want := range map[string]string{
		"Access-Control-Allow-Origin":   "https://app.example",
		"Access-Control-Allow-Methods":  "GET, POST, DELETE",
		"Access-Control-Allow-Headers":  "Content-Type, Mcp-Session-Id",
		"Access-Control-Expose-Headers": "Mcp-Session-Id",
	} {
		if got := h.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	if w.Code != http.StatusNoContent {
		t.Errorf("status %d, want 204", w.Code)
	}
}

// TestWriteDeadline: a write to a client that reads nothing fails at the
// deadline, so that its request ends instead of holding for ever.
func TestWriteDeadline(t *testing.T) {
	failed := make(chan error, 1)
	h := Guard("", 1<<20, 100*time.Millisecond, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		piece := bytes.Repeat([]byte("x"), 1<<20)
		for {
			if _, err := w.Write(piece); err != nil {
				failed <- err
				return
			}
		}
	}))
	srv := httptest.NewServer(h)
	defer srv.Close()
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprint(conn, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	if err := <-failed; !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("the write to a client that reads nothing: %v, want a deadline exceeded", err)
	}
}

// TestGuardToken: without the token a request is refused with one line
// and the scheme to use; with it, it is served.
func TestGuardToken(t *testing.T) {
	h := Guard("s3cret", 1<<20, 0, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "served") }))
	for _, tc := range []struct{ auth, body string }{
		{"", "a bearer token is required: Authorization: Bearer <token>\n"},
		{"Bearer nope", "a bearer token is required: Authorization: Bearer <token>\n"},
		{"Bearer s3cret", "served"},
	} {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8000/", strings.NewReader("{}"))
		if tc.auth != "" {
			r.Header.Set("Authorization", tc.auth)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if got := w.Body.String(); got != tc.body {
			t.Errorf("Authorization %q: %q, want %q", tc.auth, got, tc.body)
		}
	}
}

type fakeAddr string

func (a fakeAddr) Network() string { return "tcp" }
func (a fakeAddr) String() string  { return string(a) }
