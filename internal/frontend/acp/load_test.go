package acp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	acp "github.com/coder/acp-go-sdk"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// loadAgent is a real session's configuration: a scripted model, a hook on
// every turn (shown, with displayHooks) and one that denies deletions.
var loadAgent = map[string]string{
	"agent.yaml": `model: script/script.yaml
yolo: true
displayHooks: true
mmConfigs:
  expert: expert.yaml
hooks:
  preGeneration:
    - command: "true"
  preToolCall:
    - matcher: ^bash$
      command: case $(cat) in *rm*) printf '{"action":"deny","reason":"no deletions"}';; esac
`,
	"expert.yaml": "model: echo/x\n",
	"script.yaml": `rules:
  - role: user
    when: '^hello$'
    say: Hello there.
  - role: user
    when: '^look$'
    say: Let me look.
    calls:
      - name: bash
        args: {command: echo hi}
      - name: bash
        args: {command: echo no; exit 3}
      - name: bash
        args: {command: rm -rf build}
  - afterTool: bash
    say: Looked.
  - role: user
    when: '^what is in it'
    say: Milk.
  - role: user
    say: "Again: {{question}}"
`,
	"notes.md": "buy milk\n",
}

// loadOptions are the options of mm -acp over real sessions in a folder
// holding loadAgent, saved in st.
func loadOptions(t *testing.T, st *memStore) (Options, string) {
	t.Helper()
	dir := t.TempDir()
	for name, body := range loadAgent {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := mmconfigs.Load(filepath.Join(dir, "agent.yaml"), dir, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	return Options{Session: orchestrator.Options{Config: cfg, Environ: os.Environ()}, Store: st}, dir
}

// TestLoadSession: a session saved by one mm -acp is loaded by the next:
// its history is replayed before the response — the person's messages as
// typed, the answers, each call whole with how it ended, no hook run — its
// commands advertised, and it goes on where it was, saved in the same
// session.
func TestLoadSession(t *testing.T) {
	st := newMemStore()
	opts, dir := loadOptions(t, st)

	h := serveHarness(t, opts)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	resp, err := h.conn.NewSession(ctx, acp.NewSessionRequest{Cwd: dir, McpServers: []acp.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	id := resp.SessionId
	if id != "s1" {
		t.Fatalf("session/new gave id %q, not the saved session's s1", id)
	}
	h.client.waitUpdates(t, 1) // the commands
	for _, p := range []string{"hello", "look", "what is in it?\n@notes.md"} {
		if _, err := h.prompt(id, acp.TextBlock(p)); err != nil {
			t.Fatalf("prompt %q: %v", p, err)
		}
	}
	live := strings.Join(h.client.got(), "\n")
	if n := strings.Count(live, "🪝"); n < 2 {
		t.Fatalf("the live turns showed %d hook runs, want some to prove none is replayed:\n%s", n, live)
	}
	h.stop() // mm exits

	h = serveHarness(t, opts)
	if _, err := h.conn.LoadSession(ctx, acp.LoadSessionRequest{SessionId: id, Cwd: dir, McpServers: []acp.McpServer{}}); err != nil {
		t.Fatal(err)
	}
	equalLines(t, "replay", h.client.got(), []string{
		`{"content":{"text":"hello","type":"text"},"sessionUpdate":"user_message_chunk"}`,
		`{"content":{"text":"Hello there.","type":"text"},"sessionUpdate":"agent_message_chunk"}`,
		`{"content":{"text":"look","type":"text"},"sessionUpdate":"user_message_chunk"}`,
		`{"content":{"text":"Let me look.","type":"text"},"sessionUpdate":"agent_message_chunk"}`,
		`{"_meta":{"mm":{"subject":"echo hi","tool":"bash"}},"content":[{"content":{"text":"hi\n","type":"text"},"type":"content"}],"kind":"execute","rawInput":{"command":"echo hi"},"sessionUpdate":"tool_call","status":"completed","title":"bash: echo hi","toolCallId":"call_1"}`,
		`{"_meta":{"mm":{"subject":"echo no; exit 3","tool":"bash"}},"content":[{"content":{"text":"no\n[exit status 3]","type":"text"},"type":"content"}],"kind":"execute","rawInput":{"command":"echo no; exit 3"},"sessionUpdate":"tool_call","status":"failed","title":"bash: echo no; exit 3","toolCallId":"call_2"}`,
		`{"_meta":{"mm":{"denied":"hook","subject":"rm -rf build","tool":"bash"}},"content":[{"content":{"text":"[denied by a hook: no deletions]","type":"text"},"type":"content"}],"kind":"execute","rawInput":{"command":"rm -rf build"},"sessionUpdate":"tool_call","status":"failed","title":"bash: rm -rf build — denied by a hook","toolCallId":"call_3"}`,
		`{"content":{"text":"Looked.","type":"text"},"sessionUpdate":"agent_message_chunk"}`,
		// The question as the editor sent it, not the file it brought in.
		`{"content":{"text":"what is in it?\n@notes.md","type":"text"},"sessionUpdate":"user_message_chunk"}`,
		`{"content":{"text":"Milk.","type":"text"},"sessionUpdate":"agent_message_chunk"}`,
		`{"availableCommands":[{"description":"ask another agent: /ask \u003cagent\u003e \u003cquestion\u003e","input":{"hint":"agent and question"},"name":"ask"},{"description":"ask expert a question","input":{"hint":"question"},"name":"ask-expert"},{"description":"ask expert a question, sending this conversation along","input":{"hint":"question"},"name":"ask-with-context-expert"},{"description":"compress the conversation now, to fit the model's window","name":"compact"}],"sessionUpdate":"available_commands_update"}`,
	})

	// It goes on: the model reads the earlier turns, and the turn is saved
	// after them.
	before := len(st.history("s1"))
	h.client.reset()
	if _, err := h.prompt(id, acp.TextBlock("once more")); err != nil {
		t.Fatal(err)
	}
	after := st.history("s1")
	if len(after) != before+2 || after[before].Content != "once more" {
		t.Errorf("after the load the session saved %d messages, then %+v; want %d, then the new question", before, after[before:], before+2)
	}
}

// TestLoadSessionErrors: each bad load is one clear JSON-RPC error.
func TestLoadSessionErrors(t *testing.T) {
	st := newMemStore()
	opts, dir := loadOptions(t, st)
	h := serveHarness(t, opts)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	resp, err := h.conn.NewSession(ctx, acp.NewSessionRequest{Cwd: dir, McpServers: []acp.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	st.saved["s9"] = &memSaved{st: st, id: "s9", cwd: dir, open: true}
	tests := []struct {
		id, cwd, want string
	}{
		{"nosuch", dir, `{"code":-32002,"message":"session \"nosuch\": no saved session has this id (session/list lists them)"}`},
		{string(resp.SessionId), dir, `{"code":-32603,"message":"session \"s1\" is open already in this mm: go on with it, or session/close it before loading it again"}`},
		{"s9", dir, `{"code":-32603,"message":"session \"s9\" is in use by another mm"}`},
		{"s1", "relative", `{"code":-32602,"message":"Invalid params","data":{"error":"cwd \"relative\" is not an absolute path"}}`},
	}
	for _, tt := range tests {
		_, err := h.conn.LoadSession(ctx, acp.LoadSessionRequest{SessionId: acp.SessionId(tt.id), Cwd: tt.cwd, McpServers: []acp.McpServer{}})
		if got := errString(err); got != tt.want {
			t.Errorf("load %q in %q: error %s\nwant %s", tt.id, tt.cwd, got, tt.want)
		}
	}
	// The agent log has what went wrong with a saved session, not an id
	// the client got wrong.
	if got, want := h.errw.String(), "mm: session \"s9\" is in use by another mm\n"; got != want {
		t.Errorf("stderr = %q, want %q", got, want)
	}
}

// TestLoadSessionWithoutStore: without a store, mm offers no load and no
// list, and says so if asked all the same.
func TestLoadSessionWithoutStore(t *testing.T) {
	h := newHarness(t, false)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	_, err := h.conn.LoadSession(ctx, acp.LoadSessionRequest{SessionId: "s1", Cwd: "/work", McpServers: []acp.McpServer{}})
	if got, want := errString(err), `{"code":-32601,"message":"Method not found","data":{"method":"session/load"}}`; got != want {
		t.Errorf("session/load: %s, want %s", got, want)
	}
	_, err = h.conn.ListSessions(ctx, acp.ListSessionsRequest{})
	if got, want := errString(err), `{"code":-32601,"message":"Method not found","data":{"method":"session/list"}}`; got != want {
		t.Errorf("session/list: %s, want %s", got, want)
	}
}

// TestListSessions: session/list gives the saved sessions, the latest
// first, of one folder or of all.
func TestListSessions(t *testing.T) {
	st := newMemStore()
	st.saved["a"] = &memSaved{st: st, id: "a", cwd: "/work/one", updated: st.tick(),
		history: []llm.Message{{Role: llm.RoleUser, Content: "first question"}, {Role: llm.RoleAssistant, Content: "answer"}}}
	st.saved["b"] = &memSaved{st: st, id: "b", cwd: "/work/two", updated: st.tick()}
	st.saved["c"] = &memSaved{st: st, id: "c", cwd: "/work/one", updated: st.tick(),
		history: []llm.Message{{Role: llm.RoleUser, Content: "later question"}}}
	h := serveHarness(t, Options{NewSession: (&sessions{}).new, Store: st})
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	tests := []struct {
		cwd  *string
		want []acp.SessionInfo
	}{
		{nil, []acp.SessionInfo{
			{SessionId: "c", Cwd: "/work/one", Title: acp.Ptr("later question"), UpdatedAt: acp.Ptr("2026-12-01T09:03:00Z")},
			{SessionId: "b", Cwd: "/work/two", UpdatedAt: acp.Ptr("2026-12-01T09:02:00Z")},
			{SessionId: "a", Cwd: "/work/one", Title: acp.Ptr("first question"), UpdatedAt: acp.Ptr("2026-12-01T09:01:00Z")},
		}},
		{acp.Ptr("/work/one"), []acp.SessionInfo{
			{SessionId: "c", Cwd: "/work/one", Title: acp.Ptr("later question"), UpdatedAt: acp.Ptr("2026-12-01T09:03:00Z")},
			{SessionId: "a", Cwd: "/work/one", Title: acp.Ptr("first question"), UpdatedAt: acp.Ptr("2026-12-01T09:01:00Z")},
		}},
		{acp.Ptr("/nowhere"), []acp.SessionInfo{}},
	}
	for _, tt := range tests {
		resp, err := h.conn.ListSessions(ctx, acp.ListSessionsRequest{Cwd: tt.cwd})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := jsonOf(t, resp.Sessions), jsonOf(t, tt.want); got != want {
			t.Errorf("session/list in %v\n got %s\nwant %s", tt.cwd, got, want)
		}
	}
	for _, req := range []acp.ListSessionsRequest{{Cwd: acp.Ptr("work")}, {Cursor: acp.Ptr("2")}} {
		_, err := h.conn.ListSessions(ctx, req)
		if !strings.Contains(errString(err), `"code":-32602`) {
			t.Errorf("session/list %+v: error %s, want invalid params", req, errString(err))
		}
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
