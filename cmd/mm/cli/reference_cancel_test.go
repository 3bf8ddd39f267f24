//go:build linux

package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/mustend"
)

// The agents of the cancellation cases: a model that takes a minute, a
// preGeneration hook that says the turn has started, and the post hook each
// case declares. mmSlow's hooks are the asked agent's.
const (
	slowModel  = "slow.s.yaml"
	slowScript = "rules:\n  - delay: 60s\n    say: too late\n"
	started    = "  preGeneration:\n    - command: touch started\n"
	// postAskInput keeps a postAsk input without its durationMs, which
	// varies.
	postAskInput = `sed 's/"durationMs":[0-9]*/"durationMs":D/' > post.json`
)

// cancelCase is mm, signalled once its turn has started (or its asked
// agent's has), and signalled again once again names a file.
type cancelCase struct {
	name  string
	args  []string
	files map[string]string
	first syscall.Signal
	again string // a file whose appearance is the cue for a second SIGINT; "" for none
	// What mm said (nil: not checked) and exited with, and post.json as
	// the post hook wrote it, its input ($WORK is the folder); "" when it
	// must not exist.
	wantCode   int
	wantStderr *string
	wantPost   string
}

func said(s string) *string { return &s }

// TestReferencePostHooksAfterSignal holds the hooks reference's "postGeneration
// and postAsk are not cancelled with the turn: they run after a cancellation
// too (Escape, Ctrl-C, /abort), bounded by their timeout" for the
// one-question modes, with a real SIGINT: the turn is cancelled, the post
// hooks run to their end (input error "cancelled") or their timeout ("🪝
// postGeneration hook `…`: timed out after 2s"), then mm exits with 130; a
// second Ctrl-C ends them at once, as a shell does; SIGTERM and SIGHUP end
// everything at once, as they always did.
func TestReferencePostHooksAfterSignal(t *testing.T) {
	if testing.Short() {
		t.Skip("signals the real binary and waits for its hooks: not in the -short lane")
	}
	postGen := func(command, timeout string) map[string]string {
		return map[string]string{
			"agent.yaml": "model: script/" + slowModel + "\nhooks:\n" + started +
				"  postGeneration:\n    - command: '" + command + "'\n      timeout: " + timeout + "\n",
			slowModel: slowScript,
		}
	}
	// postAskFiles: an echo agent asks slow, whose turn takes a minute.
	postAskFiles := func(command, timeout string) map[string]string {
		return map[string]string{
			"agent.yaml": "model: echo/main\nmmConfigs:\n  slow: slow.yaml\nhooks:\n" +
				"  postAsk:\n    - command: " + command + "\n      timeout: " + timeout + "\n",
			"slow.yaml": "model: script/" + slowModel + "\nhooks:\n" + started,
			slowModel:   slowScript,
		}
	}
	// The 1.5 s hook, and the 2 s timeout, outlive exitGrace, within which
	// mm used to kill the hook.
	const slowPost = "sleep 1.5; cat > post.json"
	cancelledP := `{"event":"postGeneration","cwd":"$WORK","model":"script/slow.s.yaml","prompt":"take your time","error":"cancelled"}`
	cases := []cancelCase{{
		name:       "-p/Ctrl-C",
		args:       []string{"-p", "take your time"},
		files:      postGen(slowPost, "5s"),
		first:      syscall.SIGINT,
		wantCode:   130,
		wantStderr: said("mm: cancelled\n"),
		wantPost:   cancelledP,
	}, {
		name:       "--ask/Ctrl-C",
		args:       []string{"--ask", "slow", "take your time"},
		files:      postAskFiles("sleep 1.5; "+postAskInput, "5s"),
		first:      syscall.SIGINT,
		wantCode:   130,
		wantStderr: said("[ask: cancelled]\n"),
		wantPost: `{"event":"postAsk","cwd":"$WORK","model":"echo/main","ask":{"agent":"slow","config":"$WORK/slow.yaml",` +
			`"agentModel":"script/slow.s.yaml","via":"cli","withContext":false,"depth":0,"prompt":"take your time","sandbox":{"mode":"workspace","network":"on"}},"error":"cancelled","durationMs":D}`,
	}, {
		name:       "--ask/Ctrl-C/timeout",
		args:       []string{"--ask", "slow", "take your time"},
		files:      postAskFiles("sleep 30; cat > post.json", "2s"),
		first:      syscall.SIGINT,
		wantCode:   130,
		wantStderr: said("🪝 postAsk hook `sleep 30; cat > post.json`: timed out after 2s\n[ask: cancelled]\n"),
	}, {
		name:     "--ask/Ctrl-C/Ctrl-C",
		args:     []string{"--ask", "slow", "take your time"},
		files:    postAskFiles("sleep 1.5; touch half; sleep 30; cat > post.json", "1m"),
		first:    syscall.SIGINT,
		again:    "half",
		wantCode: 130,
	}, {
		name:       "-p/Ctrl-C/timeout",
		args:       []string{"-p", "take your time"},
		files:      postGen("sleep 30; cat > post.json", "2s"),
		first:      syscall.SIGINT,
		wantCode:   130,
		wantStderr: said("🪝 postGeneration hook `sleep 30; cat > post.json`: timed out after 2s\nmm: cancelled\n"),
	}, {
		// The hook is still running 1.5 s after the first Ctrl-C; the
		// second ends it and mm at once, long before its 30 s. Whether the
		// killed hook's line makes it out before mm exits is a race.
		name:     "-p/Ctrl-C/Ctrl-C",
		args:     []string{"-p", "take your time"},
		files:    postGen("sleep 1.5; touch half; sleep 30; cat > post.json", "1m"),
		first:    syscall.SIGINT,
		again:    "half",
		wantCode: 130,
	}, {
		name:     "-p/SIGTERM",
		args:     []string{"-p", "take your time"},
		files:    postGen("sleep 30; cat > post.json", "1m"),
		first:    syscall.SIGTERM,
		wantCode: 143,
	}, {
		name:     "-p/SIGHUP",
		args:     []string{"-p", "take your time"},
		files:    postGen("sleep 30; cat > post.json", "1m"),
		first:    syscall.SIGHUP,
		wantCode: 129,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			testCancel(t, tc)
		})
	}
}

