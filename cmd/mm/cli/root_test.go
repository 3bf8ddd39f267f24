package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/acpconn"
)

// testStreams are streams for running a command in-process, as cli/cli's
// iostreams.Test gives them: stdin reads in, stdout and stderr are the
// buffers returned, none is a terminal, the environment is env alone and
// the working directory is dir.
func testStreams(dir, in string, env map[string]string) (*streams, *bytes.Buffer, *bytes.Buffer) {
	var out, errOut bytes.Buffer
	return &streams{
		In: strings.NewReader(in), Out: &out, ErrOut: &errOut,
		Getenv: func(k string) string { return env[k] },
		Environ: func() []string {
			var kv []string
			for k, v := range env {
				kv = append(kv, k+"="+v)
			}
			sort.Strings(kv)
			return kv
		},
		Getwd: func() (string, error) { return dir, nil },
	}, &out, &errOut
}

// runInProcess runs mm with args in dir, whose files are files (name to
// contents), on stdin in: the exit status, stdout and stderr.
func runInProcess(t *testing.T, files map[string]string, in string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, files)
	s, out, errOut := testStreams(dir, in, map[string]string{"PATH": os.Getenv("PATH")})
	code = runWith(context.Background(), nil, s, args)
	return code, out.String(), errOut.String()
}

// echoConfig is an agent.yaml whose model repeats what reached it, and
// which may ask expert (the same).
var echoConfig = map[string]string{
	"agent.yaml":  "model: echo/test\nmmConfigs:\n  expert: expert.yaml\n",
	"expert.yaml": "model: echo/expert\n",
	"broken.yaml": "tool: [bash]\n",
	"hooks.yaml":  "model: echo/test\n",
}

// TestModesInProcess runs the command layer in-process, on buffers: each
// mode's answers, usage errors (exit 2) and failures (exit 1), byte for
// byte.
func TestModesInProcess(t *testing.T) {
	tests := []struct {
		name   string
		stdin  string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{name: "print", args: []string{"-p", "What is an inode?"},
			stdout: "What is an inode?\n"},
		{name: "print from stdin", stdin: "read from stdin\n", args: []string{"-p"},
			stdout: "read from stdin\n"},
		{name: "print with one dash and --model", args: []string{"-model", "echo/x", "-p", "one dash"},
			stdout: "one dash\n"},
		{name: "print without a question", args: []string{"-p"}, code: 2,
			stderr: "mm -p: no question: give it as an argument (mm -p \"…\") or on stdin\n"},
		{name: "print a broken configuration", args: []string{"--config", "broken.yaml", "-p", "hi"}, code: 1,
			stderr: "[config error: broken.yaml:1: unknown key \"tool\" (did you mean \"tools\"?)]\n"},
		{name: "ask without a question", args: []string{"--ask", "expert"}, code: 2,
			stderr: "[ask: no question: mm --ask expert \"<question>\"]\n"},
		{name: "ask an unknown agent", args: []string{"--ask", "nobody", "hi"}, code: 1,
			stderr: "[ask: no agent \"nobody\" in mmConfigs (known: expert)]\n"},
		{name: "two modes", args: []string{"-p", "-tui", "hi"}, code: 2,
			stderr: "mm: give one of -p, --ask, --ask-with-context, -acp, -tui\n"},
		{name: "a format for the line mode", args: []string{"--output-format", "json"}, code: 2,
			stderr: "mm: --output-format json works with -p and --ask only\n"},
		{name: "an unknown flag", args: []string{"--bogus"}, code: 2,
			stderr: "mm: unknown flag: --bogus (see mm --help)\n"},
		{name: "arguments to the line mode", args: []string{"what", "now"}, code: 2,
			stderr: "mm: unexpected arguments \"what now\": use mm -p \"<question>\" for one question\n"},
		{name: "arguments to the window", args: []string{"-tui", "hi"}, code: 2,
			stderr: "mm -tui: unexpected arguments \"hi\": type the question in the window\n"},
		{name: "the window on buffers", args: []string{"-tui"}, code: 1,
			stderr: "mm -tui: stdin and stdout must be a terminal; use mm for the line mode or mm -p\n"},
		{name: "version", args: []string{"version"}, stdout: versionLine() + "\n"},
		{name: "--version", args: []string{"--version"}, stdout: versionLine() + "\n"},
		{name: "hooks run with a bad event", args: []string{"hooks", "run", "preToolcall"}, code: 2,
			stderr: "mm hooks run: unknown event \"preToolcall\" (want one of preGeneration, preToolCall, postToolCall, postGeneration, preAsk, postAsk) (did you mean \"preToolCall\"?)\n"},
		{name: "hooks run without hooks", stdin: "{}", args: []string{"--config", "hooks.yaml", "hooks", "run", "preGeneration"},
			stdout: "{\"prompt\":\"\"}\n", stderr: "(no preGeneration hook of hooks.yaml matches)\n"},
		{name: "check a broken configuration", args: []string{"--config", "broken.yaml", "check"}, code: 1,
			stderr: "[config error: broken.yaml:1: unknown key \"tool\" (did you mean \"tools\"?)]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runInProcess(t, echoConfig, tt.stdin, tt.args...)
			if code != tt.code || stdout != tt.stdout || stderr != tt.stderr {
				t.Errorf("mm %s:\nexit %d, want %d\nstdout %q\nwant   %q\nstderr %q\nwant   %q",
					strings.Join(tt.args, " "), code, tt.code, stdout, tt.stdout, stderr, tt.stderr)
			}
		})
	}
}

