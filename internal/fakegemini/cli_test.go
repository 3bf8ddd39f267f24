package fakegemini_test

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/mm-agent/mm/internal/fakegemini"
	"github.com/mm-agent/mm/internal/nodetest"
)

// peersDir is test/peers, the npm folder that holds Gemini CLI.
func peersDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "test", "peers")
}

// client is the ACP client side: it keeps the agent's text and tool calls,
// and answers permission requests with the option of kind answer (none:
// "cancelled", as mm does where nobody can be asked).
type client struct {
	answer acp.PermissionOptionKind

	mu    sync.Mutex
	text  strings.Builder
	perms []acp.RequestPermissionRequest
	calls []string // "toolCallId status" of every tool call update
}

func (c *client) RequestPermission(_ context.Context, p acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	c.mu.Lock()
	c.perms = append(c.perms, p)
	c.mu.Unlock()
	for _, o := range p.Options {
		if o.Kind == c.answer {
			return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeSelected(o.OptionId)}, nil
		}
	}
	return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeCancelled()}, nil
}

func (c *client) SessionUpdate(_ context.Context, n acp.SessionNotification) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch u := n.Update; {
	case u.AgentMessageChunk != nil && u.AgentMessageChunk.Content.Text != nil:
		c.text.WriteString(u.AgentMessageChunk.Content.Text.Text)
	case u.ToolCall != nil:
		c.calls = append(c.calls, "tool_call "+string(u.ToolCall.Status))
	case u.ToolCallUpdate != nil && u.ToolCallUpdate.Status != nil:
		c.calls = append(c.calls, "tool_call_update "+string(*u.ToolCallUpdate.Status))
	}
	return nil
}

func (*client) ReadTextFile(context.Context, acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	return acp.ReadTextFileResponse{}, acp.NewMethodNotFound(acp.ClientMethodFsReadTextFile)
}

func (*client) WriteTextFile(context.Context, acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	return acp.WriteTextFileResponse{}, acp.NewMethodNotFound(acp.ClientMethodFsWriteTextFile)
}

func (*client) CreateTerminal(context.Context, acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	return acp.CreateTerminalResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalCreate)
}

func (*client) KillTerminal(context.Context, acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return acp.KillTerminalResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalKill)
}

func (*client) TerminalOutput(context.Context, acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return acp.TerminalOutputResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalOutput)
}

func (*client) ReleaseTerminal(context.Context, acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return acp.ReleaseTerminalResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalRelease)
}

func (*client) WaitForTerminalExit(context.Context, acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return acp.WaitForTerminalExitResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalWaitForExit)
}

// session starts Gemini CLI in ACP mode against srv, in a fresh work folder,
// and opens a session there as mm does: initialize, then session/new with
// the folder and no MCP server, no authenticate.
func session(t *testing.T, srv *fakegemini.Server, c *client) (*acp.ClientSideConnection, acp.SessionId, string) {
	t.Helper()
	nodetest.Require(t, peersDir())
	dir := t.TempDir()
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	env, err := srv.CLIEnv(filepath.Join(dir, "home"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(peersDir(), "node_modules", ".bin", "gemini"), "--acp")
	cmd.Dir = work
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}, env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close() // Gemini CLI exits at the end of its input
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Errorf("Gemini CLI still ran 10 s after its input closed; stderr:\n%s", stderr.String())
		}
	})
	conn := acp.NewClientSideConnection(c, in, out)
	conn.SetLogger(slog.New(slog.DiscardHandler))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := conn.Initialize(ctx, acp.InitializeRequest{
		ProtocolVersion: acp.ProtocolVersionNumber,
		ClientInfo:      &acp.Implementation{Name: "mm", Version: ""},
	}); err != nil {
		t.Fatalf("initialize: %v; stderr:\n%s", err, stderr.String())
	}
	s, err := conn.NewSession(ctx, acp.NewSessionRequest{Cwd: work, McpServers: []acp.McpServer{}})
	if err != nil {
		t.Fatalf("session/new: %v; stderr:\n%s", err, stderr.String())
	}
	return conn, s.SessionId, work
}

func prompt(t *testing.T, conn *acp.ClientSideConnection, id acp.SessionId, text string) acp.StopReason {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	resp, err := conn.Prompt(ctx, acp.PromptRequest{SessionId: id, Prompt: []acp.ContentBlock{acp.TextBlock(text)}})
	if err != nil {
		t.Fatalf("session/prompt: %v", err)
	}
	return resp.StopReason
}

