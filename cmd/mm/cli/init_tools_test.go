package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/llm/openai"
	"github.com/mm-agent/mm/internal/mmconfigs"
)

// ollamaServer is an Ollama as mm init reads it: GET /v1/models with the
// models named, in order, and POST /api/show with each one's
// capabilities, "tools" among them for those marked with tools.
func ollamaServer(t *testing.T, models []string, tools map[string]bool) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.Method + " " + r.URL.Path {
		case "GET /v1/models":
			var data []string
			for _, id := range models {
				data = append(data, `{"id":"`+id+`","object":"model"}`)
			}
			w.Write([]byte(`{"object":"list","data":[` + strings.Join(data, ",") + `]}`))
		case "POST /api/show":
			var req struct{ Model string }
			json.NewDecoder(r.Body).Decode(&req)
			caps := `["completion"]`
			if tools[req.Model] {
				caps = `["completion","tools"]`
			}
			w.Write([]byte(`{"parameters":"","capabilities":` + caps + `}`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestInitPicksAModelWithTools: mm init lists which models support tools
// (an Ollama's capabilities), offers the first that does, else the first
// whose server does not say; says so when none does; and, without a
// terminal, says which it took and why.
func TestInitPicksAModelWithTools(t *testing.T) {
	mixed := ollamaServer(t, []string{"tiny:latest", "qwen3:8b", "llama3.2:3b"}, map[string]bool{"qwen3:8b": true, "llama3.2:3b": true})
	toolless := ollamaServer(t, []string{"tiny:latest", "smol:1b"}, nil)
	llamacpp := modelsServer(t, "default")
	tests := []struct {
		name        string
		servers     []openai.LocalServer
		interactive bool
		stdin       string
		want        string // the model written
		wantOut     string
		wantErr     string
	}{
		{name: "no terminal: the first with tools", servers: []openai.LocalServer{{Provider: "ollama", BaseURL: mixed.URL + "/v1"}},
			want:    "ollama/qwen3:8b",
			wantErr: "mm init: using ollama/qwen3:8b, the first of 3 model(s) found that supports tools (choose another with --model)\n"},
		{name: "a terminal: the list says which, the first with tools offered", servers: []openai.LocalServer{{Provider: "ollama", BaseURL: mixed.URL + "/v1"}},
			interactive: true, stdin: "\n", want: "ollama/qwen3:8b",
			wantOut: "Models on the local servers:\n  1. ollama/tiny:latest (no tools)\n  2. ollama/qwen3:8b (tools)\n  3. ollama/llama3.2:3b (tools)\nWhich model? [2]: "},
		{name: "none with tools: one whose server does not say", servers: []openai.LocalServer{
			{Provider: "ollama", BaseURL: toolless.URL + "/v1"}, {Provider: "llamacpp", BaseURL: llamacpp.URL + "/v1"}},
			want:    "llamacpp/default",
			wantErr: "mm init: using llamacpp/default, the first of 3 model(s) found (its server does not say whether it supports tools; choose another with --model)\n"},
		{name: "none with tools, no terminal", servers: []openai.LocalServer{{Provider: "ollama", BaseURL: toolless.URL + "/v1"}},
			want:    "ollama/tiny:latest",
			wantErr: "mm init: using ollama/tiny:latest, the first of 2 model(s) found; none of them supports tools, so the agent can only answer: fetch one that does (ollama pull qwen3:8b) (choose another with --model)\n"},
		{name: "none with tools, a terminal", servers: []openai.LocalServer{{Provider: "ollama", BaseURL: toolless.URL + "/v1"}},
			interactive: true, stdin: "2\n", want: "ollama/smol:1b",
			wantOut: "Models on the local servers:\n  1. ollama/tiny:latest (no tools)\n  2. ollama/smol:1b (no tools)\n(none of them supports tools, so the agent can only answer: fetch one that does (ollama pull qwen3:8b))\nWhich model? [1]: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			var stdout, stderr bytes.Buffer
			code := runInit(context.Background(), initOptions{
				Dir: dir, Servers: tt.servers, Client: &http.Client{},
				Stdin: strings.NewReader(tt.stdin), Stdout: &stdout, Interactive: tt.interactive,
			}, &stderr)
			if code != 0 {
				t.Fatalf("runInit = %d, stderr %q", code, stderr.String())
			}
			if stderr.String() != tt.wantErr {
				t.Errorf("stderr\n got %q\nwant %q", stderr.String(), tt.wantErr)
			}
			if !strings.HasPrefix(stdout.String(), tt.wantOut) {
				t.Errorf("stdout\n got %q\nwant it to begin %q", stdout.String(), tt.wantOut)
			}
			c, err := mmconfigs.Load(initMainFile, dir, func(string) string { return "" })
			if err != nil {
				t.Fatal(err)
			}
			if c.Model != tt.want {
				t.Errorf("model %q, want %q", c.Model, tt.want)
			}
		})
	}
}
