package cli

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/a2aagent"
	"github.com/mm-agent/mm/internal/mustend"
	"github.com/mm-agent/mm/internal/nodetest"
)

// a2aPeers is the folder of the A2A JavaScript SDK's peers (test/a2a).
func a2aPeers(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("the A2A JavaScript peers take seconds: not in the fast lane")
	}
	dir := filepath.Join(repoRoot(), "test", "a2a")
	nodetest.Require(t, dir)
	return dir
}

// startLined starts cmd and returns the first line it writes on out (its
// stdout or stderr pipe) and the rest of that stream, to read on.
func startLined(t *testing.T, cmd *exec.Cmd, out io.ReadCloser) (string, *bufio.Reader) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(out)
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("%s wrote no line: %v", cmd, err)
	}
	return strings.TrimSpace(line), r
}

// TestA2AJSClient is the A2A JavaScript SDK (@a2a-js/sdk 0.3.14, A2A 0.3)
// as a client of mm serve --a2a: the card, two answers in one context, a
// task cancelled mid-stream, a wrong token; then SIGTERM during a task
// cancels it and ends mm serve cleanly.
func TestA2AJSClient(t *testing.T) {
	peers := a2aPeers(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"agent.served.yaml": "model: script/slow.yaml\ndescription: answers slowly when asked to\nskills: [skills]\n",
		"slow.yaml": `rules:
  - when: "^slow$"
    say: "a long answer that streams slowly, piece by piece"
    pieces: 4
    delay: 1s
  - say: "served: {{question}}"
`,
	})
	if err := os.MkdirAll(filepath.Join(dir, "skills", "review"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, filepath.Join(dir, "skills", "review"), map[string]string{
		"SKILL.md": "---\nname: review\ndescription: Review a diff.\n---\nRead the diff; say what is wrong.\n"})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	serve := exec.CommandContext(ctx, mmBin, "serve", "--a2a", "127.0.0.1:0", "--config", "agent.served.yaml", "--token-env", "SERVE_TOKEN")
	serve.Dir = dir
	serve.Env = append(os.Environ(), "SERVE_TOKEN=tok", "MM_CONFIG=", "MM_MODEL=", "MM_ASKED_DEPTH=")
	stderr, _ := serve.StderrPipe()
	first, rest := startLined(t, serve, stderr)
	url := regexp.MustCompile(`at (http://127\.0\.0\.1:\d+/) `).FindStringSubmatch(first)
	if url == nil {
		t.Fatalf("mm serve said %q", first)
	}

	client := exec.CommandContext(ctx, "node", "client.mjs", url[1], "tok")
	client.Dir = peers
	out, err := client.CombinedOutput()
	if err != nil {
		t.Fatalf("client.mjs: %v\n%s", err, out)
	}
	want := `card: served streaming=true description=answers slowly when asked to skills=review
answer 1: served: first question [completed]
answer 2: served: second question [completed] same context: true
cancel: canceled
slow: a long answe [canceled]
wrong token: refused (401)
`
	if string(out) != want {
		t.Errorf("client.mjs wrote\n%s\nwant\n%s", out, want)
	}

	// SIGTERM while a task runs: the task is cancelled, its client reads
	// so, and mm serve exits.
	asker, err := a2aagent.New(a2aagent.Options{Name: "served", URL: url[1], Token: "tok"})
	if err != nil {
		t.Fatal(err)
	}
	began := make(chan struct{})
	ended := make(chan error, 1)
	var once sync.Once
	go func() {
		ended <- asker.Prompt(ctx, "slow", func(string) { once.Do(func() { close(began) }) })
	}()
	<-began
	if err := serve.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	wantErr := `agent "served": the agent cancelled the task: mm serve is stopping`
	if err := <-ended; err == nil || err.Error() != wantErr {
		t.Errorf("a task under way at SIGTERM: %v, want %s", err, wantErr)
	}
	after, _ := io.ReadAll(rest)
	err = serve.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 128+int(syscall.SIGTERM) {
		t.Errorf("mm serve after SIGTERM: %v, want exit status 143", err)
	}
	if len(after) > 0 {
		t.Errorf("mm serve wrote on stderr after its first line:\n%s", after)
	}
}

