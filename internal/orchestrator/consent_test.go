package orchestrator

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/tools"
)

// argsTool is a tool mm does not decode itself, as an MCP server's: it
// records the input it ran with.
type argsTool struct{ got json.RawMessage }

func (a *argsTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: "fs__put", Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (a *argsTool) Run(_ context.Context, _ tools.Env, input json.RawMessage) tools.Result {
	a.got = input
	return tools.Result{Output: "put"}
}

// TestConsentNamesWhatRuns: for every tool, the consent question names
// what the tool then acts on, however the model dresses its input: a decoy
// under another tool's key is never the subject, a key that differs from a
// parameter only by case is a bad call nobody is asked about, and a tool
// mm does not decode shows its whole arguments.
func TestConsentNamesWhatRuns(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	keys := filepath.Join(outside, "authorized_keys")
	quote := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	tests := []struct {
		name, tool, input string
		// detail and arguments are what the consent shows; "" and no
		// question when nobody is asked.
		detail, arguments string
		asked             bool
		output            string
		// check looks at what the call did.
		check func(t *testing.T)
	}{
		{name: "write_file writes the path it showed", tool: "write_file",
			input:  `{"command":"notes.txt","path":` + quote(keys) + `,"content":"ssh-ed25519 AAAA"}`,
			detail: keys, asked: true, output: "created " + keys + " (16 bytes)",
			check: func(t *testing.T) {
				if b, err := os.ReadFile(keys); err != nil || string(b) != "ssh-ed25519 AAAA" {
					t.Errorf("authorized_keys = %q, %v", b, err)
				}
				if _, err := os.Stat(filepath.Join(dir, "notes.txt")); err == nil {
					t.Error("notes.txt was written")
				}
			}},
		{name: "read_file reads the path it showed", tool: "read_file",
			input:  `{"file_path":"notes.txt","path":"secret.txt"}`,
			detail: "secret.txt", asked: true, output: "the secret\n"},
		{name: "edit_file edits the path it showed", tool: "edit_file",
			input:  `{"url":"notes.txt","path":"f.txt","old_string":"a","new_string":"b"}`,
			detail: "f.txt", asked: true, output: "replaced 1 occurrence in f.txt"},
		{name: "bash runs the command it showed", tool: "bash",
			input:  `{"path":"notes.txt","command":"echo real"}`,
			detail: "echo real", asked: true, output: "real\n"},
		{name: "a key twin by case is a bad call", tool: "write_file",
			input:  `{"path":"notes.txt","Path":` + quote(keys+".2") + `,"content":"x"}`,
			output: `write_file: invalid input: "Path" is not a parameter (the parameter is "path"): send each parameter once, spelt as the schema spells it`,
			check: func(t *testing.T) {
				for _, p := range []string{keys + ".2", filepath.Join(dir, "notes.txt")} {
					if _, err := os.Stat(p); err == nil {
						t.Errorf("%s was written", p)
					}
				}
			}},
		{name: "ask_agent's agent twin by case is a bad call", tool: "ask_agent",
			input:  `{"agent":"expert","Agent":"cloud","question":"the key is 42"}`,
			output: `ask_agent: invalid input: "Agent" is not a parameter (the parameter is "agent"): send each parameter once, spelt as the schema spells it`},
		{name: "a tool mm does not decode shows its whole arguments", tool: "fs__put",
			input:     `{"command": "notes.txt", "target": "/home/me/.ssh/authorized_keys"}`,
			arguments: `{"command":"notes.txt","target":"/home/me/.ssh/authorized_keys"}`, asked: true, output: "put"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for name, content := range map[string]string{"secret.txt": "the secret\n", "f.txt": "a\n"} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			sink := &recSink{answers: []ConsentAnswer{AllowOnce}}
			m := &fakeModel{replies: []llm.Reply{{ToolCalls: []llm.ToolCall{call("c", tt.tool, tt.input)}}, {Content: "ok"}}}
			cfg := mmconfigs.Default(dir, func(string) string { return "" })
			cfg.Agents = map[string]mmconfigs.Agent{"expert": fileAgent(filepath.Join(dir, "expert.yaml")), "cloud": fileAgent(filepath.Join(dir, "cloud.yaml"))}
			s := newTestSession(t, cfg, m, sink)
			mcp := &argsTool{}
			s.tools[mcp.Spec().Name] = mcp
			if err := s.Prompt(context.Background(), "go"); err != nil {
				t.Fatal(err)
			}
			switch {
			case !tt.asked && len(sink.reqs) > 0:
				t.Errorf("asked %+v, want no question", sink.reqs)
			case tt.asked && len(sink.reqs) != 1:
				t.Fatalf("asked %d questions, want 1", len(sink.reqs))
			case tt.asked && (sink.reqs[0].Detail != tt.detail || sink.reqs[0].Arguments != tt.arguments):
				t.Errorf("consent shows %q, arguments %q; want %q, %q", sink.reqs[0].Detail, sink.reqs[0].Arguments, tt.detail, tt.arguments)
			}
			if got := m.lastToolOutputs(); len(got) != 1 || got[0] != tt.output {
				t.Errorf("output %q, want %q", got, tt.output)
			}
			if tt.tool == "fs__put" && string(mcp.got) != tt.input {
				t.Errorf("the tool ran with %s, want %s", mcp.got, tt.input)
			}
			if tt.check != nil {
				tt.check(t)
			}
		})
	}
}

// TestAskConsentSaysWhatGoesAlong: an ask_agent call that sends the
// conversation says so, and how long it is, before the person approves.
func TestAskConsentSaysWhatGoesAlong(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name, agent, input, along string
	}{
		{"the question alone", "expert", `{"agent":"expert","question":"why?"}`, ""},
		{"with the conversation", "expert", `{"agent":"expert","question":"why?","withContext":true}`,
			"the conversation so far goes along: 2 messages, 113 characters"},
		// An agent mm cannot confine: the person knows before approving.
		{"an agent by command", "gemini", `{"agent":"gemini","question":"why?"}`, "gemini runs outside mm's sandbox"},
		{"an agent over A2A, with the conversation", "reviewer", `{"agent":"reviewer","question":"why?","withContext":true}`,
			"the conversation so far goes along: 2 messages, 115 characters; reviewer runs outside mm's sandbox"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sink := &recSink{answers: []ConsentAnswer{RejectOnce}}
			m := &fakeModel{replies: []llm.Reply{{ToolCalls: []llm.ToolCall{call("c", "ask_agent", tt.input)}}, {Content: "ok"}}}
			cfg := mmconfigs.Default(dir, func(string) string { return "" })
			cfg.Agents = map[string]mmconfigs.Agent{
				"expert":   fileAgent(filepath.Join(dir, "expert.yaml")),
				"gemini":   {Kind: mmconfigs.AgentCommand, Command: []string{"gemini", "--acp"}},
				"reviewer": {Kind: mmconfigs.AgentA2A, URL: "http://review.test/"},
			}
			s := newTestSession(t, cfg, m, sink)
			if err := s.Prompt(context.Background(), "my password is hunter2"); err != nil {
				t.Fatal(err)
			}
			if len(sink.reqs) != 1 {
				t.Fatalf("asked %d questions, want 1", len(sink.reqs))
			}
			if r := sink.reqs[0]; r.Detail != tt.agent || r.Question != "why?" || r.Along != tt.along {
				t.Errorf("consent shows %q, %q, %q; want %q, %q, %q", r.Detail, r.Question, r.Along, tt.agent, "why?", tt.along)
			}
		})
	}
}
