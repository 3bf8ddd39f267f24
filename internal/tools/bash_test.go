//go:build unix

package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/mustend"
)

func testEnv(t *testing.T) Env {
	t.Helper()
	return Env{Cwd: t.TempDir(), Environ: []string{"PATH=" + os.Getenv("PATH"), "FOO=bar"}}
}

func runTool(t *testing.T, tool Tool, env Env, input string) Result {
	t.Helper()
	return tool.Run(context.Background(), env, json.RawMessage(input))
}

func TestBash(t *testing.T) {
	env := testEnv(t)
	tests := []struct {
		name    string
		input   string
		want    string
		wantErr bool
	}{
		{"output", `{"command": "echo hi"}`, "hi\n", false},
		{"stdout and stderr", `{"command": "echo out; echo err >&2"}`, "out\nerr\n", false},
		{"no output", `{"command": "true"}`, "[no output]", false},
		{"exit status", `{"command": "exit 2"}`, "[exit status 2]", true},
		{"exit status after output", `{"command": "echo x; exit 3"}`, "x\n[exit status 3]", true},
		{"exit status after unfinished line", `{"command": "printf x; exit 3"}`, "x\n[exit status 3]", true},
		{"killed by a signal", `{"command": "kill -9 $$"}`, "[signal: killed]", true},
		{"working directory", `{"command": "pwd"}`, env.Cwd + "\n", false},
		{"environment", `{"command": "echo $FOO"}`, "bar\n", false},
		{"stdin is empty", `{"command": "cat"}`, "[no output]", false},
		{"invalid UTF-8", `{"command": "printf 'a\\377b'"}`, "a\uFFFDb", false},
		{"timeout as a string", `{"command": "echo hi", "timeout": "5"}`, "hi\n", false},
		{"object inside a string", `"{\"command\": \"echo hi\"}"`, "hi\n", false},
		{"unknown properties ignored", `{"command": "echo hi", "why": "because"}`, "hi\n", false},

		{"missing command", `{}`, `bash: invalid input: missing "command"`, true},
		{"empty input", ``, `bash: invalid input: missing "command"`, true},
		{"null input", `null`, `bash: invalid input: missing "command"`, true},
		{"null command", `{"command": null}`, `bash: invalid input: missing "command"`, true},
		{"blank command", `{"command": "  "}`, `bash: invalid input: "command" is empty`, true},
		{"command not a string", `{"command": 5}`, `bash: invalid input: "command" must be a string, not a number`, true},
		{"timeout not a number", `{"command": "true", "timeout": "soon"}`, `bash: invalid input: "timeout" must be a number, not "soon"`, true},
		{"timeout an object", `{"command": "true", "timeout": {}}`, `bash: invalid input: "timeout" must be a number, not an object`, true},
		{"negative timeout", `{"command": "true", "timeout": -1}`, `bash: invalid input: "timeout" must be a positive number of seconds`, true},
		{"not an object", `["echo hi"]`, `bash: invalid input: want a JSON object, got an array`, true},
		{"invalid JSON", `{"command": `, `bash: invalid input: not valid JSON (unexpected end of JSON input)`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runTool(t, bashTool{}, env, tt.input)
			if res.Output != tt.want || res.IsError != tt.wantErr {
				t.Errorf("got  %q (IsError %v)\nwant %q (IsError %v)", res.Output, res.IsError, tt.want, tt.wantErr)
			}
		})
	}
}

// TestBashNoShellDir checks that a working directory that does not exist
// is an error result, not a panic.
func TestBashNoWorkingDirectory(t *testing.T) {
	env := Env{Cwd: filepath.Join(t.TempDir(), "gone")}
	res := runTool(t, bashTool{}, env, `{"command": "true"}`)
	if !res.IsError || !strings.HasPrefix(res.Output, "bash: start ") || !strings.Contains(res.Output, "no such file or directory") {
		t.Errorf("got %q (IsError %v)", res.Output, res.IsError)
	}
}

// backgroundPID reads the pid a command printed on its first line.
func backgroundPID(t *testing.T, out string) int {
	t.Helper()
	line, _, _ := strings.Cut(out, "\n")
	pid, err := strconv.Atoi(line)
	if err != nil {
		t.Fatalf("no pid on the first line of %q", out)
	}
	return pid
}