// TestStdinLimitInProcess: a question or a conversation on stdin over the
// limit of one message is refused, naming the limit.
func TestStdinLimitInProcess(t *testing.T) {
	big := strings.Repeat("x", acpconn.MaxMessage+1)
	tests := []struct {
		args   []string
		stderr string
	}{
		{[]string{"-p"}, "mm -p: read the question from stdin: over 10 MiB, the limit of one message to an agent: send less\n"},
		{[]string{"--ask-with-context", "expert", "hi"}, "[ask: read the conversation from stdin: over 10 MiB, the limit of one message to an agent: send less]\n"},
	}
	for _, tt := range tests {
		code, stdout, stderr := runInProcess(t, echoConfig, big, tt.args...)
		if code != 1 || stdout != "" || stderr != tt.stderr {
			t.Errorf("mm %s: exit %d, stdout %q, stderr %q; want exit 1 and %q", strings.Join(tt.args, " "), code, stdout, stderr, tt.stderr)
		}
	}
}

// TestGetwdFailsInProcess: a working directory that cannot be found ends
// mm with exit status 1, saying why.
func TestGetwdFailsInProcess(t *testing.T) {
	s, out, errOut := testStreams("", "", nil)
	s.Getwd = func() (string, error) { return "", errors.New("getwd: no such file or directory") }
	code := runWith(context.Background(), nil, s, []string{"-p", "hi"})
	if want := "mm: getwd: no such file or directory\n"; code != 1 || out.Len() != 0 || errOut.String() != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and %q", code, out, errOut, want)
	}
}

// TestGetwdFailsInJSON: with a JSON output format the same failure is the
// result on stdout, stderr empty.
func TestGetwdFailsInJSON(t *testing.T) {
	s, out, errOut := testStreams("", "", nil)
	s.Getwd = func() (string, error) { return "", errors.New("getwd: no such file or directory") }
	code := runWith(context.Background(), nil, s, []string{"-p", "--output-format", "json", "hi"})
	want := `{"type":"result","subtype":"error_during_execution","schema":"mm.output/3","mode":"print","is_error":true,"result":"","session_id":null,"num_turns":0,"duration_ms":0,"error":"getwd: no such file or directory","exit_code":1,"usage":null,"tool_calls":[],"hooks":[],"asks":[],"notices":[],"compressions":[]}` + "\n"
	got := resultDurations.ReplaceAllString(out.String(), `"duration_ms":0`)
	if code != 1 || got != want || errOut.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and stdout %q", code, got, errOut, want)
	}
}

// TestLineModeInProcess: the line mode reads its lines from the injected
// stdin and answers on the injected stdout.
func TestLineModeInProcess(t *testing.T) {
	code, stdout, stderr := runInProcess(t, echoConfig, "hello there\n")
	if want := versionLine() + " | config: agent.yaml | model: echo/test | agents: expert | sandbox: workspace, network on | yolo: off\n🤖 hello there\n⚙ 0 command(s)\n"; code != 0 || stderr != "" || stdout != want {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
