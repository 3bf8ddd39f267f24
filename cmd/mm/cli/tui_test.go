package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/mm-agent/mm/internal/mustend"
)

// mark is how much the terminal has shown so far, for waitSince.
func (term *terminal) mark() int {
	term.mu.Lock()
	defer term.mu.Unlock()
	return term.out.Len()
}

// waitSince waits until what the terminal showed after mark contains text.
func (term *terminal) waitSince(mark int, text string) {
	term.t.Helper()
	if mustend.Eventually(mustend.WaitBound, func() bool { return strings.Contains(term.since(mark), text) }) {
		return
	}
	term.t.Fatalf("the terminal never showed %q; after the mark it shows:\n%q", text, term.since(mark))
}

// TestWindowTerminal drives mm -tui through a pseudo-terminal: the banner
// and the status line, a question and its answer with the hook display
// notice under the ⚙ line, a consent question answered by one key, a call a
// hook denied, a slow turn cancelled with Escape, a resize, and /exit,
// which leaves the alternate screen.
func TestWindowTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of waiting: the full lane runs it")
	}
	dir := t.TempDir()
	files := map[string]string{
		"agent.yaml": `model: script/script.yaml
displayHooks: true
hooks:
  preGeneration:
    - command: "true"
  preToolCall:
    - matcher: ^bash$
      command: sh "$MM_CONFIG_DIR/guard.sh"
`,
		"guard.sh": `case $(cat) in
*'rm -rf'*) printf '{"action":"deny","reason":"it cannot be undone"}' ;;
esac
`,
		"script.yaml": `rules:
  - afterTool: bash
    say: "the tool said: {{output}}"
  - when: '^run ([^\n]+)'
    calls:
      - name: bash
        args: {command: "{{1}}"}
  - when: '^slow'
    delay: 1s
    pieces: 30
    say: this answer takes thirty seconds to finish and should never be seen whole
  - say: "quick: {{question}}"
`,
	}
	writeFiles(t, dir, files)
	const banner = "mm devel | config: agent.yaml | model: script/script.yaml | sandbox: workspace, network on | yolo: off | hooks: preGeneration×1 preToolCall×1"
	term := startTerminal(t, dir, "-tui")
	term.waitFor("\x1b[?1049h")
	term.waitFor(banner)
	term.waitFor("script/script.yaml · idle · Enter sends")

	m := term.mark()
	term.send("hello\r")
	term.waitSince(m, "› hello")
	term.waitSince(m, "🤖 quick: hello")
	term.waitSince(m, "⚙ 0 command(s)")
	term.waitSince(m, "  🪝 1. preGeneration · true → continue")

	m = term.mark()
	term.send("run echo hi\r")
	term.waitSince(m, `Allow bash: echo hi? [y] once [n] no [a] always for "echo hi" [s] saved to agent.yaml [v] never`)
	term.waitSince(m, "allow this call? y once · n no · a always · s always, saved · v never · Esc no")
	term.send("y")
	term.waitSince(m, "→ yes, once")
	term.waitSince(m, "🔧 bash: echo hi")
	term.waitSince(m, "🤖 the tool said: hi")
	term.waitSince(m, "⚙ 1 command(s)")
	term.waitSince(m, "  🪝 2. preToolCall [bash] · sh \"$MM_CONFIG_DIR/guard.sh\" → continue")

	m = term.mark()
	term.send("run rm -rf build\r")
	term.waitSince(m, "🪝 bash: rm -rf build — denied by a hook")
	term.waitSince(m, "[denied by a hook: it cannot be undone]")
	term.waitSince(m, "idle · Enter sends")

	m = term.mark()
	term.send("slow please\r")
	term.waitSince(m, "🤖 this")
	term.waitSince(m, "running · Esc cancels")
	term.send("\x1b") // Escape cancels the turn, not the window
	term.waitSince(m, "mm: cancelled")
	term.waitSince(m, "idle · Enter sends")

	m = term.mark()
	term.send("again\r")
	term.waitSince(m, "🤖 quick: again")

	// A narrower terminal: the banner is cut to the new width.
	m = term.mark()
	if err := pty.Setsize(term.f, &pty.Winsize{Rows: 30, Cols: 40}); err != nil {
		t.Fatal(err)
	}
	term.waitSince(m, banner[:39]+"…")

	term.send("/exit\r")
	term.waitExit()
	term.waitFor("\x1b[?1049l") // the alternate screen left: the terminal is restored
}

// TestWindowSlowTerminal: a window whose terminal is not read for a while
// (Ctrl-S, a slow link) still gets the whole of an asked agent's answer
// streamed in 5,000 pieces, and the hand-off ends normally.
func TestWindowSlowTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("a terminal that is not read for 3 s: not in the -short lane")
	}
	dir := t.TempDir()
	files := map[string]string{
		"agent.yaml":  "model: echo/main\nmmConfigs:\n  c: c.yaml\n",
		"c.yaml":      "model: script/script.yaml\n",
		"script.yaml": "rules:\n  - pieces: 5000\n    say: " + strings.Repeat("x", 25_000) + " THE-END\n",
	}
	writeFiles(t, dir, files)
	term := startTerminal(t, dir, "-tui")
	term.waitFor("Enter sends")
	m := term.mark()
	term.send("/ask c q\r")
	term.waitSince(m, "running")
	term.pause()
	time.Sleep(3 * time.Second) // the terminal is not read: mm's writes wait
	term.resume()
	term.waitSince(m, "THE-END")
	term.waitSince(m, "idle ·")
	if strings.Contains(term.since(m), "exited") {
		t.Error("the hand-off failed while the terminal was not read")
	}
	term.send("/exit\r")
	term.waitExit()
}

