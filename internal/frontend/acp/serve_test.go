package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/mustend"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// wait bounds what must finish, generously: the machine may be loaded.
const wait = 30 * time.Second

// harness is an editor talking to Serve over pipes.
type harness struct {
	t        *testing.T
	conn     *acp.ClientSideConnection
	client   *recClient
	sessions *sessions
	errw     *syncBuffer
	in       *io.PipeWriter
	served   chan error
}

func newHarness(t *testing.T, displayHooks bool) *harness {
	t.Helper()
	ss := &sessions{}
	h := serveHarness(t, Options{
		Session:    orchestrator.Options{Config: &mmconfigs.Config{DisplayHooks: displayHooks}, Model: "echo/x"},
		Version:    "1.2.3",
		NewSession: ss.new,
	})
	h.sessions = ss
	return h
}

// serveHarness serves opts to a new editor, initialised.
func serveHarness(t *testing.T, opts Options) *harness {
	t.Helper()
	return serveClient(t, opts, nil)
}

// serveClient serves opts to a new client that names itself info in
// initialize (nil: no name, as some editors do).
func serveClient(t *testing.T, opts Options, info *acp.Implementation) *harness {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &harness{
		t:      t,
		client: &recClient{},
		errw:   &syncBuffer{},
		in:     inW,
		served: make(chan error, 1),
	}
	go func() {
		h.served <- Serve(context.Background(), inR, outW, h.errw, opts)
		outW.Close()
	}()
	h.conn = acp.NewClientSideConnection(h.client, inW, outR)
	h.conn.SetLogger(slog.New(slog.DiscardHandler))
	t.Cleanup(h.stop)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if _, err := h.conn.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber, ClientInfo: info}); err != nil {
		t.Fatal(err)
	}
	return h
}

// stop ends the editor's side and waits for Serve to return, as when an
// editor quits; again is harmless.
func (h *harness) stop() {
	h.in.Close()
	select {
	case <-h.served:
		h.served <- nil
	case <-time.After(wait):
		h.t.Error("Serve did not return after its input ended")
	}
}

// newSession opens a session and waits for its commands, which it forgets.
func (h *harness) newSession(cwd string) acp.SessionId {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	resp, err := h.conn.NewSession(ctx, acp.NewSessionRequest{Cwd: cwd, McpServers: []acp.McpServer{}})
	if err != nil {
		h.t.Fatal(err)
	}
	h.client.waitUpdates(h.t, 1)
	h.client.reset()
	return resp.SessionId
}

func (h *harness) prompt(id acp.SessionId, blocks ...acp.ContentBlock) (acp.PromptResponse, error) {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	return h.conn.Prompt(ctx, acp.PromptRequest{SessionId: id, Prompt: blocks})
}

// recClient is the editor: it writes down the updates, as JSON, and
// answers permission requests with answer.
type recClient struct {
	mu      sync.Mutex
	updates []string
	perms   []string
	// answer picks the option, by id; "" cancels.
	answer string
	// onUpdate, when set, sees each update.
	onUpdate func(acp.SessionUpdate)
}

func (c *recClient) SessionUpdate(_ context.Context, n acp.SessionNotification) error {
	b, err := json.Marshal(n.Update)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.updates = append(c.updates, string(b))
	f := c.onUpdate
	c.mu.Unlock()
	if f != nil {
		f(n.Update)
	}
	return nil
}

func (c *recClient) RequestPermission(_ context.Context, p acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return acp.RequestPermissionResponse{}, err
	}
	c.mu.Lock()
	c.perms = append(c.perms, string(b))
	answer := c.answer
	c.mu.Unlock()
	if answer == "" {
		return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeCancelled()}, nil
	}
	return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeSelected(acp.PermissionOptionId(answer))}, nil
}

func (c *recClient) set(answer string, onUpdate func(acp.SessionUpdate)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.answer, c.onUpdate = answer, onUpdate
}

// permissions returns the ids of the tool calls permission was asked for.
func (c *recClient) permissions() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var ids []string
	for _, p := range c.perms {
		var r acp.RequestPermissionRequest
		json.Unmarshal([]byte(p), &r)
		ids = append(ids, string(r.ToolCall.ToolCallId))
	}
	return ids
}

func (c *recClient) got() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.updates...)
}

func (c *recClient) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.updates, c.perms = nil, nil
}

