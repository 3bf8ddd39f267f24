package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/fakeanthropic"
	"github.com/mm-agent/mm/internal/nodetest"
)

// claudeRuns bounds one run of Claude Code: it starts mm serve --mcp,
// lists its tools and calls one, in a few seconds on an idle machine.
const claudeRuns = 3 * time.Minute

// claudeAgents is the served configuration: an expert that answers, one
// that a preAsk hook keeps from being asked, and one whose answer a
// postAsk hook replaces before it leaves for the cloud.
var claudeAgents = map[string]string{
	"agent.yaml": `model: script/main.s.yaml
mmConfigs:
  expert: expert.yaml
  vault: expert.yaml
  private: private.yaml
hooks:
  preAsk:
    - matcher: ^vault$
      command: 'echo "{\"action\":\"deny\",\"reason\":\"the vault stays here\"}"'
  postAsk:
    - matcher: ^private$
      command: 'cat > post.json; echo "{\"answer\":\"[redacted by mm]\"}"'
`,
	"expert.yaml":    "model: script/expert.s.yaml\n",
	"private.yaml":   "model: script/private.s.yaml\n",
	"main.s.yaml":    "rules:\n  - say: I am the main agent.\n",
	"expert.s.yaml":  "rules:\n  - say: An inode holds a file's metadata.\n",
	"private.s.yaml": "rules:\n  - say: The password is hunter2.\n",
}

// TestServeMCPClaudeCode: Claude Code (from npm, pinned in
// test/mcp-clients), told by a scripted model API on loopback to call
// mm's tool, starts mm serve --mcp as its MCP server (its --mcp-config,
// as `claude mcp add` writes it) and reads what mm's hooks let through:
// the answer, a denial as a tool error, a replaced answer.
func TestServeMCPClaudeCode(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Claude Code: not in the -short lane")
	}
	clients := filepath.Join(repoRoot(), "test", "mcp-clients")
	nodetest.Require(t, clients)
	dir := t.TempDir()
	for name, text := range claudeAgents {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mcpConfig := `{"mcpServers":{"mm":{"type":"stdio","command":"` + mmBin + `","args":["serve","--mcp","--config","` + filepath.Join(dir, "agent.yaml") + `"]}}}`
	if err := os.WriteFile(filepath.Join(dir, "mcp.json"), []byte(mcpConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool    string
		want    string
		isError bool
	}{
		{tool: "expert", want: "An inode holds a file's metadata."},
		{tool: "vault", want: "ask denied by a hook: the vault stays here", isError: true},
		{tool: "private", want: "[redacted by mm]"},
	}
	for _, tc := range tests {
		t.Run(tc.tool, func(t *testing.T) {
			tool := "mcp__mm__" + tc.tool
			api := fakeanthropic.Start(t, func(r fakeanthropic.Request) fakeanthropic.Reply {
				switch _, _, answered := r.ToolResult(); {
				case answered:
					return fakeanthropic.Reply{Text: "Done."}
				case r.Offers(tool):
					return fakeanthropic.Reply{Tool: &fakeanthropic.ToolUse{Name: tool, Input: map[string]string{"question": "What is an inode?"}}}
				}
				return fakeanthropic.Reply{Text: "No such tool."}
			})
			env, err := api.Env(filepath.Join(t.TempDir(), "home"))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), claudeRuns)
			defer cancel()
			cmd := exec.CommandContext(ctx, filepath.Join(clients, "node_modules", ".bin", "claude"), "-p", "Ask mm's "+tc.tool+" what an inode is.",
				"--mcp-config", "mcp.json", "--strict-mcp-config", "--allowedTools", tool)
			cmd.Dir = dir
			cmd.Env = append(scriptEnviron(), env...)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("claude: %v\n%s", err, out)
			}
			var got *fakeanthropic.Request
			for _, r := range api.Requests() {
				if _, _, ok := r.ToolResult(); ok {
					got = &r
				}
			}
			if got == nil {
				t.Fatalf("Claude Code sent the model no tool result; it said:\n%s", out)
			}
			text, isError, _ := got.ToolResult()
			if text != tc.want || isError != tc.isError {
				t.Errorf("the model read %q (error %v), want %q (error %v)", text, isError, tc.want, tc.isError)
			}
		})
	}
	if b, err := os.ReadFile(filepath.Join(dir, "post.json")); err != nil || !containsAll(string(b), `"via":"mcp"`, `"answer":"The password is hunter2."`) {
		t.Errorf("the postAsk hook read %s (%v), want the answer it replaced, via mcp", b, err)
	}
}

// scriptEnviron is this process's environment without what names an mm
// configuration or a place in a chain of hand-offs.
func scriptEnviron() []string {
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "MM_CONFIG", "MM_MODEL", "MM_ASKED_DEPTH", "MM_ASK_CHAIN", "MM_ASK_MAX_DEPTH", "MM_BIN":
			continue
		}
		env = append(env, kv)
	}
	return env
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
