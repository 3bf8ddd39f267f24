package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckShowsACardVisibly: the name and version an A2A agent's card
// gives reach mm check's output made visible on one line, as an ACP
// agent's agentInfo does (check_visible.txtar): a card cannot set the
// terminal's title, nor erase the lines above.
func TestCheckShowsACardVisibly(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/.well-known/agent-card.json" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"name": "\x1b]0;pwned\x07evil", "version": "1.0\n\x1b[1A\x1b[2K", "description": "d",
			"url": "http://" + r.Host + "/rpc", "protocolVersion": "0.3.0", "preferredTransport": "JSONRPC",
			"capabilities": map[string]any{"streaming": true}, "defaultInputModes": []string{"text/plain"},
			"defaultOutputModes": []string{"text/plain"}, "skills": []any{},
		})
	}))
	defer srv.Close()

	dir := t.TempDir()
	cfg := "model: echo/main\nmmConfigs:\n  odd: {a2a: " + srv.URL + "/}\n"
	if err := os.WriteFile(filepath.Join(dir, "agent.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(mmBin, "check", "--config", "agent.yaml")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MM_CONFIG=", "MM_MODEL=", "MM_ASKED_DEPTH=")
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("mm check: %v\n%s", err, errb.String())
	}
	want := "mm devel | config: agent.yaml | model: echo/main | agents: odd | sandbox: workspace, network on | yolo: off\n" +
		`  agent odd (a2a): served its agent card: \x1b]0;pwned\x07evil 1.0\n\x1b[1A\x1b[2K; it runs outside mm's sandbox` + "\n"
	if out.String() != want {
		t.Errorf("mm check printed\n%s\nwant\n%s", out.String(), want)
	}
}
