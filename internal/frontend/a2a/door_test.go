package a2a

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// rpcBody is a message/send of "hi".
const rpcBody = `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"hi"}]}}}`

// TestDoor: a request not addressed to the address served, from a web page
// not named with --allow-origin, or whose body is not JSON is refused
// before it is read, with one line: what a web page can send to 127.0.0.1
// without a preflight (text/plain, its own Origin, its own name as the
// Host after DNS rebinding) is answered nothing.
func TestDoor(t *testing.T) {
	url, f, _ := serve(t, Options{AllowOrigins: []string{"https://app.example"}})
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	_, port, _ := strings.Cut(addr, ":")
	tests := []struct {
		name, method, path, host, origin, ctype string
		status                                  int
		body                                    string // the start of the body
	}{
		{"a web page's simple POST", "POST", "/", "evil.example:" + port, "http://evil.example", "text/plain", 421,
			`mm serve answers requests for 127.0.0.1:` + port + `, not for the Host "evil.example:` + port + `"`},
		{"a rebound name", "POST", "/", "evil.example:" + port, "", "application/json", 421, "mm serve answers requests for"},
		{"another port", "POST", "/", "127.0.0.1:1", "", "application/json", 421, "mm serve answers requests for"},
		{"the card, by a rebound name", "GET", "/.well-known/agent-card.json", "evil.example", "", "", 421, "mm serve answers requests for"},
		{"a foreign Origin", "POST", "/", addr, "http://evil.example", "application/json", 403,
			`mm serve answers no web page: the request's Origin "http://evil.example" is not one --allow-origin names`},
		{"an Origin of null", "POST", "/", addr, "null", "application/json", 403, `mm serve answers no web page: the request's Origin "null"`},
		{"text/plain", "POST", "/", addr, "", "text/plain", 415, "mm serve reads JSON-RPC: send the request with Content-Type: application/json"},
		{"no Content-Type", "POST", "/", addr, "", "", 415, "mm serve reads JSON-RPC"},
		{"form", "POST", "/", addr, "", "application/x-www-form-urlencoded", 415, "mm serve reads JSON-RPC"},
		{"JSON at 127.0.0.1", "POST", "/", addr, "", "application/json", 200, `{"jsonrpc":"2.0"`},
		{"JSON at localhost", "POST", "/", "localhost:" + port, "", "application/json; charset=utf-8", 200, `{"jsonrpc":"2.0"`},
		{"JSON at [::1]", "POST", "/", "[::1]:" + port, "", "application/json", 200, `{"jsonrpc":"2.0"`},
		{"an allowed origin", "POST", "/", addr, "https://app.example", "application/json", 200, `{"jsonrpc":"2.0"`},
		{"an allowed origin's preflight", "OPTIONS", "/", addr, "https://app.example", "", 204, ""},
		{"the card", "GET", "/.well-known/agent-card.json", addr, "", "", 200, `{`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body io.Reader
			if tt.method == "POST" {
				body = strings.NewReader(rpcBody)
			}
			req, err := http.NewRequest(tt.method, url+strings.TrimPrefix(tt.path, "/"), body)
			if err != nil {
				t.Fatal(err)
			}
			req.Host = tt.host
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			if tt.ctype != "" {
				req.Header.Set("Content-Type", tt.ctype)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.status || !strings.HasPrefix(string(b), tt.body) {
				t.Errorf("%s, %q; want %d, %q…", resp.Status, b, tt.status, tt.body)
			}
			if got := resp.Header.Get("Access-Control-Allow-Origin"); tt.origin == "https://app.example" && got != tt.origin {
				t.Errorf("Access-Control-Allow-Origin %q, want %q", got, tt.origin)
			}
		})
	}
	// Only the four requests let in reached a session.
	if started, _ := f.counts(); started != 4 {
		t.Errorf("%d sessions started, want 4 (the requests let in)", started)
	}
}
