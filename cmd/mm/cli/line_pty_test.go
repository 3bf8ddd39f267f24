package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPrintCtrlC: Ctrl-C typed at the terminal while mm -p streams a slow
// answer ends mm with exit status 130, as a shell reports a command
// SIGINT ended.
func TestPrintCtrlC(t *testing.T) {
	if testing.Short() {
		t.Skip("a slow answer streamed on a terminal: not in the -short lane")
	}
	dir := t.TempDir()
	files := map[string]string{
		"agent.yaml": "model: script/script.yaml\n",
		"script.yaml": `rules:
  - delay: 1s
    pieces: 30
    say: this answer takes thirty seconds to finish and should never be seen whole
`,
	}
	writeFiles(t, dir, files)
	term := startTerminal(t, dir, "-p", "slow please")
	term.waitFor("this")
	term.send("\x03")
	done := make(chan error, 1)
	go func() { done <- term.cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Errorf("mm -p ended with %v after Ctrl-C, want exit status 130", err)
		}
	case <-time.After(outliveWithin):
		t.Fatalf("mm -p still runs %v after Ctrl-C", outliveWithin)
	}
}

// TestLineModeUnknownCommandTerminal: at the terminal, an unknown /command
// is refused with the known ones and the model is not asked; the line
// mode goes on.
func TestLineModeUnknownCommandTerminal(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "agent.yaml"), []byte("model: echo/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	term := startTerminal(t, dir, "--model", "echo/other")
	term.waitFor("mm devel | config: agent.yaml | model: echo/other | sandbox: workspace, network on | yolo: off")
	term.waitFor("› ")
	term.send("/hlep\r")
	term.waitFor("mm: unknown command /hlep (known: /ask, /mcp, ")
	term.waitFor(`/help, /exit) (did you mean "/help"?); to ask the model about it, start the line with another word`)
	term.send("still here\r")
	term.waitFor("🤖 still here")
	if strings.Contains(term.since(0), "🤖 /hlep") {
		t.Error("the model was asked /hlep")
	}
	term.send("/exit\r")
	term.waitExit()
}

// TestLineHistoryPrivate: the line mode's history is a file 0600 in a
// folder 0700, whether mm creates them or finds them open to others (an
// older mm's), and stays 0600 after readline rewrites it to trim it (over
// its 500 lines).
func TestLineHistoryPrivate(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, folder string)
	}{
		{"new", func(*testing.T, string) {}},
		{"open to others", func(t *testing.T, folder string) {
			if err := os.MkdirAll(folder, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(folder, 0o755); err != nil {
				t.Fatal(err)
			}
			old := strings.Repeat("an old question\n", 600)
			if err := os.WriteFile(filepath.Join(folder, "history"), []byte(old), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "agent.yaml"), []byte("model: echo/main\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			folder := filepath.Join(dir, ".cache", "mm")
			tc.setup(t, folder)
			term := startTerminal(t, dir)
			term.waitFor("› ")
			term.send("remember this\r")
			term.waitFor("🤖 remember this")
			term.send("/exit\r")
			term.waitExit()
			for path, want := range map[string]os.FileMode{folder: 0o700, filepath.Join(folder, "history"): 0o600} {
				fi, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				if got := fi.Mode().Perm(); got != want {
					t.Errorf("%s has mode %#o, want %#o", path, got, want)
				}
			}
			b, err := os.ReadFile(filepath.Join(folder, "history"))
			if err != nil || !strings.Contains(string(b), "remember this\n") {
				t.Errorf("the history holds %d bytes without the line typed (%v)", len(b), err)
			}
		})
	}
}

// TestLineModeAbortTerminal: at the terminal, /abort typed while an answer
// streams cancels the turn, as Ctrl-C does, and the line mode goes on.
func TestLineModeAbortTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("a slow answer streamed on a terminal: not in the -short lane")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"agent.yaml": "model: script/script.yaml\n",
		"script.yaml": `rules:
  - when: slow
    delay: 1s
    pieces: 30
    say: this answer takes thirty seconds to finish and should never be seen whole
  - say: quick answer
`,
	})
	term := startTerminal(t, dir)
	term.waitFor("› ")
	term.send("slow please\r")
	term.waitFor("🤖 this")
	term.send("/abort\r")
	term.waitFor("mm: cancelled")
	term.waitFor("› ")
	term.send("next one\r")
	term.waitFor("🤖 quick answer")
	if strings.Contains(term.since(0), "never be seen whole") {
		t.Error("the slow answer was not cancelled")
	}
	term.send("/exit\r")
	term.waitExit()
}
