package agentproc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/mm-agent/mm/internal/mustend"
)

// fakeBin is the fake ACP agent built from testdata/fakeagent.
var fakeBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "agentproc-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fakeBin = filepath.Join(dir, "fakeagent")
	build := exec.Command("go", "build", "-o", fakeBin, "./testdata/fakeagent")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build the fake agent:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// wait bounds what must finish, generously: the machine may be loaded.
const wait = 30 * time.Second

func start(t *testing.T, config string, grace time.Duration) *Agent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	a, err := Start(ctx, options(t, config, grace))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

func options(t *testing.T, config string, grace time.Duration) Options {
	return Options{
		Name:    "fake",
		Bin:     fakeBin,
		Config:  filepath.Join(t.TempDir(), config),
		Cwd:     t.TempDir(),
		Environ: append(os.Environ(), "MM_ASKED_DEPTH=1"),
		Grace:   grace,
	}
}

// recorder is a Handler that writes down what it receives. A start it is
// asked for is of opts.
type recorder struct {
	opts Options

	mu     sync.Mutex
	texts  []text
	tools  []ToolUpdate
	perms  []PermissionRequest
	answer PermissionAnswer
	// onText, when set, is called with each text.
	onText func(string)
	// blockPermission makes Permission wait for its ctx to end.
	blockPermission bool
	// onPermission, when set, is called as each permission request arrives.
	onPermission func()
	permCtxErr   error
}

type text struct{ Agent, Chunk string }

func (r *recorder) Options(context.Context) Options { return r.opts }

func (r *recorder) Warn(string) {}

func (r *recorder) Answered(string) {}

func (r *recorder) Text(agent, chunk string) {
	r.mu.Lock()
	r.texts = append(r.texts, text{agent, chunk})
	f := r.onText
	r.mu.Unlock()
	if f != nil {
		f(chunk)
	}
}

func (r *recorder) ToolCall(u ToolUpdate) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tools = append(r.tools, u)
}

func (r *recorder) Permission(ctx context.Context, req PermissionRequest) PermissionAnswer {
	r.mu.Lock()
	r.perms = append(r.perms, req)
	block, f := r.blockPermission, r.onPermission
	r.mu.Unlock()
	if f != nil {
		f()
	}
	if block {
		<-ctx.Done()
		r.mu.Lock()
		r.permCtxErr = ctx.Err()
		r.mu.Unlock()
		return AllowOnce
	}
	return r.answer
}

func (r *recorder) answerText() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, t := range r.texts {
		if t.Agent == "" {
			b.WriteString(t.Chunk)
		}
	}
	return b.String()
}

func prompt(t *testing.T, a *Agent, q string, h Handler) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	return a.Prompt(ctx, q, h)
}

func TestPromptStreamsChunks(t *testing.T) {
	a := start(t, "agent.yaml", 0)
	r := &recorder{}
	if err := prompt(t, a, "echo a b c", r); err != nil {
		t.Fatal(err)
	}
	want := []text{{"", "a"}, {"", " b"}, {"", " c"}}
	if !reflect.DeepEqual(r.texts, want) {
		t.Errorf("texts = %q, want %q", r.texts, want)
	}
	// The session goes on: a second prompt in the same child.
	r2 := &recorder{}
	if err := prompt(t, a, "echo again", r2); err != nil {
		t.Fatal(err)
	}
	if got := r2.answerText(); got != "again" {
		t.Errorf("second answer = %q, want %q", got, "again")
	}
}

func TestToolCalls(t *testing.T) {
	a := start(t, "agent.yaml", 0)
	r := &recorder{}
	if err := prompt(t, a, "tool", r); err != nil {
		t.Fatal(err)
	}
	want := []ToolUpdate{
		{ID: "call_1", Start: true, Tool: "bash", Subject: "ls", Title: "bash: ls", Kind: "execute",
			Status: StatusInProgress, Input: json.RawMessage(`{"command":"ls && echo <x>"}`)},
		{ID: "call_1", Status: StatusCompleted, Output: "a.txt"},
	}
	if !reflect.DeepEqual(r.tools, want) {
		t.Errorf("tool calls:\n got %+v\nwant %+v", r.tools, want)
	}
	if got := r.answerText(); got != "done" {
		t.Errorf("answer = %q, want %q", got, "done")
	}
}

