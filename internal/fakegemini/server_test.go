package fakegemini_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/fakegemini"
)

// TestServerAnswersAsTheAPI: the events and objects the fake sends, byte
// for byte, for each method Gemini CLI calls.
func TestServerAnswersAsTheAPI(t *testing.T) {
	body := `{"contents":[{"role":"user","parts":[{"text":"context"},{"text":"hi"}]}]}` // 73 bytes: 19 tokens, at 4 bytes a token
	for _, tc := range []struct {
		name, path string
		reply      fakegemini.Reply
		status     int
		want       string
	}{{
		name:   "stream of text",
		path:   "/v1beta/models/m:streamGenerateContent?alt=sse",
		reply:  fakegemini.Say("Hel", "lo"),
		status: 200,
		want: `data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hel"}]},"index":0}],"usageMetadata":{"promptTokenCount":19,"totalTokenCount":19},"modelVersion":"m","responseId":"fake-response"}` + "\r\n\r\n" +
			`data: {"candidates":[{"content":{"role":"model","parts":[{"text":"lo"}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":19,"candidatesTokenCount":2,"totalTokenCount":21},"modelVersion":"m","responseId":"fake-response"}` + "\r\n\r\n",
	}, {
		name:   "stream of a function call",
		path:   "/v1beta/models/m:streamGenerateContent?alt=sse",
		reply:  fakegemini.Call("run_shell_command", map[string]any{"command": "ls"}),
		status: 200,
		want:   `data: {"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"run_shell_command","args":{"command":"ls"}}}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":19,"candidatesTokenCount":13,"totalTokenCount":32},"modelVersion":"m","responseId":"fake-response"}` + "\r\n\r\n",
	}, {
		name:   "whole answer",
		path:   "/v1beta/models/m:generateContent",
		reply:  fakegemini.Say("Hel", "lo"),
		status: 200,
		want:   `{"candidates":[{"content":{"role":"model","parts":[{"text":"Hello"}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":19,"candidatesTokenCount":2,"totalTokenCount":21},"modelVersion":"m","responseId":"fake-response"}` + "\n",
	}, {
		name:   "count",
		path:   "/v1beta/models/m:countTokens",
		status: 200,
		want:   `{"totalTokens":19}` + "\n",
	}, {
		name:   "refused",
		path:   "/v1beta/models/m:streamGenerateContent?alt=sse",
		reply:  fakegemini.Reply{Error: "API key not valid. Please pass a valid API key.", Code: 400},
		status: 400,
		want:   `{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}` + "\n",
	}, {
		name:   "unknown method",
		path:   "/v1beta/models/m:embedContent",
		status: 404,
		want:   `{"error":{"code":404,"message":"the fake Gemini API has no method /v1beta/models/m:embedContent","status":"NOT_FOUND"}}` + "\n",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakegemini.Start(t, func(fakegemini.Request) fakegemini.Reply { return tc.reply })
			resp, err := http.Post(srv.URL+tc.path, "application/json", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			got, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tc.status || string(got) != tc.want {
				t.Errorf("status %d, body\n%s\nwant status %d, body\n%s", resp.StatusCode, got, tc.status, tc.want)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 || reqs[0].UserText() != "hi" {
				t.Errorf("requests kept %+v, want one whose question is \"hi\"", reqs)
			}
		})
	}
}
