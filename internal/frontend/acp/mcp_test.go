package acp

import (
	"context"
	"reflect"
	"strings"
	"testing"

	acp "github.com/coder/acp-go-sdk"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// TestNewSessionMCPServers: the editor's stdio MCP servers of session/new
// join the session; another transport is logged and skipped.
func TestNewSessionMCPServers(t *testing.T) {
	h := newHarness(t, false)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	_, err := h.conn.NewSession(ctx, acp.NewSessionRequest{Cwd: "/work/project", McpServers: []acp.McpServer{
		{Stdio: &acp.McpServerStdio{Name: "fs", Command: "npx", Args: []string{"-y", "server"}, Env: []acp.EnvVariable{{Name: "TOKEN", Value: "t"}}}},
		{Http: &acp.McpServerHttpInline{Name: "web", Url: "http://localhost:1/mcp", Headers: []acp.HttpHeader{}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := []orchestrator.MCPServer{{Name: "fs", Command: "npx", Args: []string{"-y", "server"}, Env: map[string]string{"TOKEN": "t"}}}
	if got := h.sessions.get(0).opts.MCPServers; !reflect.DeepEqual(got, want) {
		t.Errorf("MCPServers = %+v, want %+v", got, want)
	}
	if log := h.errw.String(); !strings.Contains(log, "mm: session/new: an MCP server that is not stdio is skipped (mm speaks MCP over stdio only)") {
		t.Errorf("log = %q", log)
	}
}