func TestNestedAgents(t *testing.T) {
	a := start(t, "agent.yaml", 0)
	r := &recorder{}
	if err := prompt(t, a, "nested", r); err != nil {
		t.Fatal(err)
	}
	// The private thought and the notice are not relayed.
	wantTexts := []text{{"checker", "deep text"}, {"", "ok"}}
	if !reflect.DeepEqual(r.texts, wantTexts) {
		t.Errorf("texts = %q, want %q", r.texts, wantTexts)
	}
	wantTools := []ToolUpdate{{Agent: "checker", ID: "checker/call_9", Start: true, Tool: "read_file", Subject: "a.txt",
		Title: "[checker] read_file: a.txt", Kind: "read", Status: StatusFailed, DeniedBy: "hook"}}
	if !reflect.DeepEqual(r.tools, wantTools) {
		t.Errorf("tool calls:\n got %+v\nwant %+v", r.tools, wantTools)
	}
}

func TestPermissionRelayed(t *testing.T) {
	tests := []struct {
		answer PermissionAnswer
		want   string
	}{
		{AllowOnce, "selected opt-ao"},
		{AllowAlways, "selected opt-aa"},
		{RejectOnce, "selected opt-ro"},
		{RejectAlways, "selected opt-ra"},
		{Refused, "cancelled"}, // nobody could be asked: not a person's no
	}
	a := start(t, "agent.yaml", 0)
	for _, tt := range tests {
		r := &recorder{answer: tt.answer}
		if err := prompt(t, a, "permission", r); err != nil {
			t.Fatal(err)
		}
		if got := r.answerText(); got != tt.want {
			t.Errorf("answer %d: child read %q, want %q", tt.answer, got, tt.want)
		}
		wantReq := []PermissionRequest{{ID: "call_2", Tool: "write_file", Subject: "x.txt",
			Title: "write_file: x.txt", Kind: "edit", Input: json.RawMessage(`{"path":"x.txt"}`)}}
		if !reflect.DeepEqual(r.perms, wantReq) {
			t.Errorf("permission requests:\n got %+v\nwant %+v", r.perms, wantReq)
		}
	}
}

func TestPickOptionWithoutAlways(t *testing.T) {
	opts := []acp.PermissionOption{
		{Kind: acp.PermissionOptionKindAllowOnce, OptionId: "a"},
		{Kind: acp.PermissionOptionKindRejectOnce, OptionId: "r"},
	}
	tests := []struct {
		answer PermissionAnswer
		want   string
		ok     bool
	}{
		{AllowOnce, "a", true},
		{AllowAlways, "a", true},
		{RejectOnce, "r", true},
		{RejectAlways, "r", true},
		{Refused, "", false},
	}
	for _, tt := range tests {
		id, ok := pickOption(opts, tt.answer)
		if string(id) != tt.want || ok != tt.ok {
			t.Errorf("pickOption(%d) = %q, %v; want %q, %v", tt.answer, id, ok, tt.want, tt.ok)
		}
	}
	if id, ok := pickOption(opts[1:], AllowOnce); ok {
		t.Errorf("pickOption with no allow option = %q, want none", id)
	}
}

func TestCancel(t *testing.T) {
	// A grace long enough for a loaded machine: the child must stop by
	// itself here, not be killed.
	a := start(t, "agent.yaml", wait)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &recorder{onText: func(s string) {
		if s == "waiting" {
			cancel()
		}
	}}
	err := a.Prompt(ctx, "wait", r)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Prompt = %v, want an error wrapping context.Canceled", err)
	}
	if got, want := err.Error(), `agent "fake": context canceled`; got != want {
		t.Errorf("error = %q, want %q", got, want)
	}
	// The child heard session/cancel and ended the prompt itself: its last
	// update arrived. It may be mid-turn all the same: it is stopped, and
	// the next prompt starts another.
	if got := r.answerText(); got != "waitingstopped" {
		t.Errorf("answer = %q, want %q", got, "waitingstopped")
	}
	if a.p != nil {
		t.Fatal("the child is kept after a cancelled prompt")
	}
	r2 := &recorder{opts: options(t, "agent.yaml", wait)}
	if err := prompt(t, a, "echo still here", r2); err != nil {
		t.Fatal(err)
	}
}

func TestCancelDuringPermission(t *testing.T) {
	a := start(t, "agent.yaml", 0)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The prompt is cancelled once the child's permission request is here.
	r := &recorder{blockPermission: true, onPermission: cancel}
	err := a.Prompt(ctx, "permission", r)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Prompt = %v, want an error wrapping context.Canceled", err)
	}
	if !errors.Is(r.permCtxErr, context.Canceled) {
		t.Errorf("Permission's ctx ended with %v, want context.Canceled", r.permCtxErr)
	}
	if got := r.answerText(); got != "cancelled" {
		t.Errorf("child read %q, want %q", got, "cancelled")
	}
}

