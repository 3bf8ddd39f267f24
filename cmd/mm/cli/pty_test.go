package cli

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/mm-agent/mm/internal/mustend"
)

// terminal is mm running in a pseudo-terminal, as a person runs it.
type terminal struct {
	t   *testing.T
	f   *os.File
	cmd *exec.Cmd
	mu  sync.Mutex
	out bytes.Buffer
	// gate is held while the terminal is not read (a paused reader).
	gate sync.Mutex
	// drained is closed once the terminal has nothing more to give: every
	// process that had it open has closed it, and all they wrote is in out.
	drained chan struct{}
	// held are the test's own opens of the terminal (openTTY), closed
	// before waiting for it to be drained.
	held []*os.File
}

// pause stops reading the terminal, as a person pressing Ctrl-S or a slow
// link does, until resume: mm's writes to it wait.
func (term *terminal) pause()  { term.gate.Lock() }
func (term *terminal) resume() { term.gate.Unlock() }

func startTerminal(t *testing.T, dir string, args ...string) *terminal {
	t.Helper()
	return startTerminalSize(t, dir, 200, 40, args...)
}

// startTerminalSize is startTerminal on a terminal of cols by rows.
func startTerminalSize(t *testing.T, dir string, cols, rows uint16, args ...string) *terminal {
	t.Helper()
	return startTerminalEnv(t, dir, cols, rows, nil, args...)
}

// startTerminalEnv is startTerminalSize with env (KEY=value) set over mm's
// variables, which are otherwise empty.
func startTerminalEnv(t *testing.T, dir string, cols, rows uint16, env []string, args ...string) *terminal {
	t.Helper()
	cmd := exec.Command(mmBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(dir, ".cache"), "MM_CONFIG=", "MM_MODEL=", "MM_ASKED_DEPTH=", "MM_ASK_MAX_DEPTH=")
	cmd.Env = append(cmd.Env, env...)
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: rows, Cols: cols})
	if err != nil {
		t.Fatal(err)
	}
	term := &terminal{t: t, f: f, cmd: cmd, drained: make(chan struct{})}
	go func() {
		defer close(term.drained)
		buf := make([]byte, 4096)
		for {
			term.gate.Lock() // held by pause: nobody reads the terminal
			term.gate.Unlock()
			n, err := f.Read(buf)
			term.mu.Lock()
			term.out.Write(buf[:n])
			term.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		f.Close()
	})
	return term
}

// waitFor waits until the screen so far contains text.
func (term *terminal) waitFor(text string) {
	term.t.Helper()
	term.waitSince(0, text)
}

// waitExit waits for mm to exit, and fails unless it exits cleanly; then
// for all it wrote to be read, so that the screen so far is the whole of it.
func (term *terminal) waitExit() {
	term.t.Helper()
	var err error
	mustend.Within(term.t, mustend.WaitBound, "mm", func() { err = term.cmd.Wait() })
	if err != nil {
		term.t.Fatalf("mm exited with %v", err)
	}
	term.waitDrained()
}

// waitDrained waits until the terminal has given all that was written to
// it. mm's exit does not say so: its last writes (the ⚙ block of mm -p)
// may still be in the terminal, not yet read.
func (term *terminal) waitDrained() {
	term.t.Helper()
	for _, f := range term.held {
		f.Close()
	}
	term.held = nil
	select {
	case <-term.drained:
	case <-time.After(mustend.WaitBound):
		term.t.Fatalf("the terminal is still open %v after mm exited: a process mm started holds it", mustend.WaitBound)
	}
}

func (term *terminal) send(s string) {
	term.t.Helper()
	if _, err := io.WriteString(term.f, s); err != nil {
		term.t.Fatal(err)
	}
}

