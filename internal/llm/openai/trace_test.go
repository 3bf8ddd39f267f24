package openai

import (
	"context"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
)

// TestTrace: what the model sends and receives is given to Trace line by
// line, the body of a stream as it comes in pieces, and the API key is
// never in it.
func TestTrace(t *testing.T) {
	body := []byte("data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n")
	srv := httptest.NewServer(serveStream(body))
	defer srv.Close()
	var mu sync.Mutex
	var lines []string
	m, err := New("custom/m", Options{
		Providers: map[string]Provider{"custom": {BaseURL: strings.Replace(srv.URL, "http://", "http://me:pw@", 1) + "/v1", APIKeyEnv: "KEY"}},
		Getenv:    func(k string) string { return map[string]string{"KEY": "sk-secret"}[k] },
		Trace:     func(l string) { mu.Lock(); lines = append(lines, l); mu.Unlock() },
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hello"}}}, func(string) {}); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(lines, "\n")
	got = regexp.MustCompile(`127\.0\.0\.1:\d+`).ReplaceAllString(got, "HOST")
	got = regexp.MustCompile(`(?m)^← (Date|Content-Length): .*\n`).ReplaceAllString(got, "")
	want := `→ POST http://me:xxxxx@HOST/v1/chat/completions
→ Accept: text/event-stream
→ Authorization: [hidden]
→ Content-Type: application/json
→ {"model":"m","messages":[{"role":"user","content":"hello"}],"stream":true,"stream_options":{"include_usage":true}}
← HTTP/1.1 200 OK
← Content-Type: text/event-stream
← data: {"choices":[{"delta":{"content":"hi"}}]}
← 
← data: [DONE]
← `
	if got != want {
		t.Errorf("trace:\n%s\nwant:\n%s", got, want)
	}
	if strings.Contains(strings.Join(lines, "\n"), "sk-secret") || strings.Contains(strings.Join(lines, "\n"), ":pw@") {
		t.Error("the trace shows a secret")
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://api.example/v1/chat/completions":            "https://api.example/v1/chat/completions",
		"https://u:p@api.example/v1":                         "https://u:xxxxx@api.example/v1",
		"https://api.example/v1/models?key=abc&alt=sse":      "https://api.example/v1/models?alt=sse&key=hidden",
		"https://api.example/v1/models?access_token=abc&x=1": "https://api.example/v1/models?access_token=hidden&x=1",
	} {
		u, _ := url.Parse(in)
		if got := redactURL(u); got != want {
			t.Errorf("redactURL(%s) = %s, want %s", in, got, want)
		}
	}
}
