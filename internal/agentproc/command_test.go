package agentproc

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/mustend"
	"github.com/mm-agent/mm/internal/proc/proctest"
)

// commandOptions start the fake agent by command, as an mmConfigs entry
// {command: [fakeagent, -acp, --config, <mode>]} does.
func commandOptions(t *testing.T, mode string) Options {
	dir := t.TempDir()
	return Options{
		Name:         "other",
		Command:      []string{fakeBin, "-acp", "--config", mode},
		Cwd:          t.TempDir(),
		Dir:          dir,
		Environ:      append(os.Environ(), "AGENT_VAR=set"),
		StartTimeout: 2 * time.Second,
	}
}

// leftIn fails the test when a process still works in dir.
func leftIn(t *testing.T, dir string) {
	t.Helper()
	if !mustend.Eventually(wait, func() bool { return len(proctest.WorkingIn(dir)) == 0 }) {
		t.Errorf("processes left behind: %v", proctest.WorkingIn(dir))
		proctest.KillWorkingIn(dir)
	}
}

func TestCommandAgent(t *testing.T) {
	opts := commandOptions(t, "foreign")
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	a, err := Start(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	if err := a.Prompt(ctx, "getenv AGENT_VAR", rec); err != nil || rec.answerText() != "set" {
		t.Errorf("getenv: %q, %v; want set", rec.answerText(), err)
	}
	rec = &recorder{}
	if err := a.Prompt(ctx, "pendingtool", rec); err != nil {
		t.Fatal(err)
	}
	// No _meta: what ACP says of the call is all there is.
	want := []ToolUpdate{
		{ID: "t1", Start: true, Title: "Shell ls -la", Kind: "execute", Status: ""},
		{ID: "t1", Status: StatusCompleted, Output: "a.txt"},
	}
	if !reflect.DeepEqual(rec.tools, want) {
		t.Errorf("tool updates\n got %+v\nwant %+v", rec.tools, want)
	}
	a.Close()
	leftIn(t, opts.Dir)
}

func TestCommandStartFailures(t *testing.T) {
	tests := []struct {
		name    string
		command []string
		want    string
	}{
		{"not found", []string{"no-such-agent-anywhere"},
			`start agent "other": command "no-such-agent-anywhere" not found in $PATH`},
		{"exits at once", []string{"sh", "-c", "echo 'gone wrong:\n  no key' >&2; exit 3"},
			`start agent "other": exited (exit status 3): gone wrong: no key`},
		{"a banner", []string{fakeBin, "-acp", "--config", "banner"},
			`start agent "other": it does not speak ACP: its output began "Welcome to FakeAgent 1.0 - type /help for help": fakeagent: interactive mode`},
		{"no answer", []string{fakeBin, "-acp", "--config", "silent"},
			`start agent "other": no answer to initialize within 1s: fakeagent: warming up`},
		{"over ssh", []string{"sh", "-c", "echo 'ssh: connect to host h port 22: Connection refused' >&2; exit 255"},
			`start agent "other" (ssh me@h): exited (exit status 255): ssh: connect to host h port 22: Connection refused`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := commandOptions(t, "")
			opts.Command = tt.command
			opts.StartTimeout = time.Second
			if tt.name == "over ssh" {
				opts.Host = "me@h"
			}
			if got := startFails(t, opts); got != tt.want {
				t.Errorf("error\n got %q\nwant %q", got, tt.want)
			}
			leftIn(t, opts.Dir)
		})
	}
}

func TestStderrQuoteIsBounded(t *testing.T) {
	opts := commandOptions(t, "")
	opts.Command = []string{"sh", "-c", "printf 'x%.0s' $(seq 1000) >&2; exit 1"}
	_, err := Start(context.Background(), opts)
	if err == nil {
		t.Fatal("Start succeeded")
	}
	want := `start agent "other": exited (exit status 1): ` + strings.Repeat("x", stderrQuote)
	if err.Error() != want {
		t.Errorf("error %q, want %d x", err, stderrQuote)
	}
}

