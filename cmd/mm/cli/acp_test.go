package cli

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/nodetest"
)

// TestACPConformance drives the real mm -acp with the official TypeScript
// ACP client (test/acp-conformance): initialize, a new session, a streamed
// prompt, a permission request answered by the client, a cancel.
func TestACPConformance(t *testing.T) {
	dir := filepath.Join(repoRoot(), "test", "acp-conformance")
	nodetest.Require(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "client.mjs", mmBin, "-acp", "--config", "testdata/agent.yaml")
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), "MM_CONFIG=", "MM_ASKED_DEPTH=", "MM_MODEL=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("client.mjs against mm -acp: %v\n%s", err, out)
	}
}

// TestACPLoadConformance drives two mm -acp processes, one after the
// other, with the official TypeScript ACP client (test/acp-conformance/
// load.mjs): the first saves a session of three prompts (an answer, a
// completed tool call, a failed one, hooks shown); the second lists it,
// loads it — the history replayed in order, each call with its final
// status, no hook run — goes on with it, and refuses an unknown id.
func TestACPLoadConformance(t *testing.T) {
	dir := filepath.Join(repoRoot(), "test", "acp-conformance")
	nodetest.Require(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "load.mjs", mmBin, "-acp", "--config", "testdata/load.yaml")
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), "MM_CONFIG=", "MM_ASKED_DEPTH=", "MM_MODEL=", "XDG_STATE_HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("load.mjs against mm -acp: %v\n%s", err, out)
	}
}
