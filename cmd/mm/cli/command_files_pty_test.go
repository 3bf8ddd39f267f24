package cli

import "testing"

// commandFiles is a folder with two command files of the project, for the
// terminal tests of their completion.
var commandFiles = map[string]string{
	"agent.yaml":                    "model: echo/main\n",
	".mm/commands/review.md":        "---\ndescription: Review files.\nargument-hint: <files>\n---\nReview $ARGUMENTS.\n",
	".mm/commands/release-notes.md": "Write the release notes.\n",
	".mm/commands/explain-build.md": "Explain the build.\n",
}

// TestLineModeCompletesCommands: at a terminal, Tab after a slash
// completes the person's command files as mm's own commands, and the
// command runs its file's question.
func TestLineModeCompletesCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("a terminal session: the full lane")
	}
	dir := t.TempDir()
	writeFiles(t, dir, commandFiles)
	term := startTerminal(t, dir)
	term.waitFor("› ")
	term.send("/rev\t")
	term.waitFor("/review")
	term.send(" main.go\r")
	term.waitFor("🤖 Review main.go.")
	m := term.mark()
	term.send("/hel\t")
	term.waitSince(m, "/help")
	term.send("\r")
	term.waitSince(m, "/review <files>")
	term.send("/exit\r")
	term.waitExit()
}

// TestWindowCompletesCommands: in the window, Tab after a slash completes
// a command file's name; with several candidates sharing nothing more, the
// status line lists them.
func TestWindowCompletesCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("a terminal session: the full lane")
	}
	dir := t.TempDir()
	writeFiles(t, dir, commandFiles)
	term := startTerminal(t, dir, "-tui")
	term.waitFor("echo/main · idle · Enter sends")
	m := term.mark()
	term.send("/re\t")
	term.waitSince(m, "/release-notes  /rename  /resume  /review")
	term.send("v\t")
	term.waitSince(m, "/review")
	term.send(" main.go\r")
	term.waitSince(m, "Review main.go.")
	term.send("/exit\r")
	term.waitExit()
}