// TestLineModeTerminal drives the line mode through a pseudo-terminal: the
// prompt, an answer, Ctrl-C cancelling a slow turn while mm stays usable,
// and /exit.
func TestLineModeTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of waiting: the full lane runs it")
	}
	dir := t.TempDir()
	files := map[string]string{
		"agent.yaml": "model: script/script.yaml\n",
		"script.yaml": `rules:
  - when: '^slow'
    delay: 1s
    pieces: 30
    say: this answer takes thirty seconds to finish and should never be seen whole
  - afterTool: bash
    say: "bash said: {{output}}"
  - when: '^shell'
    calls:
      - name: bash
        args: {command: echo from the shell}
  - say: "quick: {{question}}"
`,
	}
	writeFiles(t, dir, files)
	term := startTerminal(t, dir)
	term.waitFor("mm devel | config: agent.yaml | model: script/script.yaml | sandbox: workspace, network on | yolo: off")
	term.waitFor("› ")
	term.send("hello\r")
	term.waitFor("🤖 quick: hello")
	term.waitFor("⚙ 0 command(s)")

	term.send("slow please\r")
	term.waitFor("🤖 this")
	term.send("\x03") // Ctrl-C cancels the turn, not mm
	term.waitFor("mm: cancelled")
	term.send("again\r")
	term.waitFor("🤖 quick: again")

	// Consent at the terminal: one question, answered y.
	term.send("shell\r")
	term.waitFor(`Allow bash: echo from the shell? [y] yes once  [n] no  [a] always for "echo from"  [s] always, saved to agent.yaml  [v] never for bash`)
	term.send("y\r")
	term.waitFor("🤖 bash said: from the shell")

	term.send("/exit\r")
	term.waitExit()
}

// TestTerminalShowsControlsVisibly: what a person reads is what runs. A
// command that hides itself behind an erase-line escape and a carriage
// return is shown with both made visible, a command of two lines as two
// lines, and a model's escapes are shown, not obeyed — in the line mode,
// in mm -p on a terminal and in mm --ask on a terminal.
func TestTerminalShowsControlsVisibly(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"agent.yaml": "model: script/script.yaml\nmmConfigs:\n  c: c.yaml\n",
		"c.yaml":     "model: script/script.yaml\n",
		"script.yaml": `rules:
  - afterTool: bash
    say: "ran: {{output}}"
  - when: '^spoof'
    calls:
      - name: bash
        args: {command: "touch PWNED #\e[2K\rAllow bash: ls -la"}
  - when: '^lines'
    calls:
      - name: bash
        args: {command: "echo done\ntouch X"}
  - say: "\e]0;owned\a\e[2Jred \u202Eevil"
`,
	}
	writeFiles(t, dir, files)
	const keys = "  [s] always, saved to agent.yaml  [v] never for bash"
	const shownText = `\x1b]0;owned\x07\x1b[2Jred \u202eevil`
	raw := []string{"#\x1b[2K", "\x1b]0;owned", "\x1b[2Jred", "\u202e"}

	term := startTerminal(t, dir)
	term.waitFor("› ")
	term.send("spoof\r")
	term.waitFor(`Allow bash: touch PWNED #\x1b[2K\rAllow bash: ls -la? [y] yes once  [n] no  [a] always for "touch PWNED"` + keys)
	term.send("n\r")
	term.waitFor("⚙")
	term.send("lines\r")
	term.waitFor("Allow bash, 2 lines:\r\n    echo done\r\n    touch X\r\n")
	term.waitFor(`Allow these lines? [y] yes once  [n] no  [a] always for "echo done" and "touch X"` + keys)
	term.send("n\r")
	term.waitFor("⚙")
	term.send("hello\r")
	term.waitFor("🤖 " + shownText)
	term.send("/exit\r")
	term.waitExit()
	term.hasNone(raw...)
	if _, err := os.Stat(filepath.Join(dir, "PWNED")); err == nil {
		t.Error("the hidden command ran")
	}

	for _, args := range [][]string{{"-p", "hello"}, {"--ask", "c", "hello"}} {
		term := startTerminal(t, dir, args...)
		term.waitFor(shownText)
		term.waitExit()
		term.hasNone(raw...)
	}
}

// since is what the terminal has shown since mark.
func (term *terminal) since(mark int) string {
	term.mu.Lock()
	defer term.mu.Unlock()
	return term.out.String()[mark:]
}

// hasNone fails if the screen so far holds any of texts.
func (term *terminal) hasNone(texts ...string) {
	term.t.Helper()
	term.mu.Lock()
	defer term.mu.Unlock()
	for _, s := range texts {
		if bytes.Contains(term.out.Bytes(), []byte(s)) {
			term.t.Errorf("the terminal was sent %q raw", s)
		}
	}
}
