package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mm-agent/mm/mmconfigs"
	"github.com/mm-agent/mm/orchestrator"
	"github.com/mm-agent/mm/tools"
)

// TestLacks: what of a configuration each binary hands over, named by its
// file and field; mm-full lacks nothing.
func TestLacks(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"plain.yaml":  "model: echo/main\n",
		"mcp.yaml":    "model: echo/main\nmcpServers:\n  fs:\n    command: fs-server\n",
		"hooks.yaml":  "model: echo/main\nhooks:\n  preToolCall:\n    - wasm: guard.wasm\n",
		"schema.yaml": "model: echo/main\nstructuredOutput: answer.json\n",
		"answer.json": `{"type":"object"}`,
		"guard.wasm":  "\x00asm\x01\x00\x00\x00",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	load := func(name string) *mmconfigs.Config {
		c, err := mmconfigs.Load(filepath.Join(dir, name), dir, func(string) string { return "" })
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return c
	}
	// What mm-full plugs in, as far as lacks looks: that it is there.
	full := Features{
		Wasm: func() WasmRuntime { return nil },
		MCP: func(context.Context, []tools.MCPServer, tools.Env, time.Duration) (tools.MCPTools, []error) {
			return nil, nil
		},
		Schemas: func(json.RawMessage) (mmconfigs.Validator, error) { return nil, nil },
	}
	tests := []struct {
		file string
		f    Features
		want string
	}{
		{"plain.yaml", Features{}, ""},
		{"mcp.yaml", Features{}, "mcp.yaml: mcpServers"},
		{"hooks.yaml", Features{}, "hooks.yaml: wasm hooks and tools"},
		{"schema.yaml", Features{}, "schema.yaml: structuredOutput"},
		{"mcp.yaml", full, ""},
		{"hooks.yaml", full, ""},
		{"schema.yaml", full, ""},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			if got := tt.f.lacks(load(tt.file)); got != tt.want {
				t.Errorf("lacks = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestSessionConfigLacks: an mm -acp that could not hand over to mm-full
// refuses a session whose configuration needs it, in one line that says
// what to install, and starts nothing of it.
func TestSessionConfigLacks(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "agent.yaml"), []byte("model: echo/main\nmcpServers:\n  fs:\n    command: fs-server\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sc := &sessionConfigs{getenv: func(string) string { return "" }, wasm: map[string]WasmRuntime{}}
	o := &orchestrator.Options{Cwd: dir}
	err := sc.configure(o)
	want := "agent.yaml: mcpServers: this needs mm-full, mm with every feature: go install github.com/mm-agent/mm/cmd/mm-full@latest"
	if err == nil || err.Error() != want {
		t.Fatalf("configure = %v, want %s", err, want)
	}
	if o.Config != nil {
		t.Errorf("the session got the configuration it cannot run")
	}
}