// TestWindowNotATerminal: without a terminal mm -tui says what to run
// instead and exits 2.
func TestWindowNotATerminal(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(mmBin, "-tui")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MM_CONFIG=", "MM_MODEL=echo", "MM_ASKED_DEPTH=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Fatalf("mm -tui without a terminal: %v, want exit status 2", err)
	}
	const want = "mm -tui: stdin and stdout must be a terminal; use mm for the line mode or mm -p\n"
	if stderr.String() != want || stdout.Len() != 0 {
		t.Errorf("stdout %q, stderr %q; want stderr %q", stdout.String(), stderr.String(), want)
	}
}

// TestWindowResume: mm -tui --continue says in its transcript what it
// resumed; /sessions lists the folder's sessions and /resume goes on with
// one in place.
func TestWindowResume(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"agent.yaml": "model: echo/main\n"})
	for _, q := range []string{"the first question", "the second question"} {
		cmd := exec.Command(mmBin, "-p", q)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "MM_CONFIG=", "MM_MODEL=", "MM_ASKED_DEPTH=")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("mm -p: %v: %s", err, out)
		}
	}
	term := startTerminal(t, dir, "-tui", "--continue")
	term.waitFor("continuing this folder's last session: ")
	term.waitFor("(1 turn, 2 messages)")
	// The scrollback holds the conversation it goes on with.
	term.waitFor("› the second question")
	m := term.mark()
	term.send("/sessions\r")
	term.waitSince(m, "the first question")
	m = term.mark()
	term.send("/resume 1\r")
	term.waitSince(m, "is ambiguous")
	m = term.mark()
	term.send("and then?\r")
	term.waitSince(m, "and then?")
	term.waitSince(m, "idle")
	term.send("/exit\r")
	term.waitExit()
}

// TestWindowResumeHoldsTheWholeSession: the window going on with a session
// longer than its screen holds every turn in its scrollback — PgUp brings
// the first back — each question as it was typed (an @path line, not the
// file it read); a compressed session shows its summary where the older
// turns were, and not them.
func TestWindowResumeHoldsTheWholeSession(t *testing.T) {
	state := os.Getenv("XDG_STATE_HOME") // startTerminal's
	files := map[string]string{
		"agent.yaml": "model: script/script.yaml\n",
		"notes.md":   "buy milk\n",
		"script.yaml": `rules:
  - summary: true
    say: "Summary: the person asked about the build."
  - when: 'notes.md'
    say: A shopping list.
  - say: "answer to {{question}}"
`,
	}
	t.Run("longer than the screen", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, files)
		questions := []string{"question one", "question two", "question three", "question four", "question five"}
		for i, q := range append(questions, "what is in it?\n@notes.md") {
			args := []string{"-p", q}
			if i > 0 {
				args = append([]string{"--continue"}, args...)
			}
			runIn(t, dir, state, "", args...)
		}
		// 9 rows of transcript: the last turns only, at first.
		term := startTerminalSize(t, dir, 80, 12, "-tui", "--continue")
		term.waitFor("› what is in it?")
		term.waitFor("  @notes.md")
		term.waitFor("🤖 A shopping list.")
		term.waitFor("idle · Enter sends")
		if strings.Contains(term.since(0), "› question one") {
			t.Fatalf("the first turn is on a screen of 9 rows with the last: the test shows nothing of the scrollback\n%q", term.since(0))
		}
		// A page up at a time, each drawn, until the first turn shows.
		for !strings.Contains(term.since(0), "› question one") {
			m := term.mark()
			term.send("\x1b[5~") // PgUp
			term.waitSince(m, " rows, PgDn · ")
		}
		for _, q := range questions {
			term.waitFor("› " + q)
			term.waitFor("🤖 answer to " + q)
		}
		term.send("/exit\r")
		term.waitExit()
		term.hasNone("buy milk")
	})
	t.Run("compressed", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, files)
		runIn(t, dir, state, "", "-p", "the first question")
		for _, q := range []string{"the second question", "/compact", "the third question"} {
			runIn(t, dir, state, "", "--continue", "-p", q)
		}
		term := startTerminal(t, dir, "-tui", "--continue")
		term.waitFor("› the third question")
		term.waitFor("idle · Enter sends")
		shown := term.since(0)
		order := []string{
			"[mm] The earlier part of this conversation was compressed to fit the model's context window; your summary of it follows.",
			"🤖 Summary: the person asked about the build.",
			"› the second question",
			"› the third question",
		}
		at := 0
		for _, s := range order {
			i := strings.Index(shown[at:], s)
			if i < 0 {
				t.Fatalf("the window does not show %q after %q\n%q", s, shown[:at], shown)
			}
			at += i + len(s)
		}
		term.send("/exit\r")
		term.waitExit()
		term.hasNone("the first question")
	})
}
