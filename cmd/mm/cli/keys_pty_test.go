package cli

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// keysScript is a scripted model whose answer to a question starting with
// "slow" streams for thirty seconds; any other question is answered at
// once.
var keysScript = map[string]string{
	"agent.yaml": "model: script/script.yaml\n",
	"script.yaml": `rules:
  - when: '^slow'
    delay: 1s
    pieces: 30
    say: this answer takes thirty seconds to finish and should never be seen whole
  - say: "quick: {{question}}"
`,
}

// TestLineModeKeysTerminal: the line mode's keys are the window's. Esc
// cancels a running turn; an arrow key typed during a turn does not keep
// a following /abort from cancelling the next; a line typed and sent with
// Enter during a turn is sent once it ends; Ctrl-C on an empty prompt says
// how to leave, and a second one leaves.
func TestLineModeKeysTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("slow answers streamed on a terminal: not in the -short lane")
	}
	dir := t.TempDir()
	writeFiles(t, dir, keysScript)
	term := startTerminal(t, dir)
	term.waitFor("› ")

	m := term.mark()
	term.send("slow please\r")
	term.waitSince(m, "🤖 this")
	term.send("\x1b") // Escape cancels the turn
	term.waitSince(m, "mm: cancelled")
	term.waitSince(m, "› ")

	m = term.mark()
	term.send("slow again\r")
	term.waitSince(m, "🤖 this")
	term.send("\x1b[A/abort\r") // ↑, then /abort
	term.waitSince(m, "mm: cancelled")

	m = term.mark()
	term.send("slow once more\r")
	term.waitSince(m, "🤖 this")
	term.send("next one\r") // queued
	term.send("\x1b")
	term.waitSince(m, "mm: cancelled")
	term.waitSince(m, "🤖 quick: next one")

	m = term.mark()
	term.send("\x03")
	term.waitSince(m, "(Ctrl-C again leaves; so do Ctrl-D and /exit)")
	term.send("\x03")
	term.waitExit()
	if strings.Contains(term.since(0), "never be seen whole") {
		t.Error("a slow answer was not cancelled")
	}
}

// TestLineModeShellTerminal: !command runs a shell command for the person
// and shows its output; the model reads it with the next question (the
// echo model answers with what reached it); a deny rule refuses it.
func TestLineModeShellTerminal(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"agent.yaml": "model: echo/main\npermissions:\n  deny: ['bash: rm *']\n",
	})
	term := startTerminal(t, dir)
	term.waitFor("› ")
	m := term.mark()
	term.send("!echo from the shell\r")
	term.waitSince(m, "\r\nfrom the shell\r\n")
	m = term.mark()
	term.send("what did it say?\r")
	term.waitSince(m, "🤖 [the person ran in the shell: echo from the shell]\r\n")
	term.waitSince(m, "\r\nfrom the shell\r\n")
	term.waitSince(m, "\r\nwhat did it say?\r\n")
	m = term.mark()
	term.send("!rm -rf build\r")
	term.waitSince(m, `mm: !rm -rf build: refused: the rule "bash: rm *" in agent.yaml denies this call`)
	term.send("/exit\r")
	term.waitExit()
}

// savedSessions runs mm -p in dir once per question: the folder's saved
// sessions, the last question's latest.
func savedSessions(t *testing.T, dir string, questions ...string) {
	t.Helper()
	for _, q := range questions {
		cmd := exec.Command(mmBin, "-p", q)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "MM_CONFIG=", "MM_MODEL=", "MM_ASKED_DEPTH=")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("mm -p: %v: %s", err, out)
		}
	}
}

// TestLineModePickTerminal: /resume alone lists the folder's sessions,
// numbered, the latest first, and resumes the one whose number is typed;
// mm --resume without an id opens the same list first.
func TestLineModePickTerminal(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"agent.yaml": "model: echo/main\n"})
	savedSessions(t, dir, "the first question", "the second question")
	term := startTerminal(t, dir)
	term.waitFor("› ")
	term.send("/resume\r")
	term.waitFor("Saved sessions of this folder, the latest first:\r\n  1. just now · 1 turn · the second question\r\n  2. just now · 1 turn · the first question\r\n")
	term.waitFor("Resume which? (its number; Enter for none) › ")
	term.send("2\r")
	term.waitFor("resumed session ")
	term.waitFor("› the first question")
	term.send("/exit\r")
	term.waitExit()

	term = startTerminal(t, dir, "--resume")
	term.waitFor("  2. just now · 1 turn · the first question")
	term.send("\r")
	term.waitFor("(no session resumed)")
	term.send("/exit\r")
	term.waitExit()
}

// TestWindowKeysTerminal: the window's keys are the line mode's. A line
// sent during a turn waits for its end, counted in the status line;
// !command shows its output; mm -tui --resume opens the list of the
// folder's sessions, chosen with the arrow keys; Ctrl-C on an empty line
// says how to leave, and a second one leaves.
func TestWindowKeysTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("slow answers streamed on a terminal: not in the -short lane")
	}
	dir := t.TempDir()
	writeFiles(t, dir, keysScript)
	savedSessions(t, dir, "the first question", "the second question")
	term := startTerminal(t, dir, "-tui", "--resume")
	term.waitFor("Saved sessions of this folder, the latest first:")
	term.waitFor("› just now · 1 turn · the second question")
	m := term.mark()
	term.send("\x1b[B") // ↓
	term.waitSince(m, "› just now · 1 turn · the first question")
	term.send("\r")
	term.waitSince(m, "resumed session ")
	term.waitSince(m, "idle · Enter sends")

	m = term.mark()
	term.send("slow please\r")
	term.waitSince(m, "🤖 this")
	term.send("next one\r")
	term.waitSince(m, "running · 1 queued · Esc cancels")
	term.send("\x1b")
	term.waitSince(m, "mm: cancelled")
	term.waitSince(m, "🤖 quick: next one")

	m = term.mark()
	term.send("!echo from the shell\r")
	term.waitSince(m, "from the shell")
	term.waitSince(m, "idle · Enter sends")

	m = term.mark()
	term.send("\x03")
	term.waitSince(m, "Ctrl-C again leaves (so do Ctrl-D and /exit)")
	term.send("\x03")
	term.waitExit()
	term.waitFor("\x1b[?1049l")
}
