package acp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mm-agent/mm/internal/nodetest"
)

// TestConformance runs the official TypeScript ACP client
// (test/acp-conformance) against this front end over the fake sessions,
// which answer its prompts as its scripted model would. The client's locked
// npm dependencies are installed on first use.
func TestConformance(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "test", "acp-conformance"))
	if err != nil {
		t.Fatal(err)
	}
	nodetest.Require(t, dir)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*wait)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "client.mjs", exe, "-acp", "--config", "agent.yaml")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("client.mjs: %v\n%s", err, out)
	}
}