func (c *recClient) waitUpdates(t *testing.T, n int) {
	t.Helper()
	if !mustend.Eventually(wait, func() bool { return len(c.got()) >= n }) {
		t.Fatalf("waited for %d updates, got %q", n, c.got())
	}
}

func (c *recClient) ReadTextFile(context.Context, acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	return acp.ReadTextFileResponse{}, errors.New("no")
}

func (c *recClient) WriteTextFile(context.Context, acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	return acp.WriteTextFileResponse{}, errors.New("no")
}

func (c *recClient) CreateTerminal(context.Context, acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	return acp.CreateTerminalResponse{}, errors.New("no")
}

func (c *recClient) KillTerminal(context.Context, acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return acp.KillTerminalResponse{}, errors.New("no")
}

func (c *recClient) TerminalOutput(context.Context, acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return acp.TerminalOutputResponse{}, errors.New("no")
}

func (c *recClient) ReleaseTerminal(context.Context, acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return acp.ReleaseTerminalResponse{}, errors.New("no")
}

func (c *recClient) WaitForTerminalExit(context.Context, acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return acp.WaitForTerminalExitResponse{}, errors.New("no")
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func equalLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got:\n  %s\nwant:\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestInitialize: the capabilities, with and without a store of sessions.
func TestInitialize(t *testing.T) {
	tests := []struct {
		store Store
		want  string
	}{
		{nil, `{"jsonrpc":"2.0","id":1,"result":{"agentCapabilities":{"auth":{},"mcpCapabilities":{},"promptCapabilities":{},"sessionCapabilities":{"close":{}}},"agentInfo":{"name":"mm","version":"1.2.3"},"authMethods":[],"protocolVersion":1}}`},
		{newMemStore(), `{"jsonrpc":"2.0","id":1,"result":{"agentCapabilities":{"auth":{},"loadSession":true,"mcpCapabilities":{},"promptCapabilities":{},"sessionCapabilities":{"close":{},"list":{}}},"agentInfo":{"name":"mm","version":"1.2.3"},"authMethods":[],"protocolVersion":1}}`},
	}
	for _, tt := range tests {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		go func() {
			Serve(context.Background(), inR, outW, io.Discard, Options{Version: "1.2.3", NewSession: (&sessions{}).new, Store: tt.store})
			outW.Close()
		}()
		go io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`+"\n")
		line, err := readLine(outR)
		inW.Close()
		if err != nil {
			t.Fatal(err)
		}
		if line != tt.want {
			t.Errorf("initialize answered\n %s\nwant\n %s", line, tt.want)
		}
	}
}

func readLine(r io.Reader) (string, error) {
	var b []byte
	one := make([]byte, 1)
	for {
		if _, err := r.Read(one); err != nil {
			return string(b), err
		}
		if one[0] == '\n' {
			return string(b), nil
		}
		b = append(b, one[0])
	}
}

func TestNewSession(t *testing.T) {
	h := newHarness(t, false)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	resp, err := h.conn.NewSession(ctx, acp.NewSessionRequest{Cwd: "/work/project", McpServers: []acp.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	h.client.waitUpdates(t, 1)
	equalLines(t, "updates", h.client.got(), []string{
		`{"availableCommands":[{"description":"ask expert a question","input":{"hint":"question"},"name":"ask-expert"},{"description":"ask expert a question, sending this conversation along","input":{"hint":"question"},"name":"ask-with-context-expert"},{"description":"compress the conversation now, to fit the model's window","name":"compact"}],"sessionUpdate":"available_commands_update"}`,
	})
	f := h.sessions.get(0)
	if f.opts.Cwd != "/work/project" || f.opts.Sink == nil || f.opts.Model != "echo/x" {
		t.Errorf("session options: cwd %q, sink %v, model %q", f.opts.Cwd, f.opts.Sink, f.opts.Model)
	}
	if !strings.HasPrefix(string(resp.SessionId), "mm-") {
		t.Errorf("session id %q", resp.SessionId)
	}
}

// TestNewSessionWithoutAgents: a session whose configuration asks no agent
// still offers /compact, which Prompt runs.
func TestNewSessionWithoutAgents(t *testing.T) {
	h := newHarness(t, false)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if _, err := h.conn.NewSession(ctx, acp.NewSessionRequest{Cwd: "/no-agents", McpServers: []acp.McpServer{}}); err != nil {
		t.Fatal(err)
	}
	h.client.waitUpdates(t, 1)
	equalLines(t, "updates", h.client.got(), []string{
		`{"availableCommands":[{"description":"compress the conversation now, to fit the model's window","name":"compact"}],"sessionUpdate":"available_commands_update"}`,
	})
}

func TestNewSessionErrors(t *testing.T) {
	h := newHarness(t, false)
	tests := []struct {
		cwd, want string
	}{
		{"relative/dir", `{"code":-32602,"message":"Invalid params","data":{"error":"cwd \"relative/dir\" is not an absolute path"}}`},
		{"/fail", `{"code":-32603,"message":"[config error: agent.yaml: model: none given]"}`},
	}
	for _, tt := range tests {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		_, err := h.conn.NewSession(ctx, acp.NewSessionRequest{Cwd: tt.cwd, McpServers: []acp.McpServer{}})
		cancel()
		if got := errString(err); got != tt.want {
			t.Errorf("cwd %q: error %s, want %s", tt.cwd, got, tt.want)
		}
	}
	if got, want := h.errw.String(), "mm: [config error: agent.yaml: model: none given]\n"; got != want {
		t.Errorf("stderr = %q, want %q", got, want)
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// TestTurns compares the updates of each scripted turn byte for byte.
func TestTurns(t *testing.T) {
	tests := []struct {
		prompt       string
		displayHooks bool
		answer       string // the option the editor picks
		want         []string
		perms        []string // the calls permission is asked for
		stderr       string
	}{
		{prompt: "hello", want: []string{
			`{"content":{"text":"Hel","type":"text"},"sessionUpdate":"agent_message_chunk"}`,
			`{"content":{"text":"lo","type":"text"},"sessionUpdate":"agent_message_chunk"}`,
		}},
		{prompt: "tool", want: []string{
			`{"_meta":{"mm":{"subject":"ls \u0026\u0026 echo \u003cx\u003e","tool":"bash"}},"kind":"execute","rawInput":{"command":"ls \u0026\u0026 echo \u003cx\u003e"},"sessionUpdate":"tool_call","status":"in_progress","title":"bash: ls \u0026\u0026 echo \u003cx\u003e","toolCallId":"c1"}`,
			`{"_meta":{"mm":{"subject":"ls \u0026\u0026 echo \u003cx\u003e","tool":"bash"}},"content":[{"content":{"text":"a.txt","type":"text"},"type":"content"}],"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"c1"}`,
			`{"_meta":{"mm":{"subject":"a.txt","tool":"read_file"}},"kind":"read","locations":[{"path":"/work/project/a.txt"}],"rawInput":{"path":"a.txt"},"sessionUpdate":"tool_call","status":"in_progress","title":"read_file: a.txt","toolCallId":"c2"}`,
			`{"_meta":{"mm":{"subject":"a.txt","tool":"read_file"}},"content":[{"content":{"text":"no such file","type":"text"},"type":"content"}],"sessionUpdate":"tool_call_update","status":"failed","toolCallId":"c2"}`,
			`{"content":{"text":"done","type":"text"},"sessionUpdate":"agent_message_chunk"}`,
		}},
		{prompt: "denied", want: []string{
			`{"_meta":{"mm":{"denied":"hook","subject":"rm -rf build","tool":"bash"}},"content":[{"content":{"text":"[denied by a hook: no deletions]","type":"text"},"type":"content"}],"kind":"execute","sessionUpdate":"tool_call","status":"failed","title":"bash: rm -rf build — denied by a hook","toolCallId":"c1"}`,
			`{"_meta":{"mm":{"denied":"hook","tool":"my_tool"}},"content":[{"content":{"text":"[denied by a hook: no]","type":"text"},"type":"content"}],"kind":"other","sessionUpdate":"tool_call","status":"failed","title":"my_tool — denied by a hook","toolCallId":"c2"}`,
		}},
		{prompt: "hooks", displayHooks: true, want: []string{
			`{"_meta":{"mm":{"hook":true}},"kind":"other","sessionUpdate":"tool_call","status":"completed","title":"🪝 preGeneration · guard.sh → continue","toolCallId":"mm-hook-1"}`,
			`{"_meta":{"mm":{"hook":true}},"kind":"other","sessionUpdate":"tool_call","status":"failed","title":"🪝 postGeneration · log.sh → failed","toolCallId":"mm-hook-2"}`,
			`{"_meta":{"mm":{"notice":"info"}},"content":{"text":"🪝 postAsk: expert's answer was replaced by a hook — the asking agent reads the new one\n","type":"text"},"sessionUpdate":"agent_thought_chunk"}`,
		}, stderr: "🪝 postGeneration hook `log.sh`: exit status 1: oops\n"},
		{prompt: "hooks", displayHooks: false, want: []string{
			`{"_meta":{"mm":{"notice":"info"}},"content":{"text":"🪝 postAsk: expert's answer was replaced by a hook — the asking agent reads the new one\n","type":"text"},"sessionUpdate":"agent_thought_chunk"}`,
		}, stderr: "🪝 postGeneration hook `log.sh`: exit status 1: oops\n"},
		{prompt: "compress", want: []string{
			`{"_meta":{"mm":{"notice":"info"}},"content":{"text":"⚙ context compressed: 14,200 → 2,100 tokens\n","type":"text"},"sessionUpdate":"agent_thought_chunk"}`,
			`{"content":{"text":"ok","type":"text"},"sessionUpdate":"agent_message_chunk"}`,
		}},
		{prompt: "ask", want: []string{
			`{"_meta":{"mm":{"agent":"expert"}},"content":{"text":"An inode ","type":"text"},"sessionUpdate":"agent_thought_chunk"}`,
			`{"_meta":{"mm":{"agent":"expert"}},"content":{"text":"is…","type":"text"},"sessionUpdate":"agent_thought_chunk"}`,
			`{"_meta":{"mm":{"agent":"expert","subject":"ls","tool":"bash"}},"kind":"execute","rawInput":{"command":"ls"},"sessionUpdate":"tool_call","status":"in_progress","title":"[expert] bash: ls","toolCallId":"expert/c1"}`,
			`{"_meta":{"mm":{"agent":"expert","subject":"ls","tool":"bash"}},"content":[{"content":{"text":"x","type":"text"},"type":"content"}],"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"expert/c1"}`,
			`{"content":{"text":"An inode is…","type":"text"},"sessionUpdate":"agent_message_chunk"}`,
		}},
		{prompt: "consent", answer: "allow_once", want: []string{
			`{"_meta":{"mm":{"subject":"x.txt","tool":"write_file"}},"kind":"edit","locations":[{"path":"/work/project/x.txt"}],"rawInput":{"content":"hi","path":"x.txt"},"sessionUpdate":"tool_call","status":"pending","title":"write_file: x.txt","toolCallId":"c1"}`,
			`{"_meta":{"mm":{"subject":"x.txt","tool":"write_file"}},"rawInput":{"content":"hi","path":"x.txt"},"sessionUpdate":"tool_call_update","status":"in_progress","toolCallId":"c1"}`,
			`{"_meta":{"mm":{"subject":"x.txt","tool":"write_file"}},"content":[{"content":{"text":"wrote 2 bytes","type":"text"},"type":"content"}],"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"c1"}`,
		}, perms: []string{"c1"}},
		{prompt: "consent", answer: "reject_once", want: []string{
			`{"_meta":{"mm":{"subject":"x.txt","tool":"write_file"}},"kind":"edit","locations":[{"path":"/work/project/x.txt"}],"rawInput":{"content":"hi","path":"x.txt"},"sessionUpdate":"tool_call","status":"pending","title":"write_file: x.txt","toolCallId":"c1"}`,
			`{"_meta":{"mm":{"denied":"person","subject":"x.txt","tool":"write_file"}},"content":[{"content":{"text":"[refused: the person did not allow this call]","type":"text"},"type":"content"}],"sessionUpdate":"tool_call_update","status":"failed","title":"write_file: x.txt — denied","toolCallId":"c1"}`,
		}, perms: []string{"c1"}},
		{prompt: "nested consent", answer: "allow_always", want: []string{
			`{"_meta":{"mm":{"agent":"expert","subject":"make","tool":"bash"}},"kind":"execute","rawInput":{"command":"make"},"sessionUpdate":"tool_call","status":"pending","title":"[expert] bash: make","toolCallId":"expert/c7"}`,
			// Allowed, but the turn ended before the call ran.
			`{"_meta":{"mm":{"agent":"expert","subject":"make","tool":"bash"}},"sessionUpdate":"tool_call_update","status":"failed","toolCallId":"expert/c7"}`,
		}, perms: []string{"expert/c7"}},
		{prompt: "unnamed", want: []string{
			`{"_meta":{"mm":{"subject":"ls","tool":"bash"}},"kind":"execute","rawInput":{"command":"ls"},"sessionUpdate":"tool_call","status":"in_progress","title":"bash: ls","toolCallId":"mm-call-1"}`,
			`{"_meta":{"mm":{"subject":"ls","tool":"bash"}},"content":[{"content":{"text":"x","type":"text"},"type":"content"}],"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"mm-call-1"}`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.prompt, func(t *testing.T) {
			h := newHarness(t, tt.displayHooks)
			id := h.newSession("/work/project")
			h.client.set(tt.answer, nil)
			resp, err := h.prompt(id, acp.TextBlock(tt.prompt))
			if err != nil {
				t.Fatal(err)
			}
			if resp.StopReason != acp.StopReasonEndTurn {
				t.Errorf("stop reason %q", resp.StopReason)
			}
			equalLines(t, "updates", h.client.got(), tt.want)
			equalLines(t, "permission requests", h.client.permissions(), tt.perms)
			if got := h.errw.String(); got != tt.stderr {
				t.Errorf("stderr = %q, want %q", got, tt.stderr)
			}
		})
	}
}

func TestConsentAnswers(t *testing.T) {
	tests := []struct {
		option string
		want   orchestrator.ConsentAnswer
	}{
		{"allow_once", orchestrator.AllowOnce},
		{"allow_always", orchestrator.AllowAlways},
		{"allow_always_saved", orchestrator.AllowAlwaysSaved},
		{"reject_once", orchestrator.RejectOnce},
		{"reject_always", orchestrator.RejectAlways},
		{"", orchestrator.ConsentUnavailable}, // cancelled: nobody could answer
		{"something else", orchestrator.RejectOnce},
	}
	h := newHarness(t, false)
	id := h.newSession("/work/project")
	for i, tt := range tests {
		h.client.set(tt.option, nil)
		if _, err := h.prompt(id, acp.TextBlock("consent")); err != nil {
			t.Fatal(err)
		}
		f := h.sessions.get(0)
		f.mu.Lock()
		got := f.answers[i]
		f.mu.Unlock()
		if got != tt.want {
			t.Errorf("option %q: answer %d, want %d", tt.option, got, tt.want)
		}
	}
	h.client.mu.Lock()
	perm := h.client.perms[0]
	h.client.mu.Unlock()
	want := `{"options":[{"kind":"allow_once","name":"Allow once","optionId":"allow_once"},{"kind":"allow_always","name":"Always allow write_file in this session","optionId":"allow_always"},{"kind":"allow_always","name":"Always allow write_file, saved to agent.yaml","optionId":"allow_always_saved"},{"kind":"reject_once","name":"Reject","optionId":"reject_once"},{"kind":"reject_always","name":"Never allow write_file in this session","optionId":"reject_always"}],"sessionId":"` + string(id) + `","toolCall":{"_meta":{"mm":{"always":"write_file","detail":"x.txt","subject":"x.txt","tool":"write_file"}},"content":[{"content":{"text":"x.txt","type":"text"},"type":"content"},{"newText":"hi","path":"/work/project/x.txt","type":"diff"}],"kind":"edit","locations":[{"path":"/work/project/x.txt"}],"rawInput":{"content":"hi","path":"x.txt"},"status":"pending","title":"write_file: x.txt","toolCallId":"c1"}}`
	if perm != want {
		t.Errorf("permission request\n %s\nwant\n %s", perm, want)
	}
}

func TestPromptText(t *testing.T) {
	h := newHarness(t, false)
	id := h.newSession("/work/project")
	if _, err := h.prompt(id, acp.TextBlock("hel"), acp.TextBlock("lo")); err != nil {
		t.Fatal(err)
	}
	if _, err := h.prompt(id, acp.TextBlock("look at "), acp.ResourceLinkBlock("a.go", "file:///work/project/a.go")); err == nil {
		t.Error("the fake session has no script for the second prompt, yet it succeeded")
	}
	f := h.sessions.get(0)
	want := []string{"hello", "look at file:///work/project/a.go"}
	if !reflect.DeepEqual(f.prompts, want) {
		t.Errorf("prompts = %q, want %q", f.prompts, want)
	}
}

func TestPromptFails(t *testing.T) {
	h := newHarness(t, false)
	id := h.newSession("/work/project")
	_, err := h.prompt(id, acp.TextBlock("fail"))
	want := `{"code":-32603,"message":"llmman: cannot reach http://localhost:17434/v1: start llmman"}`
	if got := errString(err); got != want {
		t.Errorf("error %s, want %s", got, want)
	}
	_, err = h.prompt("nope", acp.TextBlock("hello"))
	want = `{"code":-32602,"message":"Invalid params","data":{"error":"unknown session \"nope\""}}`
	if got := errString(err); got != want {
		t.Errorf("error %s, want %s", got, want)
	}
}

func TestCancel(t *testing.T) {
	tests := []struct {
		prompt string
		want   []string
	}{
		{"wait", []string{
			`{"content":{"text":"working","type":"text"},"sessionUpdate":"agent_message_chunk"}`,
			// Sent after session/cancel cancelled the prompt's context.
			`{"content":{"text":" stopped","type":"text"},"sessionUpdate":"agent_message_chunk"}`,
		}},
		{"consent then cancel", []string{
			`{"_meta":{"mm":{"subject":"sleep 9","tool":"bash"}},"kind":"execute","rawInput":{"command":"sleep 9"},"sessionUpdate":"tool_call","status":"pending","title":"bash: sleep 9","toolCallId":"c1"}`,
			`{"_meta":{"mm":{"subject":"sleep 9","tool":"bash"}},"sessionUpdate":"tool_call_update","status":"failed","toolCallId":"c1"}`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.prompt, func(t *testing.T) {
			h := newHarness(t, false)
			id := h.newSession("/work/project")
			// The editor cancels as soon as the turn shows something, and
			// leaves the permission request unanswered until then.
			cancelled := make(chan struct{})
			var once sync.Once
			cancel := func() {
				once.Do(func() {
					h.conn.Cancel(context.Background(), acp.CancelNotification{SessionId: id})
					close(cancelled)
				})
			}
			h.client.set("allow_once", func(acp.SessionUpdate) { go cancel() })
			resp, err := h.prompt(id, acp.TextBlock(tt.prompt))
			if err != nil {
				t.Fatal(err)
			}
			if resp.StopReason != acp.StopReasonCancelled {
				t.Errorf("stop reason %q, want cancelled", resp.StopReason)
			}
			equalLines(t, "updates", h.client.got(), tt.want)
		})
	}
}

func TestServeEnds(t *testing.T) {
	h := newHarness(t, false)
	h.newSession("/work/a")
	h.newSession("/work/b")
	h.in.Close()
	select {
	case err := <-h.served:
		if err != nil {
			t.Errorf("Serve = %v, want nil at the end of its input", err)
		}
		h.served <- err
	case <-time.After(wait):
		t.Fatal("Serve did not return")
	}
	for i := range 2 {
		if !h.sessions.get(i).isClosed() {
			t.Errorf("session %d not closed", i)
		}
	}
}

func TestCloseSession(t *testing.T) {
	h := newHarness(t, false)
	id := h.newSession("/work/a")
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if _, err := h.conn.CloseSession(ctx, acp.CloseSessionRequest{SessionId: id}); err != nil {
		t.Fatal(err)
	}
	if !h.sessions.get(0).isClosed() {
		t.Error("session not closed")
	}
	if _, err := h.prompt(id, acp.TextBlock("hello")); err == nil {
		t.Error("prompt to a closed session succeeded")
	}
}

// What an editor sends is what its person typed (its @path lines are
// expanded, its /ask… lines run); what an asking mm sends — it names
// itself "mm" in initialize — is a question written elsewhere, answered as
// it is.
func TestPromptTypedOnlyByAnEditor(t *testing.T) {
	tests := []struct {
		name  string
		info  *acp.Implementation
		typed bool
	}{
		{"an editor naming itself", &acp.Implementation{Name: "zed", Version: "0.190"}, true},
		{"an editor naming nothing", nil, true},
		{"an asking mm", &acp.Implementation{Name: "mm"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ss := &sessions{}
			h := serveClient(t, Options{Session: orchestrator.Options{Model: "echo/x"}, NewSession: ss.new}, tt.info)
			id := h.newSession("/work/project")
			if _, err := h.prompt(id, acp.TextBlock("hello")); err != nil {
				t.Fatal(err)
			}
			f := ss.get(0)
			f.mu.Lock()
			defer f.mu.Unlock()
			if len(f.typed) != 1 || f.typed[0] != tt.typed {
				t.Errorf("typed = %v, want [%v]", f.typed, tt.typed)
			}
		})
	}
}
