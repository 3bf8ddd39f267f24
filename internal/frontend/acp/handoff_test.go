package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sync"
	"testing"

	"github.com/mm-agent/mm/internal/agentproc"
)

// asker is the asking side's agentproc.Handler.
type asker struct {
	mu     sync.Mutex
	texts  []string
	tools  []agentproc.ToolUpdate
	perms  []agentproc.PermissionRequest
	answer agentproc.PermissionAnswer
}

// Options, Warn and Answered are asked of a Handler only by a start
// after the first, which this test has none of.
func (a *asker) Options(context.Context) agentproc.Options { return agentproc.Options{} }
func (a *asker) Warn(string)                               {}
func (a *asker) Answered(string)                           {}

func (a *asker) Text(agent, chunk string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.texts = append(a.texts, agent+"|"+chunk)
}

func (a *asker) ToolCall(u agentproc.ToolUpdate) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.tools = append(a.tools, u)
}

func (a *asker) Permission(_ context.Context, req agentproc.PermissionRequest) agentproc.PermissionAnswer {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.perms = append(a.perms, req)
	return a.answer
}

// TestHandOff runs this front end as a child agent and reads it with
// agentproc, as a hand-off does: what the asking side learns of the
// child's answer, tool calls and consent requests.
func TestHandOff(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	child, err := agentproc.Start(ctx, agentproc.Options{
		Name:    "expert",
		Bin:     exe,
		Config:  "/work/project/agent.expert.yaml",
		Cwd:     t.TempDir(),
		Environ: append(os.Environ(), childEnv+"=1"),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer child.Close()

	tests := []struct {
		prompt string
		answer agentproc.PermissionAnswer
		texts  []string
		tools  []agentproc.ToolUpdate
		perms  []agentproc.PermissionRequest
		err    string
	}{
		{prompt: "hello", texts: []string{"|Hel", "|lo"}},
		{prompt: "tool", texts: []string{"|done"}, tools: []agentproc.ToolUpdate{
			{ID: "c1", Start: true, Tool: "bash", Subject: "ls && echo <x>", Title: "bash: ls && echo <x>", Kind: "execute", Status: "in_progress", Input: json.RawMessage(`{"command":"ls && echo <x>"}`)},
			{ID: "c1", Tool: "bash", Subject: "ls && echo <x>", Status: "completed", Output: "a.txt"},
			{ID: "c2", Start: true, Tool: "read_file", Subject: "a.txt", Title: "read_file: a.txt", Kind: "read", Status: "in_progress", Input: json.RawMessage(`{"path":"a.txt"}`)},
			{ID: "c2", Tool: "read_file", Subject: "a.txt", Status: "failed", Output: "no such file"},
		}},
		{prompt: "ask", texts: []string{"expert|An inode ", "expert|is…", "|An inode is…"}, tools: []agentproc.ToolUpdate{
			{Agent: "expert", ID: "expert/c1", Start: true, Tool: "bash", Subject: "ls", Title: "[expert] bash: ls", Kind: "execute", Status: "in_progress", Input: json.RawMessage(`{"command":"ls"}`)},
			{Agent: "expert", ID: "expert/c1", Tool: "bash", Subject: "ls", Status: "completed", Output: "x"},
		}},
		{prompt: "denied", tools: []agentproc.ToolUpdate{
			{ID: "c1", Start: true, Tool: "bash", Subject: "rm -rf build", Title: "bash: rm -rf build — denied by a hook", Kind: "execute", Status: "failed", Output: "[denied by a hook: no deletions]", DeniedBy: "hook"},
			{ID: "c2", Start: true, Tool: "my_tool", Title: "my_tool — denied by a hook", Kind: "other", Status: "failed", Output: "[denied by a hook: no]", DeniedBy: "hook"},
		}},
		{prompt: "hooks", tools: []agentproc.ToolUpdate{
			{ID: "mm-hook-1", Start: true, Title: "🪝 preGeneration · guard.sh → continue", Kind: "other", Status: "completed", Hook: true},
			{ID: "mm-hook-2", Start: true, Title: "🪝 postGeneration · log.sh → failed", Kind: "other", Status: "failed", Hook: true},
		}},
		{prompt: "consent", answer: agentproc.AllowAlways, texts: nil, tools: []agentproc.ToolUpdate{
			{ID: "c1", Start: true, Tool: "write_file", Subject: "x.txt", Title: "write_file: x.txt", Kind: "edit", Status: "pending", Input: json.RawMessage(`{"content":"hi","path":"x.txt"}`)},
			{ID: "c1", Tool: "write_file", Subject: "x.txt", Status: "in_progress", Input: json.RawMessage(`{"content":"hi","path":"x.txt"}`)},
			{ID: "c1", Tool: "write_file", Subject: "x.txt", Status: "completed", Output: "wrote 2 bytes"},
		}, perms: []agentproc.PermissionRequest{
			{ID: "c1", Tool: "write_file", Subject: "x.txt", Detail: "x.txt", Always: "write_file", Title: "write_file: x.txt", Kind: "edit", Input: json.RawMessage(`{"content":"hi","path":"x.txt"}`),
				Diff: &agentproc.Diff{Path: "/work/project/x.txt", Created: true, New: "hi"}},
		}},
		{prompt: "consent", answer: agentproc.Refused, tools: []agentproc.ToolUpdate{
			{ID: "c1", Start: true, Tool: "write_file", Subject: "x.txt", Title: "write_file: x.txt", Kind: "edit", Status: "pending", Input: json.RawMessage(`{"content":"hi","path":"x.txt"}`)},
			{ID: "c1", Tool: "write_file", Subject: "x.txt", Title: "write_file: x.txt — denied", Status: "failed", Output: "[refused: the person did not allow this call]", DeniedBy: "person"},
		}, perms: []agentproc.PermissionRequest{
			{ID: "c1", Tool: "write_file", Subject: "x.txt", Detail: "x.txt", Always: "write_file", Title: "write_file: x.txt", Kind: "edit", Input: json.RawMessage(`{"content":"hi","path":"x.txt"}`),
				Diff: &agentproc.Diff{Path: "/work/project/x.txt", Created: true, New: "hi"}},
		}},
		{prompt: "nested consent", answer: agentproc.AllowOnce, tools: []agentproc.ToolUpdate{
			{Agent: "expert", ID: "expert/c7", Start: true, Tool: "bash", Subject: "make", Title: "[expert] bash: make", Kind: "execute", Status: "pending", Input: json.RawMessage(`{"command":"make"}`)},
			{Agent: "expert", ID: "expert/c7", Tool: "bash", Subject: "make", Status: "failed"},
		}, perms: []agentproc.PermissionRequest{
			{Agent: "expert", ID: "expert/c7", Tool: "bash", Subject: "make", Always: "bash", Title: "[expert] bash: make", Kind: "execute", Input: json.RawMessage(`{"command":"make"}`)},
		}},
		{prompt: "fail", err: `agent "expert": llmman: cannot reach http://localhost:17434/v1: start llmman`},
	}
	for _, tt := range tests {
		h := &asker{answer: tt.answer}
		err := child.Prompt(ctx, tt.prompt, h)
		if got := fmt.Sprint(err); tt.err != "" && got != tt.err || tt.err == "" && err != nil {
			t.Errorf("%s: error %v, want %q", tt.prompt, err, tt.err)
		}
		if !reflect.DeepEqual(h.texts, tt.texts) {
			t.Errorf("%s: texts %q, want %q", tt.prompt, h.texts, tt.texts)
		}
		if !reflect.DeepEqual(h.tools, tt.tools) {
			t.Errorf("%s: tool calls\n got %+v\nwant %+v", tt.prompt, h.tools, tt.tools)
		}
		if !reflect.DeepEqual(h.perms, tt.perms) {
			t.Errorf("%s: permission requests\n got %+v\nwant %+v", tt.prompt, h.perms, tt.perms)
		}
	}
}