func testCancel(t *testing.T, tc cancelCase) {
	dir := t.TempDir()
	for name, content := range tc.files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(mmBin, tc.args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MM_CONFIG=", "MM_MODEL=", "MM_ASKED_DEPTH=", "MM_ASK_CHAIN=", "MM_BIN=",
		"XDG_CACHE_HOME="+filepath.Join(dir, ".cache"))
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() }) // a test that stops early leaves nothing running
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := func(why string) {
		cmd.Process.Kill()
		<-exited
		t.Fatalf("%s; mm said:\n%s%s", why, stdout.String(), stderr.String())
	}
	waitFor := func(name string) {
		if !mustend.Eventually(mustend.WaitBound, func() bool { return fileExists(filepath.Join(dir, name)) }) {
			stop(fmt.Sprintf("%s did not appear within %v", name, mustend.WaitBound))
		}
	}
	turnStarted(t, dir)
	if err := cmd.Process.Signal(tc.first); err != nil {
		t.Fatal(err)
	}
	if tc.again != "" {
		waitFor(tc.again)
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
	}
	var err error
	select {
	case err = <-exited:
	case <-time.After(10 * time.Second):
		stop("mm still runs 10 s after the last signal")
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != tc.wantCode {
		t.Errorf("mm ended with %v, want exit status %d", err, tc.wantCode)
	}
	if got := stdout.String(); got != "" {
		t.Errorf("stdout %q, want nothing", got)
	}
	if tc.wantStderr != nil && stderr.String() != *tc.wantStderr {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr.String(), *tc.wantStderr)
	}
	got, rerr := os.ReadFile(filepath.Join(dir, "post.json"))
	want := ""
	if tc.wantPost != "" {
		want = strings.ReplaceAll(tc.wantPost, "$WORK", dir) + "\n"
	}
	switch {
	case want == "" && rerr == nil:
		t.Errorf("the post hook ran to its end, writing %s; want it ended with mm", got)
	case want != "" && rerr != nil:
		t.Errorf("the post hook did not run to its end: %v; mm said:\n%s", rerr, stderr.String())
	case want != "" && string(got) != want:
		t.Errorf("the post hook read\n%s\nwant\n%s", got, want)
	}
}
