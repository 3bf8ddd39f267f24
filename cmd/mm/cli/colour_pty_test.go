package cli

import (
	"testing"
)

// TestLineModeColours: on a terminal the line mode dims its tool and ⚙
// lines (red for failures is in internal/frontend/line's TestRendererColours); with
// NO_COLOR it writes no colours at all.
func TestLineModeColours(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"agent.yaml": "model: script/script.yaml\n",
		"script.yaml": `rules:
  - afterTool: bash
    say: "done"
  - calls:
      - name: bash
        args: {command: exit 3}
`,
	}
	writeFiles(t, dir, files)
	term := startTerminal(t, dir, "--yolo")
	term.waitFor("› ")
	term.send("go\r")
	term.waitFor("\x1b[2m🔧 bash: exit 3\x1b[0m")
	term.waitFor("\x1b[2m⚙ 1 command(s)\x1b[0m")
	term.send("/exit\r")
	term.waitExit()

	t.Setenv("NO_COLOR", "1")
	term = startTerminal(t, dir, "--yolo")
	term.waitFor("› ")
	term.send("go\r")
	term.waitFor("🔧 bash: exit 3\r\n")
	term.waitFor("⚙ 1 command(s)\r\n")
	term.send("/exit\r")
	term.waitExit()
	term.hasNone("\x1b[2m", "\x1b[31m")
}
