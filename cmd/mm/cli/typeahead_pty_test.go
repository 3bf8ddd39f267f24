//go:build linux

package cli

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// ttyEchoes says whether the terminal mm reads echoes what is typed,
// asked of the terminal through f, mm's own stdin.
func ttyEchoes(t *testing.T, f *os.File) bool {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	return tio.Lflag&unix.ECHO != 0
}

// openTTY opens the terminal mm reads, as mm's stdin, until waitExit or
// the test's end.
func (term *terminal) openTTY() *os.File {
	term.t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/fd/0", term.cmd.Process.Pid))
	if err != nil {
		term.t.Fatal(err)
	}
	term.held = append(term.held, f)
	term.t.Cleanup(func() { f.Close() })
	return f
}

// before is what the terminal showed after mark and before text.
func (term *terminal) before(mark int, text string) string {
	shown := term.since(mark)
	i := strings.Index(shown, text)
	if i < 0 {
		term.t.Fatalf("the terminal never showed %q", text)
	}
	return shown[:i]
}

const typeAheadScript = `rules:
  - when: '^slow'
    delay: 80ms
    say: word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12 word13 word14 word15 word16 word17 word18 word19 word20 end.
  - say: "quick: {{question}}"
`

// TestLineModeTypeAheadTerminal: what is typed while a turn runs is not
// drawn into the answer (the terminal's echo is off for the turn and back
// on after it); a line left unfinished is the next prompt's text, a line
// ended with Enter the next question, and /abort cancels the turn at once.
func TestLineModeTypeAheadTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("three slow answers streamed on a terminal: not in the -short lane")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"agent.yaml": "model: script/script.yaml\n", "script.yaml": typeAheadScript})
	term := startTerminal(t, dir)
	term.waitFor("› ")
	tty := term.openTTY()

	m := term.mark()
	term.send("slow\r")
	term.waitSince(m, "🤖 word1")
	if ttyEchoes(t, tty) {
		t.Error("the terminal echoes while a turn runs")
	}
	term.send("show me markdown please")
	term.waitSince(m, "⚙ 0 command(s)")
	if shown := term.before(m, "⚙ 0 command(s)"); strings.Contains(shown, "show me") {
		t.Errorf("the type-ahead was drawn into the turn:\n%q", shown)
	}
	term.waitSince(m, "› show me markdown please")
	term.send("\r")
	term.waitSince(m, "🤖 quick: show me markdown please")

	m = term.mark()
	term.send("slow\r")
	term.waitSince(m, "🤖 word1")
	term.send("next question\r")
	term.waitSince(m, "🤖 quick: next question")
	if shown := term.before(m, "⚙ 0 command(s)"); strings.Contains(shown, "next question") {
		t.Errorf("the line typed ahead was drawn into the turn:\n%q", shown)
	}

	m = term.mark()
	term.send("slow\r")
	term.waitSince(m, "🤖 word1")
	term.send("/abort\r")
	term.waitSince(m, "mm: cancelled")
	if shown := term.since(m); strings.Contains(shown, "/abort") || strings.Contains(shown, "end.") {
		t.Errorf("/abort was drawn or did not cancel the turn:\n%q", shown)
	}
	term.send("/exit\r")
	term.waitExit()
}

// TestLineModeLeavesEchoOn: mm ending during a turn (a signal) gives the
// terminal its echo back.
func TestLineModeLeavesEchoOn(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"agent.yaml": "model: script/script.yaml\n", "script.yaml": typeAheadScript})
	term := startTerminal(t, dir)
	term.waitFor("› ")
	tty := term.openTTY()
	term.send("slow\r")
	term.waitFor("🤖 word1")
	if ttyEchoes(t, tty) {
		t.Error("the terminal echoes while a turn runs")
	}
	if err := term.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- term.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("mm did not exit")
	}
	if !ttyEchoes(t, tty) {
		t.Error("mm left the terminal without echo")
	}
}

const consentScript = `rules:
  - afterTool: bash
    say: "bash said: {{output}}"
  - when: '^shell'
    delay: 500ms
    calls:
      - name: bash
        args: {command: echo from the shell}
  - when: '^long'
    calls:
      - name: bash
        args: {command: echo a command long enough for its consent question to be wider than the terminal}
  - say: "quick: {{question}}"
`

// TestLineModeConsentTypeAhead: a consent question's answer is the line
// typed after it: what was typed before the question waits for the next
// prompt, what follows the answer too, never glued to it.
func TestLineModeConsentTypeAhead(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"agent.yaml": "model: script/script.yaml\n", "script.yaml": consentScript})
	const question = `Allow bash: echo from the shell? [y] yes once  [n] no  [a] always for "echo from"  [s] always, saved to agent.yaml  [v] never for bash › `
	term := startTerminal(t, dir)
	term.waitFor("› ")
	m := term.mark()
	term.send("shell\r")
	term.waitSince(m, "thinking")
	term.send("next")
	term.waitSince(m, question)
	term.send("y\r")
	term.waitSince(m, "🤖 bash said: from the shell")
	term.waitSince(m, "› next")
	term.send(" one\r")
	term.waitSince(m, "🤖 quick: next one")

	m2 := term.mark()
	term.send("shell\r")
	term.waitSince(m2, question)
	term.send("y\r/exit\r")
	term.waitExit()
	if n := strings.Count(term.since(m), "Allow bash"); n != 2 {
		t.Errorf("the consent questions were drawn %d times, want 2:\n%q", n, term.since(m))
	}
}

// TestLineModeLongConsentQuestion: a consent question wider than the
// terminal is drawn once, however many keys its answer takes.
func TestLineModeLongConsentQuestion(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"agent.yaml": "model: script/script.yaml\n", "script.yaml": consentScript})
	term := startTerminalSize(t, dir, 40, 24)
	term.waitFor("› ")
	m := term.mark()
	term.send("long\r")
	term.waitSince(m, "[v] never for bash")
	term.send("nope\x7f\x7f\x7f\x7fyes\r")
	term.waitSince(m, "🤖 bash said: a command long enough")
	if n := strings.Count(term.since(m), "Allow bash"); n != 1 {
		t.Errorf("the consent question was drawn %d times, want once:\n%q", n, term.since(m))
	}
	term.send("/exit\r")
	term.waitExit()
}

// TestLineModeWrapsAtSpaces: on a terminal of 40 columns an answer breaks
// into rows at spaces, with colours (markdown) and without.
func TestLineModeWrapsAtSpaces(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"agent.yaml": "model: script/script.yaml\n", "script.yaml": typeAheadScript})
	const rows = "🤖 word1 word2 word3 word4 word5 word6\r\n" +
		"word7 word8 word9 word10 word11 word12\r\n" +
		"word13 word14 word15 word16 word17\r\n" +
		"word18 word19 word20 end.\r\n"
	for _, noColor := range []string{"", "1"} {
		t.Run("NO_COLOR="+noColor, func(t *testing.T) {
			t.Setenv("NO_COLOR", noColor)
			term := startTerminalSize(t, dir, 40, 24)
			term.waitFor("› ")
			term.send("slow\r")
			term.waitFor("⚙ 0 command(s)")
			if shown := term.since(0); !strings.Contains(shown, rows) {
				t.Errorf("the answer is not in rows broken at spaces:\n%q", shown)
			}
			term.send("/exit\r")
			term.waitExit()
		})
	}
}
