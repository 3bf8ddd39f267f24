package orchestrator

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mm-agent/mm/agentproc"
	"github.com/mm-agent/mm/mmconfigs"
)

func TestAgentOptions(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "mm")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := &Session{cfg: &mmconfigs.Config{Dir: "/cfg"}, cwd: "/work", bin: bin, depth: 1, maxDepth: 2, chain: "main",
		environ: []string{"PATH=/usr/bin", "MM_BIN=" + bin, "MM_CONFIG=/cfg/agent.yaml", "KEY=k1"}}
	tests := []struct {
		name string
		a    mmconfigs.Agent
		want agentproc.Options
	}{
		{"file", mmconfigs.Agent{Kind: mmconfigs.AgentFile, Config: "/cfg/e.yaml"},
			agentproc.Options{Name: "x", Bin: bin, Config: "/cfg/e.yaml", Cwd: "/work",
				Environ: []string{"PATH=/usr/bin", "MM_BIN=" + bin, "KEY=k1", "MM_CONFIG=/cfg/e.yaml", "MM_ASKED_DEPTH=2", "MM_ASK_MAX_DEPTH=2", "MM_ASK_CHAIN=main/x"}}},
		{"command", mmconfigs.Agent{Kind: mmconfigs.AgentCommand, Command: []string{"gemini", "--key=$KEY", "$MM_CONFIG_DIR/x"},
			Env: map[string]string{"B": "2", "A": "$KEY"}, Cwd: "$MM_CONFIG_DIR/sub", StartTimeout: 5},
			agentproc.Options{Name: "x", Command: []string{"gemini", "--key=k1", "/cfg/x"}, Cwd: "/work", Dir: "/cfg/sub", StartTimeout: 5,
				Environ: []string{"PATH=/usr/bin", "MM_BIN=" + bin, "KEY=k1", "MM_ASKED_DEPTH=2", "MM_ASK_MAX_DEPTH=2", "MM_ASK_CHAIN=main/x", "A=k1", "B=2"}}},
		{"mm by command", mmconfigs.Agent{Kind: mmconfigs.AgentCommand, Command: []string{"$MM_BIN", "-acp"}},
			agentproc.Options{Name: "x", Command: []string{bin, "-acp"}, IsMM: true, Cwd: "/work",
				Environ: []string{"PATH=/usr/bin", "MM_BIN=" + bin, "KEY=k1", "MM_ASKED_DEPTH=2", "MM_ASK_MAX_DEPTH=2", "MM_ASK_CHAIN=main/x"}}},
		{"ssh", mmconfigs.Agent{Kind: mmconfigs.AgentSSH, Host: "me@h", Config: "e.yaml", SSHArgs: []string{"-p", "22"}},
			agentproc.Options{Name: "x", Host: "me@h", Cwd: "/work", Environ: s.environ,
				Command: []string{"ssh", "-T", "-p", "22", "--", "me@h", "mm -acp --config e.yaml --session-cwd . --asked-depth 2 --ask-max-depth 2 --ask-chain main/x"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := s.agentOptions("x", tt.a); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("agentOptions\n got %#v\nwant %#v", got, tt.want)
			}
		})
	}
}