func TestBashTimeoutKillsTheGroup(t *testing.T) {
	env := testEnv(t)
	res := runTool(t, bashTool{}, env, `{"command": "sleep 100 & echo $!; sleep 100", "timeout": 1}`)
	pid := backgroundPID(t, res.Output)
	want := strconv.Itoa(pid) + "\n[timed out after 1s; the command was killed]"
	if res.Output != want || !res.IsError {
		t.Errorf("got  %q (IsError %v)\nwant %q (IsError true)", res.Output, res.IsError, want)
	}
	waitGone(t, pid)
}

func TestBashExitKillsBackgroundChildren(t *testing.T) {
	env := testEnv(t)
	// The background sleep holds the output pipe: the tool must not wait for it.
	res := runTool(t, bashTool{}, env, `{"command": "sleep 100 & echo $!"}`)
	if res.IsError {
		t.Fatalf("got an error: %q", res.Output)
	}
	waitGone(t, backgroundPID(t, res.Output))
}

func TestBashCancel(t *testing.T) {
	env := testEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := filepath.Join(env.Cwd, "started")
	go func() {
		mustend.Eventually(mustend.WaitBound, func() bool { _, err := os.Stat(started); return err == nil })
		cancel()
	}()
	res := bashTool{}.Run(ctx, env, json.RawMessage(`{"command": "sleep 100 & echo $!; touch started; sleep 100"}`))
	pid := backgroundPID(t, res.Output)
	want := strconv.Itoa(pid) + "\n[cancelled; the command was killed]"
	if res.Output != want || !res.IsError {
		t.Errorf("got  %q (IsError %v)\nwant %q (IsError true)", res.Output, res.IsError, want)
	}
	waitGone(t, pid)
}

func TestBashHugeOutputIsCapped(t *testing.T) {
	env := testEnv(t)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := runTool(t, bashTool{}, env, `{"command": "head -c 100000000 /dev/zero | tr '\\0' a"}`)
	runtime.ReadMemStats(&after)
	want := strings.Repeat("a", 15000) + "\n[… 99970000 bytes cut …]\n" + strings.Repeat("a", 15000) +
		"\n[output too long: 100000000 bytes, over the cap of 30000; the 99970000 bytes in the middle were left out]"
	if res.Output != want || res.IsError {
		t.Errorf("got %d characters (IsError %v), ending %q", len(res.Output), res.IsError, res.Output[max(0, len(res.Output)-200):])
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("reading 100 MB of output allocated %d bytes; want it bounded", alloc)
	}
}

func TestBashSpec(t *testing.T) {
	spec := bashTool{}.Spec()
	if spec.Name != "bash" {
		t.Errorf("Name = %q", spec.Name)
	}
	var schema struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(spec.Parameters, &schema); err != nil {
		t.Fatalf("Parameters: %v", err)
	}
	if schema.Type != "object" || len(schema.Properties) != 2 || len(schema.Required) != 1 || schema.Required[0] != "command" {
		t.Errorf("Parameters = %s", spec.Parameters)
	}
}

func TestBashFallsBackToSh(t *testing.T) {
	env := testEnv(t)
	t.Setenv("PATH", t.TempDir()) // no bash to be found
	res := runTool(t, bashTool{}, env, `{"command": "echo $0"}`)
	if res.Output != "/bin/sh\n" || res.IsError {
		t.Errorf("got %q (IsError %v), want %q", res.Output, res.IsError, "/bin/sh\n")
	}
}

func TestBashLimits(t *testing.T) {
	env := testEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := bashTool{}.Run(ctx, env, json.RawMessage(`{"command": "touch ran"}`))
	if want := "[cancelled; the command was not run]"; res.Output != want || !res.IsError {
		t.Errorf("cancelled before: got %q (IsError %v), want %q", res.Output, res.IsError, want)
	}
	if _, err := os.Stat(filepath.Join(env.Cwd, "ran")); err == nil {
		t.Error("the command ran")
	}
	// A huge timeout is the maximum, not an overflow.
	res = runTool(t, bashTool{}, env, `{"command": "echo hi", "timeout": 1e300}`)
	if res.Output != "hi\n" || res.IsError {
		t.Errorf("huge timeout: got %q (IsError %v)", res.Output, res.IsError)
	}
}
