package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUsageFromTheServer: mm asks the server for its usage and reports it
// in --output-format json's result, from a stream recorded from llama.cpp
// (the usage and timings in its last chunks).
func TestUsageFromTheServer(t *testing.T) {
	stream, err := os.ReadFile(filepath.Join(repoRoot(), "internal", "llm", "openai", "testdata", "sse", "llamacpp_text.sse"))
	if err != nil {
		t.Fatal(err)
	}
	asked := make(chan bool, 1)
	srv := httptest.NewServer(chatOnly(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			StreamOptions struct {
				IncludeUsage bool `json:"include_usage"`
			} `json:"stream_options"`
		}
		json.Unmarshal(body, &req)
		asked <- req.StreamOptions.IncludeUsage
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(stream)
	})))
	defer srv.Close()
	stdout, stderr, code := runMM(t, srv.URL+"/v1", "", "-p", "--output-format", "json", "hi")
	if code != 0 || stderr != "" {
		t.Fatalf("code %d, stderr %q", code, stderr)
	}
	if !<-asked {
		t.Error("the request did not ask for stream_options.include_usage")
	}
	var res struct {
		Answer string          `json:"result"`
		Usage  json.RawMessage `json:"usage"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	want := `{"input_tokens":310,"output_tokens":42,"model_calls":1,"reported":1,"tokens_per_second":81.9}`
	if string(res.Usage) != want || !strings.HasPrefix(res.Answer, "Hello!") {
		t.Errorf("answer %q usage %s, want usage %s", res.Answer, res.Usage, want)
	}
}
