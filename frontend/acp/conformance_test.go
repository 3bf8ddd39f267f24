package acp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestConformance runs the official TypeScript ACP client
// (test/acp-conformance) against this front end over the fake sessions,
// which answer its prompts as its scripted model would. It needs node and
// the client's node_modules (npm ci in that folder); without them it is
// skipped.
func TestConformance(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "test", "acp-conformance"))
	if err != nil {
		t.Fatal(err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node: the conformance client cannot run")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@agentclientprotocol", "sdk")); err != nil {
		t.Skipf("no @agentclientprotocol/sdk: run npm ci in %s", dir)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*wait)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "client.mjs", exe, "-acp", "--config", "agent.yaml")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("client.mjs: %v\n%s", err, out)
	}
}
