package cli

import (
	"os"
	"os/exec"
	"testing"
)

// markdownAnswer is what the scripted model answers in
// TestMarkdownOnTerminal, in pieces.
const markdownAnswer = "# Plan\n\nUse **this**:\n\n```go\nfunc main() {}\n```\n"

// TestMarkdownOnTerminal: in the line mode on a terminal an answer is
// rendered as markdown, a heading bold and a code block highlighted, and
// so it is by mm -p on a terminal; mm -p on a pipe writes it as the model
// wrote it, and so do the line mode and mm -p with NO_COLOR.
func TestMarkdownOnTerminal(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"agent.yaml": "model: script/script.yaml\n",
		"script.yaml": `rules:
  - pieces: 7
    say: "# Plan\n\nUse **this**:\n\n` + "```go\\nfunc main() {}\\n```" + `\n"
`,
	}
	writeFiles(t, dir, files)
	term := startTerminal(t, dir)
	term.waitFor("› ")
	term.send("plan\r")
	term.waitFor("🤖 \x1b[1;4;35mPlan\x1b[0m\r\n")
	term.waitFor("Use \x1b[1mthis\x1b[0m:\r\n")
	term.waitFor("\x1b[2m```go\x1b[0m\r\n\x1b[35mfunc\x1b[0m main() {}\r\n\x1b[2m```\x1b[0m\r\n")
	term.send("/exit\r")
	term.waitExit()

	cmd := exec.Command(mmBin, "-p", "plan")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MM_CONFIG=", "MM_MODEL=")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("mm -p: %v", err)
	}
	if string(out) != markdownAnswer {
		t.Errorf("mm -p on a pipe wrote %q, want %q", out, markdownAnswer)
	}

	term = startTerminal(t, dir, "-p", "plan")
	term.waitFor("\x1b[1;4;35mPlan\x1b[0m\r\n\r\nUse \x1b[1mthis\x1b[0m:")
	term.waitExit()

	t.Setenv("NO_COLOR", "1")
	term = startTerminal(t, dir)
	term.waitFor("› ")
	term.send("plan\r")
	term.waitFor("🤖 # Plan\r\n\r\nUse **this**:\r\n\r\n```go\r\nfunc main() {}\r\n```\r\n")
	term.send("/exit\r")
	term.waitExit()
	term.hasNone("\x1b[1;4;35m", "\x1b[35m")

	term = startTerminal(t, dir, "-p", "plan")
	term.waitFor("# Plan\r\n\r\nUse **this**:\r\n")
	term.waitExit()
}

// TestMarkdownInWindow: the window renders an answer as markdown too, and
// with NO_COLOR shows it as written.
func TestMarkdownInWindow(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"agent.yaml": "model: script/script.yaml\n",
		"script.yaml": `rules:
  - pieces: 7
    say: "# Plan\n\n` + "```go\\nfunc main() {}\\n```" + `\n"
`,
	}
	writeFiles(t, dir, files)
	term := startTerminal(t, dir, "-tui")
	term.waitFor("› ")
	term.send("plan\r")
	term.waitFor("🤖 \x1b[1;4;35mPlan")
	term.waitFor("\x1b[35mfunc\x1b[0m main() {}")
	term.send("/exit\r")
	term.waitExit()

	t.Setenv("NO_COLOR", "1")
	term = startTerminal(t, dir, "-tui")
	term.waitFor("› ")
	term.send("plan\r")
	term.waitFor("🤖 # Plan")
	term.waitFor("func main() {}")
	term.send("/exit\r")
	term.waitExit()
	term.hasNone("\x1b[1;4;35m", "\x1b[35m")
}