func TestHangKilledAfterDeadline(t *testing.T) {
	a := start(t, "agent.yaml", 100*time.Millisecond)
	pid := a.p.cmd.Process.Pid
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	err := a.Prompt(ctx, "hang", &recorder{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Prompt = %v, want an error wrapping context.DeadlineExceeded", err)
	}
	if a.p != nil || alive(pid) {
		t.Fatalf("the hanging child (process %d) was not stopped", pid)
	}
	r := &recorder{opts: options(t, "agent.yaml", 0)}
	if err := prompt(t, a, "echo x", r); err != nil || r.answerText() != "x" {
		t.Errorf("prompt after the kill = %q, %v; want x from a new child", r.answerText(), err)
	}
}

func TestFailures(t *testing.T) {
	tests := []struct {
		prompt string
		want   string
	}{
		{"crash", `agent "fake" exited (exit status 2): boom: the fake agent crashed second line`},
		{"stop max_tokens", `agent "fake" ended its turn early (stop reason "max_tokens")`},
		{"stop refusal", `agent "fake" ended its turn early (stop reason "refusal")`},
		{"fail", `agent "fake": Internal error: model unreachable`},
	}
	for _, tt := range tests {
		t.Run(tt.prompt, func(t *testing.T) {
			a := start(t, "agent.yaml", 0)
			err := prompt(t, a, tt.prompt, &recorder{})
			if got := fmt.Sprint(err); got != tt.want {
				t.Errorf("error = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestStartFailures(t *testing.T) {
	tests := []struct {
		name   string
		bin    string
		config string
		want   string
	}{
		{"config error", fakeBin, "fail-start", `start agent "fake": exited (exit status 1): [config error: fail-start: broken]`},
		{"silent exit", fakeBin, "mute", `start agent "fake": exited (exit status 0)`},
		{"no binary", "/nonexistent/mm", "agent.yaml", `start agent "fake": command "/nonexistent/mm": no such file or directory`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := options(t, tt.config, 0)
			opts.Bin = tt.bin
			if got := startFails(t, opts); got != tt.want {
				t.Errorf("error = %q, want %q", got, tt.want)
			}
		})
	}
}

// startFails starts the agent opts describes, within wait, and returns
// the start's error text; a start that succeeds fails the test.
func startFails(t *testing.T, opts Options) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	a, err := Start(ctx, opts)
	if err == nil {
		a.Close()
		t.Fatal("Start succeeded")
	}
	return err.Error()
}

func TestStartCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a, err := Start(ctx, options(t, "agent.yaml", 0))
	if err == nil {
		a.Close()
		t.Fatal("Start succeeded")
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v, want one wrapping context.Canceled", err)
	}
}

func TestEnvironmentAndCwd(t *testing.T) {
	opts := options(t, "agent.yaml", 0)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	a, err := Start(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	r := &recorder{}
	if err := a.Prompt(ctx, "env", r); err != nil {
		t.Fatal(err)
	}
	if got, want := r.answerText(), opts.Cwd+" 1"; got != want {
		t.Errorf("child saw %q, want %q", got, want)
	}
}

func TestCloseReaps(t *testing.T) {
	tests := []struct {
		name   string
		prompt string
	}{
		{"exits on end of input", "echo x"},
		{"ignores end of input", "stubborn"},
		{"leaves a process behind", "spawn"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := start(t, "agent.yaml", 100*time.Millisecond)
			pid := a.p.cmd.Process.Pid
			r := &recorder{}
			if err := prompt(t, a, tt.prompt, r); err != nil {
				t.Fatal(err)
			}
			if err := a.Close(); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
				t.Errorf("kill(%d, 0) after Close = %v, want ESRCH", pid, err)
			}
			if tt.prompt == "spawn" {
				left, err := strconv.Atoi(r.answerText())
				if err != nil {
					t.Fatal(err)
				}
				// Its new parent reaps it when it likes: wait for that.
				if !mustend.Eventually(wait, func() bool { return !alive(left) }) {
					t.Errorf("process %d the child started outlived it", left)
				}
			}
		})
	}
}

func TestNoGoroutineLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	for range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		a, err := Start(ctx, options(t, "agent.yaml", 0))
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		if err := a.Prompt(ctx, "echo x", &recorder{}); err != nil {
			t.Error(err)
		}
		a.Close()
		cancel()
	}
	mustend.Eventually(wait, func() bool { return runtime.NumGoroutine() <= before })
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines after, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}

// alive reports whether pid is a live process (a zombie is not).
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true // no /proc: trust kill
	}
	// The state follows the command name in parentheses: "pid (comm) S …".
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}
