package hooks

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/mustend"
)

// runOnce runs a single postGeneration hook and returns its run.
func runOnce(t *testing.T, e Entry) Run {
	t.Helper()
	eng, _ := testEngine(t, configOf(PostGeneration, e))
	var rec recorder
	mustend.Within(t, 30*time.Second, "the hook run", func() {
		eng.PostGeneration(context.Background(), "q", "a", "", rec.observe)
	})
	if len(rec.runs) != 1 {
		t.Fatalf("%d runs, want 1", len(rec.runs))
	}
	return rec.runs[0]
}

func TestCommandFailures(t *testing.T) {
	tests := []struct {
		name, command string
		timeout       time.Duration
		want          string
	}{
		{"exit status and stderr", "echo 'no such thing' >&2; exit 3", 0, "exit status 3: no such thing"},
		{"exit status, no stderr", "exit 4", 0, "exit status 4"},
		{"exit status, blank stderr", "echo '  ' >&2; exit 5", 0, "exit status 5"},
		{"stderr's trailing space trimmed", `printf '  bad \t\n\n' >&2; exit 1`, 0, "exit status 1:   bad"},
		{"stderr on several lines", `printf 'a\nb\n' >&2; exit 2`, 0, "exit status 2: a\nb"},
		{"stderr cut at 300 bytes", `printf '%0400d' 0 | tr 0 e >&2; exit 1`, 0, "exit status 1: " + strings.Repeat("e", 300)},
		{"stderr never cut inside a character", `printf '%0299d' 0 | tr 0 e >&2; printf 'é and more' >&2; exit 1`, 0, "exit status 1: " + strings.Repeat("e", 299)},
		{"stdout of a failed run ignored", `echo '{"context":"x"}'; exit 6`, 0, "exit status 6"},
		{"killed by a signal", "kill -9 $$", 0, "exit status 137"},
		{"timed out", "sleep 30", 100 * time.Millisecond, "timed out after 100ms"},
		{"timed out, in seconds", "sleep 30", time.Second, "timed out after 1s"},
		{"stdout larger than 1 MiB", "yes", 0, "stdout larger than 1048576 bytes"},
		{"not JSON", "echo '{'", 0, "invalid JSON on stdout: unexpected end of JSON input"},
		{"error action", `echo '{"action":"error","error":"no API key"}'`, 0, "no API key"},
		{"error action without text", `echo '{"action":"error"}'`, 0, "the hook reported an error"},
		{"unknown action", `echo '{"action":"block"}'`, 0, `action "block" is not valid for postGeneration`},
		{"action of another event", `echo '{"action":"deny"}'`, 0, `action "deny" is not valid for postGeneration`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := hook(tt.command)
			if tt.timeout > 0 {
				e.Timeout = tt.timeout
			}
			run := runOnce(t, e)
			if run.Failure != tt.want {
				t.Errorf("failure\n got %q\nwant %q", run.Failure, tt.want)
			}
			if run.Decision != "failed" {
				t.Errorf("decision %q, want failed", run.Decision)
			}
		})
	}
}

func TestCannotStart(t *testing.T) {
	eng := NewEngine(configOf(PostGeneration, hook("true")), Options{Cwd: "/no/such/dir"})
	var rec recorder
	eng.PostGeneration(context.Background(), "q", "", "", rec.observe)
	want := "cannot start sh -c in /no/such/dir: no such file or directory"
	if len(rec.runs) != 1 || rec.runs[0].Failure != want {
		t.Fatalf("runs %+v, want one failing with %q", rec.runs, want)
	}
}

func TestStdoutLimit(t *testing.T) {
	dir := t.TempDir()
	reply := func(size int) string {
		p := filepath.Join(dir, strconv.Itoa(size))
		body := `{"context":"` + strings.Repeat("x", size-14) + `"}`
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		size              int
		decision, failure string
	}{
		{MaxStdout, fmt.Sprintf("context (%d chars)", MaxStdout-14), ""},
		{MaxStdout + 1, "failed", "stdout larger than 1048576 bytes"},
	}
	for _, tt := range tests {
		eng, _ := testEngine(t, configOf(PostToolCall, hook(`cat "`+reply(tt.size)+`"`)))
		var rec recorder
		contexts := eng.PostToolCall(context.Background(), ToolCall{Name: "bash"}, "out", rec.observe)
		run := rec.runs[0]
		if run.Decision != tt.decision || run.Failure != tt.failure {
			t.Errorf("%d bytes: decision %q failure %q, want %q %q", tt.size, run.Decision, run.Failure, tt.decision, tt.failure)
		}
		if wantN := map[bool]int{true: 1, false: 0}[tt.failure == ""]; len(contexts) != wantN {
			t.Errorf("%d bytes: %d contexts, want %d", tt.size, len(contexts), wantN)
		}
	}
}

