package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mm-agent/mm/internal/fakeanthropic"
	"github.com/mm-agent/mm/internal/nodetest"
)

// benchMCPAgents are the configurations of the MCP benchmarks: an echo
// expert asked by an echo agent, without hooks (plain.yaml, whose times
// are reported) and with a postAsk hook that records the hand-off's
// durationMs (timed.yaml, the asked agent's own time as mm measures it).
var benchMCPAgents = map[string]string{
	"plain.yaml":  "model: echo/main\nmmConfigs:\n  expert: expert.yaml\n",
	"timed.yaml":  "model: echo/main\nmmConfigs:\n  expert: expert.yaml\nhooks:\n  postAsk:\n    - command: cat >> post.jsonl; echo >> post.jsonl\n",
	"expert.yaml": "model: echo/expert\n",
}

// BenchmarkMCPHandOff is a hand-off to an echo expert through mm serve
// --mcp (one tools/call of a kept MCP session, the expert kept running),
// beside the same hand-off by mm --ask (a process, which starts the expert),
// interleaved in each iteration. It reports the medians of each one's wall
// time (mcp-call-ms, ask-ms) and of the asked agent's own time as the
// hand-off measured it (mcp-agent-ms, ask-agent-ms: postAsk's durationMs,
// in runs of their own, for a hook costs its own time): a call's added
// latency is the difference.
//
//	go test ./cmd/mm/cli -run '^$' -bench MCPHandOff -benchtime 30x
func BenchmarkMCPHandOff(b *testing.B) {
	dir := b.TempDir()
	for name, text := range benchMCPAgents {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	plain, timed := benchMCPSession(b, dir, "plain.yaml"), benchMCPSession(b, dir, "timed.yaml")
	call := func(s *sdk.ClientSession) time.Duration {
		t0 := time.Now()
		res, err := s.CallTool(ctx, &sdk.CallToolParams{Name: "expert", Arguments: map[string]string{"question": "What is an inode?"}})
		if err != nil || res.IsError {
			b.Fatalf("tools/call: %v %+v", err, res)
		}
		return time.Since(t0)
	}
	ask := func(cfg string) time.Duration {
		cmd := benchCmd(b, dir, mmBin, "--config", cfg, "--ask", "expert", "What is an inode?")
		cmd.Env = append(cmd.Env, "XDG_STATE_HOME="+filepath.Join(dir, "state"))
		t0 := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("mm --ask: %v\n%s", err, out)
		}
		return time.Since(t0)
	}
	// The first call starts the expert: it is not a kept session's cost.
	call(plain)
	call(timed)
	var mcpTimes, askTimes []time.Duration
	for b.Loop() {
		mcpTimes = append(mcpTimes, call(plain))
		askTimes = append(askTimes, ask("plain.yaml"))
		call(timed)
		ask("timed.yaml")
	}
	agent := benchDurations(b, filepath.Join(dir, "post.jsonl"))
	// After the warm-up call's, the postAsk lines alternate: the MCP
	// call's, then mm --ask's.
	var mcpAgent, askAgent []time.Duration
	for i, d := range agent[1:] {
		if i%2 == 0 {
			mcpAgent = append(mcpAgent, d)
		} else {
			askAgent = append(askAgent, d)
		}
	}
	b.ReportMetric(medianMs(mcpTimes), "mcp-call-ms")
	b.ReportMetric(medianMs(mcpAgent), "mcp-agent-ms")
	b.ReportMetric(medianMs(askTimes), "ask-ms")
	b.ReportMetric(medianMs(askAgent), "ask-agent-ms")
}