// TestGeminiCLIStreamsTheAnswer: Gemini CLI, spoken to over ACP, sends the
// question to the fake API with the key and the pinned model, and streams
// the API's answer back chunk by chunk; nothing else is asked of the API.
func TestGeminiCLIStreamsTheAnswer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Gemini CLI: not in the -short lane")
	}
	srv := fakegemini.Start(t, func(r fakegemini.Request) fakegemini.Reply {
		return fakegemini.Say("An inode ", "holds a file's ", "metadata.")
	})
	c := &client{}
	conn, id, _ := session(t, srv, c)
	if got := prompt(t, conn, id, "What is an inode?"); got != acp.StopReasonEndTurn {
		t.Errorf("stop reason %q, want end_turn", got)
	}
	if got, want := c.text.String(), "An inode holds a file's metadata."; got != want {
		t.Errorf("the answer streamed is %q, want %q", got, want)
	}
	var paths []string
	for _, r := range srv.Requests() {
		paths = append(paths, r.Path)
		if r.APIKey != "fake-key" {
			t.Errorf("%s came with API key %q, want fake-key", r.Path, r.APIKey)
		}
	}
	if want := []string{"/v1beta/models/" + fakegemini.Model + ":streamGenerateContent"}; strings.Join(paths, " ") != strings.Join(want, " ") {
		t.Errorf("requests %q, want %q", paths, want)
	}
	if got := srv.Generations()[0].UserText(); got != "What is an inode?" {
		t.Errorf("the model was asked %q", got)
	}
}

// TestGeminiCLIPermission: when the model calls Gemini CLI's shell tool,
// the CLI asks the client first (session/request_permission, with allow and
// reject options of the kinds ACP names); it runs the command only when
// allowed, and tells the model either way.
func TestGeminiCLIPermission(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Gemini CLI: not in the -short lane")
	}
	for _, tc := range []struct {
		name     string
		answer   acp.PermissionOptionKind
		ran      bool
		response string // in the function response the model reads
		updates  string // the tool call's updates: none before the request
		said     string
	}{
		{name: "allowed", answer: acp.PermissionOptionKindAllowOnce, ran: true, response: "ran", updates: "tool_call_update completed", said: "The command ran."},
		{name: "rejected", answer: acp.PermissionOptionKindRejectOnce, response: `Tool \"run_shell_command\" was canceled by the user.`, said: "The command was refused."},
		{name: "cancelled", answer: "", response: `Tool \"run_shell_command\" was canceled by the user.`, said: "The command was refused."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakegemini.Start(t, func(r fakegemini.Request) fakegemini.Reply {
				_, answered := r.FunctionResponse()
				switch {
				case !answered:
					return fakegemini.Call("run_shell_command", map[string]any{"command": "echo ran > proof.txt && echo ran", "description": "Write the proof"})
				case strings.Contains(string(r.Raw), "canceled by the user"):
					return fakegemini.Say("The command was refused.")
				default:
					return fakegemini.Say("The command ran.")
				}
			})
			c := &client{answer: tc.answer}
			conn, id, work := session(t, srv, c)
			if got := prompt(t, conn, id, "Write the proof."); got != acp.StopReasonEndTurn {
				t.Errorf("stop reason %q, want end_turn", got)
			}
			if len(c.perms) != 1 {
				t.Fatalf("%d permission requests, want 1", len(c.perms))
			}
			p := c.perms[0]
			var kinds []string
			for _, o := range p.Options {
				kinds = append(kinds, string(o.Kind))
			}
			if got, want := strings.Join(kinds, " "), "allow_always allow_once reject_once"; got != want {
				t.Errorf("option kinds %q, want %q", got, want)
			}
			if p.ToolCall.Kind == nil || *p.ToolCall.Kind != acp.ToolKindExecute {
				t.Errorf("the tool call's kind is %v, want execute", p.ToolCall.Kind)
			}
			_, err := os.Stat(filepath.Join(work, "proof.txt"))
			if ran := err == nil; ran != tc.ran {
				t.Errorf("the command ran: %v, want %v", ran, tc.ran)
			}
			if got, want := deref(p.ToolCall.Title), "echo ran > proof.txt && echo ran"; got != want {
				t.Errorf("the tool call's title is %q, want the command %q", got, want)
			}
			if p.ToolCall.RawInput != nil {
				t.Errorf("the tool call has a rawInput %v: Gemini CLI sends none", p.ToolCall.RawInput)
			}
			if got := strings.Join(c.calls, "; "); got != tc.updates {
				t.Errorf("tool call updates %q, want %q", got, tc.updates)
			}
			g := srv.Generations()
			if len(g) != 2 {
				t.Fatalf("%d generation requests, want 2", len(g))
			}
			if !strings.Contains(string(g[1].Raw), tc.response) {
				t.Errorf("the function response the model read lacks %q:\n%s", tc.response, g[1].Raw)
			}
			if got := c.text.String(); got != tc.said {
				t.Errorf("the answer is %q, want %q", got, tc.said)
			}
		})
	}
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