// TestA2AJSServer is mm asking an A2A agent of the JavaScript SDK: the
// answer, one context across hand-offs, a failed task, input-required, a
// wrong token, a card without streaming (message/send), and a cancel that
// reaches the agent.
func TestA2AJSServer(t *testing.T) {
	peers := a2aPeers(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	agent := func(streaming string) (port string, stderr *lockedBuffer) {
		cmd := exec.CommandContext(ctx, "node", "server.mjs")
		cmd.Dir = peers
		cmd.Env = append(os.Environ(), "TOKEN=jtok", "STREAMING="+streaming)
		stderr = &lockedBuffer{}
		cmd.Stderr = stderr
		stdout, _ := cmd.StdoutPipe()
		line, _ := startLined(t, cmd, stdout)
		t.Cleanup(func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() })
		port, ok := strings.CutPrefix(line, "listening ")
		if !ok {
			t.Fatalf("server.mjs said %q", line)
		}
		return port, stderr
	}
	streamingPort, agentErr := agent("1")
	sendPort, _ := agent("0")
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"agent.yaml": "model: echo/main\nmmConfigs:\n" +
		"  js: {a2a: \"http://127.0.0.1:" + streamingPort + "/\", tokenEnv: JS_TOKEN}\n" +
		"  jssend: {a2a: \"http://127.0.0.1:" + sendPort + "/\", tokenEnv: JS_TOKEN}\n"})
	mm := func(token, stdin string, args ...string) (string, string, int) {
		cmd := exec.CommandContext(ctx, mmBin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "JS_TOKEN="+token, "MM_CONFIG=", "MM_MODEL=", "MM_ASKED_DEPTH=")
		cmd.Stdin = strings.NewReader(stdin)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return out.String(), errb.String(), code
	}
	for _, tc := range []struct {
		name, token, agent, question string
		stdout, stderr               string
		code                         int
	}{
		{"answer", "jtok", "js", "hello", "js: hello (message 1 of this context)\n", "", 0},
		{"message/send", "jtok", "jssend", "hello", "js: hello (message 1 of this context)\n", "", 0},
		{"failed", "jtok", "js", "fail", "", "[ask: agent \"js\": the task failed: the JS agent failed on purpose]\n", 1},
		{"input-required", "jtok", "js", "input", "",
			"[ask: agent \"js\": the agent asks for more input (input-required), which a hand-off cannot give: which branch?]\n", 1},
		{"wrong token", "bad", "js", "hi", "",
			"[ask: agent \"js\": message/stream: 401 Unauthorized: the agent refused the token in $JS_TOKEN: check it]\n", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := mm(tc.token, "", "--ask", tc.agent, tc.question)
			if stdout != tc.stdout || stderr != tc.stderr || code != tc.code {
				t.Errorf("mm --ask %s %q: stdout %q, stderr %q, exit %d; want %q, %q, %d",
					tc.agent, tc.question, stdout, stderr, code, tc.stdout, tc.stderr, tc.code)
			}
		})
	}

	// Two hand-offs of one session go in one context.
	stdout, stderr, _ := mm("jtok", "/ask js one\n/ask js two\n")
	if !strings.Contains(stdout, "js: one (message 1 of this context)") || !strings.Contains(stdout, "js: two (message 2 of this context)") {
		t.Errorf("the line mode's two hand-offs:\n%s\n%s", stdout, stderr)
	}

	// Ctrl-C during the answer cancels the task on the agent.
	cmd := exec.CommandContext(ctx, mmBin, "--ask", "js", "slow")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "JS_TOKEN=jtok", "MM_CONFIG=", "MM_MODEL=", "MM_ASKED_DEPTH=")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, len("thinking"))
	if _, err := io.ReadFull(out, buf); err != nil || string(buf) != "thinking" {
		t.Fatalf("mm --ask js slow wrote %q (%v)", buf, err)
	}
	cmd.Process.Signal(os.Interrupt)
	io.Copy(io.Discard, out)
	cmd.Wait()
	if errb.String() != "[ask: cancelled]\n" {
		t.Errorf("stderr after Ctrl-C: %q", errb.String())
	}
	mustend.WaitFor(t, "the agent hearing tasks/cancel", func() bool { return strings.Contains(agentErr.String(), "cancelled 1") })
}

// lockedBuffer is a running program's output, read while it writes.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
