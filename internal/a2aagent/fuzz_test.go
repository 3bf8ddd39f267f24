package a2aagent

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/url"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/a2a"
)

// oneLine fails t unless err is one line naming the agent.
func oneLine(t *testing.T, err error) {
	t.Helper()
	if msg := err.Error(); !strings.HasPrefix(msg, `agent "x": `) || strings.ContainsAny(msg, "\n\r") {
		t.Fatalf("error %q: not one line naming the agent", msg)
	}
}

// FuzzStream: whatever an A2A server streams to message/stream, each
// event is applied to the task or refused with one line naming the agent,
// never a panic, and the task's outcome is an answer or one such line.
func FuzzStream(f *testing.F) {
	for _, s := range []string{
		"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"message\",\"messageId\":\"m\",\"role\":\"agent\",\"parts\":[{\"kind\":\"text\",\"text\":\"Paris.\"}]}}\n\n",
		"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"task\",\"id\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":\"working\"}}}\n\n" +
			"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"artifact-update\",\"taskId\":\"t\",\"contextId\":\"c\",\"artifact\":{\"artifactId\":\"a\",\"parts\":[{\"kind\":\"text\",\"text\":\"Par\"}]}}}\n\n" +
			"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"status-update\",\"taskId\":\"t\",\"contextId\":\"c\",\"final\":true,\"status\":{\"state\":\"completed\"}}}\n\n",
		"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,\"message\":\"internal\",\"data\":{\"error\":\"boom\"}}}\n\n",
		": keep-alive\r\nevent: x\r\ndata: {\"jsonrpc\":\"2.0\",\r\ndata: \"id\":1}\r\n\r\n",
		"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"status-update\",\"taskId\":\"t\",\"final\":true,\"status\":{\"state\":\"failed\",\"message\":{\"kind\":\"message\",\"messageId\":\"m\",\"role\":\"agent\",\"parts\":[{\"kind\":\"text\",\"text\":\"no\\nway\"}]}}}}\n\n",
	} {
		f.Add([]byte(s))
	}
	a := &Agent{opts: Options{Name: "x", URL: "http://a.example/"}}
	f.Fuzz(func(t *testing.T, body []byte) {
		var shown strings.Builder
		tk := &task{a: a, onText: func(s string) { shown.WriteString(s) }}
		events := newEventReader(bytes.NewReader(body))
		for !tk.ended() {
			data, err := events.next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("reading %q: %v", body, err)
			}
			if len(data) > len(body) {
				t.Fatalf("an event of %d bytes from %d", len(data), len(body))
			}
			var r eventResult
			if err := a.result("message/stream", data, &r); err != nil {
				oneLine(t, err)
				return
			}
			tk.apply(r.ev)
		}
		if err := tk.outcome(); err != nil {
			oneLine(t, err)
		}
	})
}

// FuzzCard: whatever agent card a server sends, its endpoint is an
// http(s) URL or the card is refused with one line naming the agent; with
// a token, never one at another origin.
func FuzzCard(f *testing.F) {
	for _, s := range []string{
		`{"name":"a","url":"http://a.example/rpc","preferredTransport":"JSONRPC"}`,
		`{"url":"https://b.example/","preferredTransport":"GRPC","additionalInterfaces":[{"url":"/rpc","transport":"JSONRPC"}]}`,
		`{"url":"javascript:alert(1)"}`, `{"url":"//evil.example/"}`, `{}`,
	} {
		f.Add([]byte(s), "")
		f.Add([]byte(s), "t")
	}
	f.Fuzz(func(t *testing.T, body []byte, token string) {
		var card a2a.AgentCard
		if json.Unmarshal(body, &card) != nil {
			return
		}
		a := &Agent{opts: Options{Name: "x", URL: "http://a.example/", Token: token, TokenEnv: "T"}}
		endpoint, err := a.endpointOf(&card)
		if err != nil {
			oneLine(t, err)
			return
		}
		u, err := url.Parse(endpoint)
		if err != nil || u.Scheme != "http" && u.Scheme != "https" {
			t.Fatalf("endpoint %q", endpoint)
		}
		if token != "" && (u.Scheme != "http" || u.Host != "a.example") {
			t.Fatalf("the token would go to %q", endpoint)
		}
	})
}