func TestStdinAndEnvironment(t *testing.T) {
	cmd := `cat > "$T/stdin"; printf '{"context":"%s|%s|%s|%s"}' "$0" "$MM_HOOK_EVENT" "$MM_CONFIG_DIR" "$(pwd -P)"`
	eng, dir := testEngine(t, configOf(PreToolCall, hook(cmd)))
	var rec recorder
	res := eng.PreToolCall(context.Background(), ToolCall{ID: "call_1", Name: "bash", Input: []byte(`{"command":"make && ls > out < in"}`)}, rec.observe)
	if res.Deny || res.InputReplaced {
		t.Fatalf("result %+v", res)
	}
	stdin, err := os.ReadFile(filepath.Join(dir, "stdin"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"event":"preToolCall","cwd":"` + dir + `","model":"echo/test","tool":{"id":"call_1","name":"bash","input":{"command":"make && ls > out < in"}}}` + "\n"
	if string(stdin) != want {
		t.Errorf("stdin\n got %s\nwant %s", stdin, want)
	}

	// $0, the environment and the working directory, read through a postToolCall
	// context so that the reply carries them.
	eng, dir = testEngine(t, configOf(PostToolCall, hook(cmd)))
	contexts := eng.PostToolCall(context.Background(), ToolCall{Name: "bash"}, "", nil)
	real, _ := filepath.EvalSymlinks(dir)
	if want := "sh|postToolCall|/configs|" + real; len(contexts) != 1 || contexts[0] != want {
		t.Errorf("contexts %q, want [%q]", contexts, want)
	}
}

func TestEnvironmentDefaultsToMMs(t *testing.T) {
	t.Setenv("MM_TEST_MARK", "here")
	eng := NewEngine(configOf(PostToolCall, hook(`printf '{"context":"%s"}' "$MM_TEST_MARK"`)), Options{Cwd: t.TempDir()})
	if got := eng.PostToolCall(context.Background(), ToolCall{Name: "x"}, "", nil); len(got) != 1 || got[0] != "here" {
		t.Errorf("contexts %q, want [here]", got)
	}
}

func TestHookIgnoringStdin(t *testing.T) {
	big := strings.Repeat("a long question ", 1<<17) // 2 MiB: more than a pipe holds
	for _, cmd := range []string{"true", `echo '{"context":"ok"}'`, "exec 0<&-; sleep 0.1"} {
		eng, _ := testEngine(t, configOf(PreGeneration, hook(cmd)))
		var rec recorder
		eng.PreGeneration(context.Background(), big, rec.observe)
		if len(rec.runs) != 1 || rec.runs[0].Failure != "" {
			t.Errorf("%s: runs %+v, want one without failure", cmd, rec.runs)
		}
	}
}

// processGone waits until the process is gone, or a zombie nobody reaps.
func processGone(t *testing.T, pid int) {
	t.Helper()
	if mustend.Eventually(5*time.Second, func() bool {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return true
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return false
		}
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		return len(f) > 0 && f[0] == "Z"
	}) {
		return
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	t.Errorf("background child %d still alive", pid)
}

func readPid(t *testing.T, dir string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func TestBackgroundChildren(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out hook timeouts: not in the -short lane")
	}
	tests := []struct {
		name, command     string
		timeout           time.Duration
		decision, failure string
	}{
		// The child holds stdout open: killing the shell alone would leave
		// the run waiting on the pipe.
		{"timeout kills the group", `sleep 60 & echo $! > "$T/pid"; sleep 60`, time.Second, "failed", "timed out after 1s"},
		{"a child holding stdout after a success", `sleep 60 & echo $! > "$T/pid"; echo '{"context":"done"}'`, 0, "context (4 chars)", ""},
		{"a child holding stderr after a failure", `sleep 60 >/dev/null & echo $! > "$T/pid"; exit 2`, 0, "failed", "exit status 2"},
		// Nothing a hook starts outlives its run, even one that let go of
		// its pipes after a success.
		{"a detached child after a success", `sleep 60 </dev/null >/dev/null 2>&1 & echo $! > "$T/pid"`, 0, "continue", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := hook(tt.command)
			if tt.timeout > 0 {
				e.Timeout = tt.timeout
			}
			eng, dir := testEngine(t, configOf(PostToolCall, e))
			var rec recorder
			mustend.Within(t, 5*time.Second, "the hook run", func() {
				eng.PostToolCall(context.Background(), ToolCall{Name: "bash"}, "", rec.observe)
			})
			run := rec.runs[0]
			if run.Decision != tt.decision || run.Failure != tt.failure {
				t.Errorf("decision %q failure %q, want %q %q", run.Decision, run.Failure, tt.decision, tt.failure)
			}
			processGone(t, readPid(t, dir))
		})
	}
}

func TestCancellation(t *testing.T) {
	eng, dir := testEngine(t, configOf(PreGeneration,
		hook(`sleep 60 & echo $! > "$T/pid"; touch "$T/started"; sleep 60`),
		hook(`touch "$T/second"`)))
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		mustend.Eventually(mustend.WaitBound, func() bool { _, err := os.Stat(filepath.Join(dir, "started")); return err == nil })
		cancel()
	}()
	var rec recorder
	var res PreGenerationResult
	mustend.Within(t, 10*time.Second, "the hook run", func() { res = eng.PreGeneration(ctx, "q", rec.observe) })
	if len(rec.runs) != 1 || rec.runs[0].Failure != "cancelled" {
		t.Fatalf("runs %+v, want one cancelled", rec.runs)
	}
	if got, want := rec.lines(), []string{
		`🪝 1. preGeneration · sleep 60 & echo $! > "$T/pid"; touch "$T/started"; sleep 60 → failed`,
		"🪝 preGeneration hook `sleep 60 & echo $! > \"$T/pid\"; touch \"$T/started\"; sleep 60`: cancelled",
	}; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines\n got %q\nwant %q", got, want)
	}
	if res.Stop {
		t.Errorf("stopped %+v: onError warn carries on", res)
	}
	if _, err := os.Stat(filepath.Join(dir, "second")); err == nil {
		t.Error("the second hook ran after the cancellation")
	}
	processGone(t, readPid(t, dir))
}
