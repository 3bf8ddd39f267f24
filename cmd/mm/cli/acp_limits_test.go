package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// rawEditor speaks ACP to a real mm -acp as bare JSON-RPC lines, so that a
// test decides exactly when it reads and what it sends.
type rawEditor struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	nextI int
}

func startRawEditor(t *testing.T, dir string, files map[string]string) *rawEditor {
	t.Helper()
	writeFiles(t, dir, files)
	return startRawEditorArgs(t, dir, "-acp", "--config", "agent.yaml")
}

// writeFiles writes each named file in dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// startRawEditorArgs starts mm with args in dir, an editor talking to it.
func startRawEditorArgs(t *testing.T, dir string, args ...string) *rawEditor {
	t.Helper()
	return startRawEditorEnv(t, dir, nil, args...)
}

// startRawEditorEnv starts mm with args in dir, its environment the
// test's with env added.
func startRawEditorEnv(t *testing.T, dir string, env []string, args ...string) *rawEditor {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	cmd := exec.CommandContext(ctx, mmBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MM_CONFIG=", "MM_ASKED_DEPTH=", "MM_MODEL=", "MM_ASK_CHAIN=", "MM_BIN=", "MM_ASK_MAX_DEPTH=")
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = os.Stderr
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
	e := &rawEditor{t: t, cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	t.Cleanup(func() {
		in.Close()
		_ = cmd.Wait()
		cancel()
	})
	return e
}

// send writes one message; a request gets the next id, which it returns.
func (e *rawEditor) send(method string, params any, request bool) int {
	e.t.Helper()
	msg := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
	id := 0
	if request {
		e.nextI++
		id = e.nextI
		msg["id"] = id
	}
	b, err := json.Marshal(msg)
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.in.Write(append(b, '\n')); err != nil {
		e.t.Fatalf("write %s: %v", method, err)
	}
	return id
}

type rawMessage struct {
	ID     *int            `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// until reads messages until the response to id, passing each notification
// to each (which may be nil).
func (e *rawEditor) until(id int, each func(rawMessage)) rawMessage {
	e.t.Helper()
	for {
		line, err := e.out.ReadBytes('\n')
		if err != nil {
			e.t.Fatalf("mm -acp ended before answering request %d: %v", id, err)
		}
		var m rawMessage
		if err := json.Unmarshal(line, &m); err != nil {
			e.t.Fatalf("mm -acp wrote %q: %v", line, err)
		}
		if m.ID != nil && m.Method == "" && *m.ID == id {
			return m
		}
		if m.ID == nil && each != nil {
			each(m)
		}
	}
}

// session does initialize and session/new, returning the session id.
func (e *rawEditor) session(dir string) string {
	e.t.Helper()
	e.until(e.send("initialize", map[string]any{"protocolVersion": 1}, true), nil)
	r := e.until(e.send("session/new", map[string]any{"cwd": dir, "mcpServers": []any{}}, true), nil)
	var s struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(r.Result, &s); err != nil || s.SessionID == "" {
		e.t.Fatalf("session/new answered %s", r.Result)
	}
	return s.SessionID
}

func (e *rawEditor) prompt(session, text string) int {
	return e.send("session/prompt", map[string]any{"sessionId": session,
		"prompt": []any{map[string]any{"type": "text", "text": text}}}, true)
}

// textOf is the text of an update's message chunk; thoughtOf that of a
// thought chunk (an asked agent's text, as it streams).
func textOf(m rawMessage) string    { return chunkOf(m, "agent_message_chunk") }
func thoughtOf(m rawMessage) string { return chunkOf(m, "agent_thought_chunk") }

func chunkOf(m rawMessage, kind string) string {
	var p struct {
		Update struct {
			Kind    string `json:"sessionUpdate"`
			Content struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"update"`
	}
	if m.Method != "session/update" || json.Unmarshal(m.Params, &p) != nil || p.Update.Kind != kind {
		return ""
	}
	return p.Update.Content.Text
}

const bigAnswerAgent = `model: echo/main
mmConfigs:
  big: big.yaml
`

// TestACPSlowEditor: an editor that stops reading for a while still gets
// the whole of an asked agent's 1 MB answer, streamed in 7-character
// pieces, and the prompt ends normally.
func TestACPSlowEditor(t *testing.T) {
	if testing.Short() {
		t.Skip("an editor that stops reading for 3 s: not in the -short lane")
	}
	dir := t.TempDir()
	answer := strings.Repeat("y", 1_050_000)
	e := startRawEditor(t, dir, map[string]string{
		"agent.yaml":      bigAnswerAgent,
		"big.yaml":        "model: script/big-script.yaml\n",
		"big-script.yaml": fmt.Sprintf("rules:\n  - pieces: 150000\n    say: %s\n", answer),
	})
	s := e.session(dir)
	id := e.prompt(s, "/ask big q")
	time.Sleep(3 * time.Second) // the editor is busy: mm's writes wait
	var streamed, read strings.Builder
	r := e.until(id, func(m rawMessage) {
		streamed.WriteString(thoughtOf(m))
		read.WriteString(textOf(m))
	})
	if r.Error != nil {
		t.Fatalf("prompt failed: %s", r.Error.Message)
	}
	if got := strings.TrimSpace(streamed.String()); got != answer {
		t.Errorf("the editor saw %d characters stream, want the answer's %d", len(got), len(answer))
	}
	if !strings.Contains(read.String(), answer) {
		t.Errorf("the answer read back (%d characters) does not hold the whole answer", read.Len())
	}
}

// TestACPCancelFlood: 20,000 session/cancel notifications in one burst do
// not end mm -acp; it answers the next request.
func TestACPCancelFlood(t *testing.T) {
	dir := t.TempDir()
	e := startRawEditor(t, dir, map[string]string{"agent.yaml": "model: echo/main\n"})
	s := e.session(dir)
	var burst strings.Builder
	for range 20_000 {
		fmt.Fprintf(&burst, `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":%q}}`+"\n", s)
	}
	if _, err := io.WriteString(e.in, burst.String()); err != nil {
		t.Fatalf("write the burst: %v", err)
	}
	var got strings.Builder
	r := e.until(e.prompt(s, "still there?"), func(m rawMessage) { got.WriteString(textOf(m)) })
	if r.Error != nil {
		t.Fatalf("prompt after the burst failed: %s", r.Error.Message)
	}
	if got.String() != "still there?" {
		t.Errorf("answer after the burst = %q, want the echo", got.String())
	}
}

// TestACPOversizedMessage: a request over 10 MiB is answered with a
// JSON-RPC error naming the limit, and mm -acp goes on.
func TestACPOversizedMessage(t *testing.T) {
	dir := t.TempDir()
	e := startRawEditor(t, dir, map[string]string{"agent.yaml": "model: echo/main\n"})
	s := e.session(dir)
	id := e.prompt(s, strings.Repeat("z", 11<<20))
	r := e.until(id, nil)
	if r.Error == nil {
		t.Fatalf("an 11 MiB prompt was answered %s, want an error", r.Result)
	}
	const want = "over the limit of 10485760 bytes (10 MiB) for one message"
	if r.Error.Code != -32600 || !strings.Contains(r.Error.Message, want) {
		t.Errorf("error = %d %q, want -32600 and %q", r.Error.Code, r.Error.Message, want)
	}
	var got strings.Builder
	r = e.until(e.prompt(s, "after"), func(m rawMessage) { got.WriteString(textOf(m)) })
	if r.Error != nil || got.String() != "after" {
		t.Errorf("the next prompt got %q, error %v; want the echo", got.String(), r.Error)
	}
}

// TestACPReplacedAnswerSummary: when a postAsk hook replaces an answer, the
// editor's ask_agent call reads the summary the terminal shows, then what
// the asking agent reads.
func TestACPReplacedAnswerSummary(t *testing.T) {
	dir := t.TempDir()
	e := startRawEditor(t, dir, map[string]string{
		"agent.yaml": `model: script/main.yaml
yolo: true
mmConfigs:
  expert: expert.yaml
hooks:
  postAsk:
    - command: printf '{"answer":"An inode is a record."}'
`,
		"expert.yaml": "model: echo/expert\n",
		"main.yaml": `rules:
  - afterTool: ask_agent
    say: "read: {{output}}"
  - calls:
      - name: ask_agent
        args: {agent: expert, question: "What is an inode?"}
`,
	})
	s := e.session(dir)
	var content [][]string
	r := e.until(e.prompt(s, "go"), func(m rawMessage) {
		var p struct {
			Update struct {
				Kind    string `json:"sessionUpdate"`
				Status  string `json:"status"`
				Content []struct {
					Content struct {
						Text string `json:"text"`
					} `json:"content"`
				} `json:"content"`
			} `json:"update"`
		}
		if json.Unmarshal(m.Params, &p) == nil && p.Update.Kind == "tool_call_update" && p.Update.Status == "completed" {
			var texts []string
			for _, c := range p.Update.Content {
				texts = append(texts, c.Content.Text)
			}
			content = append(content, texts)
		}
	})
	if r.Error != nil {
		t.Fatalf("prompt failed: %s", r.Error.Message)
	}
	want := []string{"expert answered; a hook replaced the answer (21 characters)", "An inode is a record."}
	if len(content) != 1 || !slices.Equal(content[0], want) {
		t.Errorf("ask_agent's call ended with %q, want %q", content, want)
	}
}
