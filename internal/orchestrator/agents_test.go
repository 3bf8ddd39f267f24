package orchestrator

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mm-agent/mm/internal/agentproc"
	"github.com/mm-agent/mm/internal/mmconfigs"
)

// TestAgentOptions: how each kind of agent is started. Its environment
// says whether the asking session is saved (MM_NO_SAVE), and so does the
// remote command of an mm over ssh (--no-save), which gets no environment.
func TestAgentOptions(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "mm")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	newSession := func(saved bool) *Session {
		s := &Session{cfg: &mmconfigs.Config{Dir: "/cfg"}, cwd: "/work", bin: bin, depth: 1, maxDepth: 2, chain: "main",
			environ: []string{"PATH=/usr/bin", "MM_BIN=" + bin, "MM_CONFIG=/cfg/agent.yaml", "KEY=k1", "MM_NO_SAVE=1"}}
		var rec Recorder
		if saved {
			rec = nopRecorder{}
		}
		s.history = newHistory(nil, nil, nil, rec)
		return s
	}
	base := []string{"PATH=/usr/bin", "MM_BIN=" + bin, "KEY=k1"}
	env := func(vars ...string) []string { return append(append([]string(nil), base...), vars...) }
	chain := []string{"MM_ASKED_DEPTH=2", "MM_ASK_MAX_DEPTH=2", "MM_ASK_CHAIN=main/x"}
	withChain := func(saved bool, vars ...string) []string {
		out := append(append([]string(nil), vars...), chain...)
		if !saved {
			out = append(out, "MM_NO_SAVE=1")
		}
		return out
	}
	const remote = "mm -acp --config e.yaml --session-cwd . --asked-depth 2 --ask-max-depth 2 --ask-chain main/x"
	tests := []struct {
		name  string
		saved bool
		a     mmconfigs.Agent
		want  agentproc.Options
	}{
		{"file", true, mmconfigs.Agent{Kind: mmconfigs.AgentFile, Config: "/cfg/e.yaml"},
			agentproc.Options{Name: "x", Bin: bin, Config: "/cfg/e.yaml", Cwd: "/work",
				Environ: env(withChain(true, "MM_CONFIG=/cfg/e.yaml")...)}},
		{"file, not saved", false, mmconfigs.Agent{Kind: mmconfigs.AgentFile, Config: "/cfg/e.yaml"},
			agentproc.Options{Name: "x", Bin: bin, Config: "/cfg/e.yaml", Cwd: "/work",
				Environ: env(withChain(false, "MM_CONFIG=/cfg/e.yaml")...)}},
		{"command", true, mmconfigs.Agent{Kind: mmconfigs.AgentCommand, Command: []string{"gemini", "--key=$KEY", "$MM_CONFIG_DIR/x"},
			Env: map[string]string{"B": "2", "A": "$KEY"}, Cwd: "$MM_CONFIG_DIR/sub", StartTimeout: 5},
			agentproc.Options{Name: "x", Command: []string{"gemini", "--key=k1", "/cfg/x"}, Cwd: "/work", Dir: "/cfg/sub", StartTimeout: 5,
				Environ: env(append(withChain(true), "A=k1", "B=2")...)}},
		{"mm by command, not saved", false, mmconfigs.Agent{Kind: mmconfigs.AgentCommand, Command: []string{"$MM_BIN", "-acp"}},
			agentproc.Options{Name: "x", Command: []string{bin, "-acp"}, IsMM: true, Cwd: "/work",
				Environ: env(withChain(false)...)}},
		{"ssh", true, mmconfigs.Agent{Kind: mmconfigs.AgentSSH, Host: "me@h", Config: "e.yaml", SSHArgs: []string{"-p", "22"}},
			agentproc.Options{Name: "x", Host: "me@h", Cwd: "/work", Environ: newSession(true).environ,
				Command: []string{"ssh", "-T", "-p", "22", "--", "me@h", remote}}},
		{"ssh, not saved", false, mmconfigs.Agent{Kind: mmconfigs.AgentSSH, Host: "me@h", Config: "e.yaml", SSHArgs: []string{"-p", "22"}},
			agentproc.Options{Name: "x", Host: "me@h", Cwd: "/work", Environ: newSession(false).environ,
				Command: []string{"ssh", "-T", "-p", "22", "--", "me@h", remote + " --no-save"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := newSession(tt.saved).agentOptions("x", tt.a); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("agentOptions\n got %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

// A hand-off names an mm's tool calls by its _meta, another agent's by
// ACP's kind and title, keeping what an update leaves out; a call that goes
// from pending to done is shown started first.
func TestRelayNamesToolCalls(t *testing.T) {
	sink := &recSink{}
	r := &handOff{s: &Session{sink: sink}, agent: "g"}
	for _, u := range []agentproc.ToolUpdate{
		{ID: "1", Start: true, Title: "ReadFile a.go", Kind: "read", Status: agentproc.StatusPending},
		{ID: "1", Status: agentproc.StatusInProgress},
		{ID: "1", Status: agentproc.StatusCompleted, Output: "package a"},
		{ID: "2", Start: true, Title: "Shell ls", Kind: "execute", Status: agentproc.StatusPending},
		{ID: "2", Status: agentproc.StatusFailed, Output: "exit 2\nmore"},
		{ID: "3", Start: true, Tool: "bash", Subject: "ls", Title: "bash: ls", Kind: "execute", Status: agentproc.StatusInProgress},
		{ID: "3", Tool: "bash", Subject: "ls", Status: agentproc.StatusCompleted},
		{ID: "4", Start: true, Status: agentproc.StatusCompleted},
	} {
		r.ToolCall(u)
	}
	var got []string
	for _, ev := range sink.events {
		switch e := ev.(type) {
		case ToolStarted:
			got = append(got, "start "+CallTitle(e.Agent, e.Name, e.Subject))
		case ToolEnded:
			got = append(got, "end "+CallTitle(e.Agent, e.Name, e.Subject)+" "+e.Summary)
		}
	}
	want := []string{
		"start [g] read: ReadFile a.go", "end [g] read: ReadFile a.go ",
		"start [g] execute: Shell ls", "end [g] execute: Shell ls exit 2",
		"start [g] bash: ls", "end [g] bash: ls ",
		"start [g] tool", "end [g] tool ",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events\n got %q\nwant %q", got, want)
	}
	r.Permission(context.Background(), agentproc.PermissionRequest{ID: "5", Title: "WriteFile b.go", Kind: "edit"})
	if want := []string{"edit: WriteFile b.go"}; !reflect.DeepEqual(sink.asked, want) {
		t.Errorf("asked %q, want %q", sink.asked, want)
	}
}