// benchMCPSession is an MCP client session of mm serve --mcp with cfg,
// closed with the benchmark.
func benchMCPSession(b *testing.B, dir, cfg string) *sdk.ClientSession {
	cmd := benchCmd(b, dir, mmBin, "serve", "--mcp", "--config", cfg, "--no-save")
	client := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
	s, err := client.Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// benchDurations are the durationMs of the postAsk inputs in file.
func benchDurations(b *testing.B, file string) []time.Duration {
	data, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	var out []time.Duration
	for _, line := range strings.Split(string(data), "\n") {
		var in struct {
			DurationMs float64 `json:"durationMs"`
		}
		if strings.TrimSpace(line) == "" || json.Unmarshal([]byte(line), &in) != nil {
			continue
		}
		out = append(out, time.Duration(in.DurationMs*float64(time.Millisecond)))
	}
	return out
}

// BenchmarkClaudeCodeHandOff is the same hand-off from Claude Code, its
// model (a scripted API on loopback, which answers at once) asking once:
// with no tool (none-ms, Claude Code's own cost), through its own
// sub-agent (subagent-ms: its Agent tool, whose agent the same API
// answers), and through mm serve --mcp's expert (mm-ms: an echo mm,
// started with mm serve as Claude Code starts its MCP servers). Each
// iteration runs the three in turn, one claude -p each.
//
//	go test ./cmd/mm/cli -run '^$' -bench ClaudeCodeHandOff -benchtime 10x
func BenchmarkClaudeCodeHandOff(b *testing.B) {
	clients := filepath.Join(repoRoot(), "test", "mcp-clients")
	nodetest.Require(b, clients)
	dir := b.TempDir()
	for name, text := range benchMCPAgents {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	mcpConfig := `{"mcpServers":{"mm":{"type":"stdio","command":"` + mmBin + `","args":["serve","--mcp","--no-save","--config","` + filepath.Join(dir, "plain.yaml") + `"]}}}`
	if err := os.WriteFile(filepath.Join(dir, "mcp.json"), []byte(mcpConfig), 0o644); err != nil {
		b.Fatal(err)
	}
	const question = "What is an inode?"
	api := fakeanthropic.Start(b, func(r fakeanthropic.Request) fakeanthropic.Reply {
		// Claude Code sends the prompt among its own blocks of context.
		first := string(r.Raw)
		switch _, _, answered := r.ToolResult(); {
		case answered:
			return fakeanthropic.Reply{Text: "Done."}
		case strings.Contains(first, "[sub-agent] "+question):
			return fakeanthropic.Reply{Text: "An inode holds a file's metadata."}
		case strings.Contains(first, "use: none"):
			return fakeanthropic.Reply{Text: "An inode holds a file's metadata."}
		case strings.Contains(first, "use: agent") && r.Offers("Agent"):
			// In the foreground, as mm's tool call is: its result is the
			// sub-agent's answer.
			return fakeanthropic.Reply{Tool: &fakeanthropic.ToolUse{Name: "Agent", Input: map[string]any{
				"description": "ask about inodes", "prompt": "[sub-agent] " + question, "subagent_type": "general-purpose", "run_in_background": false}}}
		case strings.Contains(first, "use: mm") && r.Offers("mcp__mm__expert"):
			return fakeanthropic.Reply{Tool: &fakeanthropic.ToolUse{Name: "mcp__mm__expert", Input: map[string]string{"question": question}}}
		}
		return fakeanthropic.Reply{Text: "No tool."}
	})
	env, err := api.Env(filepath.Join(dir, "home"))
	if err != nil {
		b.Fatal(err)
	}
	claude := filepath.Join(clients, "node_modules", ".bin", "claude")
	run := func(use string, tools ...string) time.Duration {
		args := append([]string{"-p", "use: " + use, "--mcp-config", "mcp.json", "--strict-mcp-config"}, tools...)
		cmd := exec.Command(claude, args...)
		cmd.Dir = dir
		cmd.Env = append(scriptEnviron(), env...)
		t0 := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("claude %s: %v\n%s", use, err, out)
		}
		return time.Since(t0)
	}
	var none, sub, mm []time.Duration
	for b.Loop() {
		none = append(none, run("none"))
		sub = append(sub, run("agent", "--allowedTools", "Agent"))
		mm = append(mm, run("mm", "--allowedTools", "mcp__mm__expert"))
	}
	// Each iteration's sub-agent and mm answered their hand-off.
	answered := 0
	for _, r := range api.Requests() {
		if text, _, ok := r.ToolResult(); ok {
			if !strings.Contains(text, "inode") {
				b.Fatalf("a hand-off did not answer: %q", text)
			}
			answered++
		}
	}
	if answered != 2*len(none) {
		b.Fatalf("%d hand-offs answered in %d iterations, want 2 each", answered, len(none))
	}
	b.ReportMetric(medianMs(none), "none-ms")
	b.ReportMetric(medianMs(sub), "subagent-ms")
	b.ReportMetric(medianMs(mm), "mm-ms")
}
