package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWindowGraphemes: in the window, Backspace after e and a combining
// accent removes both, and a thumbs-up with its skin tone goes whole.
func TestWindowGraphemes(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "agent.yaml"), []byte("model: echo/x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	term := startTerminal(t, dir, "-tui")
	term.waitFor("idle · Enter sends")
	m := term.mark()
	term.send("cafe\u0301\x7fs ok👍🏽\x7f!\r")
	term.waitSince(m, "› cafs ok!")
	term.send("/exit\r")
	term.waitExit()
}