func TestUnknownPermissionKind(t *testing.T) {
	opts := commandOptions(t, "foreign")
	opts.Grace = 200 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	a, err := Start(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	rec := &recorder{answer: AllowOnce}
	err = a.Prompt(ctx, "oddpermission", rec)
	want := `agent "other" asked for a permission mm cannot answer: it offered only "allow_sometimes" (mm knows allow_once, allow_always, reject_once, reject_always)`
	if err == nil || err.Error() != want {
		t.Errorf("error\n got %v\nwant %s", err, want)
	}
	if len(rec.perms) != 0 {
		t.Errorf("the person was asked %v; nobody should be", rec.perms)
	}
	// The agent was told to cancel and did: it goes on serving.
	rec = &recorder{}
	if err := a.Prompt(ctx, "echo still here", rec); err != nil || rec.answerText() != "still here" {
		t.Errorf("next prompt: %q, %v", rec.answerText(), err)
	}
}

func TestProbe(t *testing.T) {
	opts := commandOptions(t, "agent.yaml")
	info, err := Probe(context.Background(), opts)
	if err != nil || info != "" {
		t.Errorf("Probe = %q, %v; want no name (the fake agent gives none), no error", info, err)
	}
	leftIn(t, opts.Dir)
	opts.Command = []string{fakeBin, "-acp", "--config", "banner"}
	if _, err := Probe(context.Background(), opts); err == nil || !strings.Contains(err.Error(), "does not speak ACP") {
		t.Errorf("Probe of a banner: %v", err)
	}
	leftIn(t, opts.Dir)
}

func TestSSHCommand(t *testing.T) {
	tests := []struct {
		name string
		r    Remote
		want []string
	}{
		{"plain", Remote{Host: "me@h", Config: "agents/expert.yaml", Depth: 1, MaxDepth: 3, Chain: "expert"},
			[]string{"ssh", "-T", "--", "me@h", "mm -acp --config agents/expert.yaml --session-cwd . --asked-depth 1 --ask-max-depth 3 --ask-chain expert"}},
		{"quoted", Remote{Host: "h", SSHArgs: []string{"-p", "2222", "-o", "ControlPath=/tmp/c m"}, MM: "~/my bin/mm",
			Config: "it's here; rm -rf ~/x $(id).yaml", Cwd: "/srv/a b", Depth: 2, MaxDepth: 2, Chain: "a/b"},
			[]string{"ssh", "-T", "-p", "2222", "-o", "ControlPath=/tmp/c m", "--", "h",
				`~/'my bin/mm' -acp --config 'it'\''s here; rm -rf ~/x $(id).yaml' --session-cwd '/srv/a b' --asked-depth 2 --ask-max-depth 2 --ask-chain a/b`}},
		{"home", Remote{Host: "h", MM: "~", Config: "~/e.yaml", Cwd: "~", Depth: 1, MaxDepth: 1, Chain: "x"},
			[]string{"ssh", "-T", "--", "h", "~ -acp --config ~/e.yaml --session-cwd ~ --asked-depth 1 --ask-max-depth 1 --ask-chain x"}},
		{"not saved", Remote{Host: "h", Config: "e.yaml", Depth: 1, MaxDepth: 1, Chain: "x", NoSave: true},
			[]string{"ssh", "-T", "--", "h", "mm -acp --config e.yaml --session-cwd . --asked-depth 1 --ask-max-depth 1 --ask-chain x --no-save"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SSHCommand(tt.r); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("SSHCommand\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestShellQuoteRoundTrip(t *testing.T) {
	for _, s := range []string{"", "a", "a b", "it's", `"q"`, "$HOME", "`x`", "a\nb", "*", "é", "-x", "\\"} {
		out, err := run("sh", "-c", "printf %s "+shellQuote(s))
		if err != nil || out != s {
			t.Errorf("sh read %q back as %q (%v)", s, out, err)
		}
	}
}

func run(name string, args ...string) (string, error) {
	b, err := exec.Command(name, args...).Output()
	return string(b), err
}

// An agent by command is cancelled as a child mm is: session/cancel, then
// its process group killed once the grace is over; Close stops what it
// started too.
func TestCommandCancelAndClose(t *testing.T) {
	opts := commandOptions(t, "foreign")
	opts.Grace = 100 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	a, err := Start(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	wctx, stop := context.WithCancel(ctx)
	rec := &recorder{onText: func(string) { stop() }}
	if err := a.Prompt(wctx, "wait", rec); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled prompt: %v", err)
	}
	if got := rec.answerText(); got != "waitingstopped" {
		t.Errorf("the agent said %q, want it to stop when told", got)
	}
	hctx, stopHang := context.WithTimeout(ctx, 200*time.Millisecond)
	defer stopHang()
	if err := a.Prompt(hctx, "hang", &recorder{opts: opts}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("hanging prompt: %v", err)
	}
	leftIn(t, opts.Dir)

	b, err := Start(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	rec = &recorder{}
	if err := b.Prompt(ctx, "spawn", rec); err != nil {
		t.Fatal(err)
	}
	b.Close()
	leftIn(t, opts.Dir) // the sleep it started is gone with it
}

// A command that prints a banner and exits at once is reported by its
// banner, not by its exit.
func TestBannerThenExit(t *testing.T) {
	opts := commandOptions(t, "")
	opts.Command = []string{"sh", "-c", "echo 'Usage: agent [--acp]'; echo 'unknown flag' >&2; exit 2"}
	_, err := Start(context.Background(), opts)
	want := `start agent "other": it does not speak ACP: its output began "Usage: agent [--acp]": unknown flag`
	if err == nil || err.Error() != want {
		t.Errorf("error\n got %v\nwant %s", err, want)
	}
}
