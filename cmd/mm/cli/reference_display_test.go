package cli

import (
	"strings"
	"testing"
)

// TestReferenceHookRunsInTheColourOfTheGearLine holds the reference's
// display row of the line mode and -p: the hook runs are listed "after the
// answer, under the ⚙ line (and the displayCommands list), in the same
// colour" — on a terminal, the bytes mm writes paint the ⚙ line, each
// command and each hook run dim, line by line.
func TestReferenceHookRunsInTheColourOfTheGearLine(t *testing.T) {
	t.Setenv("TERM", "xterm-256color")
	t.Setenv("NO_COLOR", "")
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"agent.yaml": `model: script/script.yaml
yolo: true
displayHooks: true
displayCommands: true
hooks:
  preGeneration:
    - command: "true"
  postGeneration:
    - command: "true"
`,
		"script.yaml": `rules:
  - afterTool: bash
    say: "done"
  - calls:
      - name: bash
        args: {command: echo hi}
`,
	})
	const block = "\x1b[2m⚙ 1 command(s)\x1b[0m\r\n" +
		"\x1b[2m  $ bash: echo hi\x1b[0m\r\n" +
		"\x1b[2m  🪝 1. preGeneration · true → continue\x1b[0m\r\n" +
		"\x1b[2m  🪝 2. postGeneration · true → continue\x1b[0m\r\n"

	t.Run("line mode", func(t *testing.T) {
		term := startTerminal(t, dir)
		term.waitFor("› ")
		term.send("go\r")
		term.waitFor("postGeneration · true → continue")
		term.send("/exit\r")
		term.waitExit()
		if out := term.since(0); !strings.Contains(out, block) {
			t.Errorf("the ⚙ block is not written dim, line by line; the terminal shows\n%q\nwant in it\n%q", out, block)
		}
	})
	t.Run("-p", func(t *testing.T) {
		term := startTerminal(t, dir, "-p", "go")
		term.waitExit()
		if out := term.since(0); !strings.HasSuffix(out, block) {
			t.Errorf("the ⚙ block is not written dim, line by line, at the end; the terminal shows\n%q\nwant at its end\n%q", out, block)
		}
	})
}
