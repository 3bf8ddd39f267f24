//go:build linux

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/mustend"
)

// TestReferencePostHooksAfterFrontEndCancel holds the hooks reference's
// "postGeneration and postAsk are not cancelled with the turn: they run
// after a cancellation too (Escape, Ctrl-C, /abort), bounded by their
// timeout" in the front ends that cancel a turn and go on: the line mode
// (Ctrl-C, /abort), the window (Escape) and mm -acp (session/cancel). The
// 1.5 s postGeneration hook runs to its end, reading error "cancelled",
// before the turn is over: before the line mode and the window say
// "mm: cancelled", before the editor's prompt is answered "cancelled". The
// same for a postAsk hook, on a hand-off typed as /ask in the line mode and
// the window.
func TestReferencePostHooksAfterFrontEndCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a 1.5 s hook in four real front ends: not in the -short lane")
	}
	files := map[string]string{
		"agent.yaml": "model: script/" + slowModel + "\nhooks:\n" + started +
			"  postGeneration:\n    - command: 'sleep 1.5; cat > post.json'\n      timeout: 5s\n",
		slowModel: slowScript,
	}
	want := `{"event":"postGeneration","cwd":"$WORK","model":"script/slow.s.yaml","prompt":"take your time","error":"cancelled"}` + "\n"
	// postAsk, on a hand-off the person typed (/ask): the hook reads the
	// cancelled hand-off.
	askFiles := map[string]string{
		"agent.yaml": "model: echo/main\nmmConfigs:\n  slow: slow.yaml\nhooks:\n" +
			"  postAsk:\n    - command: sleep 1.5; " + postAskInput + "\n      timeout: 5s\n",
		"slow.yaml": "model: script/" + slowModel + "\nhooks:\n" + started,
		slowModel:   slowScript,
	}
	wantAsk := `{"event":"postAsk","cwd":"$WORK","model":"echo/main","ask":{"agent":"slow","config":"$WORK/slow.yaml",` +
		`"agentModel":"script/slow.s.yaml","via":"command","withContext":false,"depth":0,"prompt":"take your time","sandbox":{"mode":"workspace","network":"on"}},"error":"cancelled","durationMs":D}` + "\n"
	// ran fails unless the hook of event has run to its end, on the
	// cancelled turn, reading want.
	ran := func(t *testing.T, dir, when, event, want string) {
		t.Helper()
		got, err := os.ReadFile(filepath.Join(dir, "post.json"))
		if err != nil {
			t.Fatalf("%s, the %s hook has not run to its end: %v", when, event, err)
		}
		if w := strings.ReplaceAll(want, "$WORK", dir); string(got) != w {
			t.Errorf("the %s hook read\n%s\nwant\n%s", event, got, w)
		}
	}

	const lineReady, windowReady = "› ", "idle · Enter sends" // what each shows once it reads a question
	terminalCases := []struct {
		name     string
		args     []string
		ready    string
		question string
		cancel   string // what the person types while the turn runs
		said     string // what the front end says of the cancelled turn
		files    map[string]string
		event    string
		want     string
	}{
		{"line/Ctrl-C", nil, lineReady, "take your time", "\x03", "mm: cancelled", files, "postGeneration", want},
		{"line//abort", nil, lineReady, "take your time", "/abort\r", "mm: cancelled", files, "postGeneration", want},
		{"window/Escape", []string{"-tui"}, windowReady, "take your time", "\x1b", "mm: cancelled", files, "postGeneration", want},
		{"line-ask/Ctrl-C", nil, lineReady, "/ask slow take your time", "\x03", "cancelled", askFiles, "postAsk", wantAsk},
		{"window-ask/Escape", []string{"-tui"}, windowReady, "/ask slow take your time", "\x1b", "cancelled", askFiles, "postAsk", wantAsk},
	}
	for _, tc := range terminalCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			term := startTerminal(t, dir, tc.args...)
			term.waitFor(tc.ready)
			term.send(tc.question + "\r")
			turnStarted(t, dir)
			m := term.mark()
			term.send(tc.cancel)
			term.waitSince(m, tc.said)
			ran(t, dir, "when the turn said "+strconv.Quote(tc.said), tc.event, tc.want)
			term.send("/exit\r")
			term.waitExit()
		})
	}

	t.Run("acp/session/cancel", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		e := startRawEditor(t, dir, files)
		s := e.session(dir)
		id := e.prompt(s, "take your time")
		turnStarted(t, dir)
		e.send("session/cancel", map[string]any{"sessionId": s}, false)
		r := e.until(id, nil)
		var res struct {
			StopReason string `json:"stopReason"`
		}
		if r.Error != nil || json.Unmarshal(r.Result, &res) != nil || res.StopReason != "cancelled" {
			t.Fatalf("the prompt was answered %s (error %v), want stop reason cancelled", r.Result, r.Error)
		}
		ran(t, dir, "when the prompt was answered", "postGeneration", want)
	})
}

// turnStarted waits until the turn is past its preGeneration hook (the
// hook has made "started" and been reaped): a cancellation before that
// would cancel the hook as well.
func turnStarted(t *testing.T, dir string) {
	t.Helper()
	mustend.WaitFor(t, "the turn to start (its preGeneration hook reaped)", func() bool {
		return fileExists(filepath.Join(dir, "started")) && len(processesMatching("touch started", dir)) == 0
	})
}
