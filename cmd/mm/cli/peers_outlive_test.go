//go:build linux

package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mm-agent/mm/internal/fakegemini"
	"github.com/mm-agent/mm/internal/nodetest"
)

// TestNothingOutlivesMMAskingPeers: TestNothingOutlivesMM's promise holds
// for agents that are not mm, which nothing says clean up after
// themselves. Gemini CLI (two node processes: it starts itself again)
// running, unasked (--yolo), a shell command the fake Gemini API gave it,
// with a job in its group and, but for SIGKILL, one escaped into a session
// of its own while Gemini CLI runs (the one limit, as in
// TestNothingOutlivesMM); the ACP TypeScript SDK's example agent in its
// turn, started by a shell that left such a job behind.
func TestNothingOutlivesMMAskingPeers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Gemini CLI and signals mm in every scenario: not in the -short lane")
	}
	peers := filepath.Join(repoRoot(), "test", "peers")
	nodetest.Require(t, peers)
	bin := filepath.Join(peers, "node_modules", ".bin")
	example := filepath.Join(peers, "node_modules", "@agentclientprotocol", "sdk", "dist", "examples", "agent.js")

	scenarios := []outliveScenario{{
		name: "ask/gemini/shell",
		args: []string{"--ask", "gemini", "q"},
		files: map[string]string{
			"agent.yaml": "model: echo/main\nmmConfigs:\n  gemini:\n    command: [" + filepath.Join(bin, "gemini") + ", --acp, --yolo]\n    startTimeout: 2m\n",
			"rules.yaml": "rules:\n  - afterTool: run_shell_command\n    say: done\n" +
				"  - calls:\n      - name: run_shell_command\n        args: {command: '" + busy + "'}\n",
		},
		env: func(t *testing.T, dir string) []string {
			// The rules as written in dir: {{setsid}} replaced for the signal.
			b, err := os.ReadFile(filepath.Join(dir, "rules.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			answer, err := fakegemini.ParseRules("rules.yaml", b)
			if err != nil {
				t.Fatal(err)
			}
			env, err := fakegemini.Start(t, answer).CLIEnv(filepath.Join(dir, "gemini-home"))
			if err != nil {
				t.Fatal(err)
			}
			return env
		},
	}, {
		name: "ask/example",
		args: []string{"--ask", "example", "q"},
		files: map[string]string{
			"agent.yaml": "model: echo/main\nmmConfigs:\n  example:\n    command: [sh, -c, '{{setsid}}touch started; exec node " + example + "']\n",
		},
	}}
	for _, sc := range scenarios {
		for _, sig := range endings {
			t.Run(sc.name+"/"+sigName(sig), func(t *testing.T) {
				testOutlive(t, sc, sig, "")
			})
		}
	}
}
