package cli

import "testing"

// TestLineModeCompletesAndContinues: at a terminal, Tab after @ completes a
// path of the working directory (readline's completer), and a line ending
// in a backslash goes on on the next one, so that the model reads the
// question and the file.
func TestLineModeCompletesAndContinues(t *testing.T) {
	if testing.Short() {
		t.Skip("a terminal session: the full lane")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"agent.yaml":    "model: echo/main\n",
		"notes-2026.md": "buy milk\n",
	})
	term := startTerminal(t, dir)
	term.waitFor("› ")
	term.send("what is in it? \\\r")
	term.waitFor("… ")
	term.send("@no\t")
	term.waitFor("@notes-2026.md")
	term.send("\r")
	term.waitFor("🤖 what is in it?")
	term.waitFor("[file: notes-2026.md]")
	term.waitFor("buy milk")
	term.waitFor("⚙ 0 command(s)")
	term.send("/exit\r")
	term.waitExit()
}

// TestLineModeCompletesInASentence: at a terminal, Tab completes an @path
// inside a sentence too, and the file it names is brought in after the
// question.
func TestLineModeCompletesInASentence(t *testing.T) {
	if testing.Short() {
		t.Skip("a terminal session: the full lane")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"agent.yaml":    "model: echo/main\n",
		"notes-2026.md": "buy milk\n",
	})
	term := startTerminal(t, dir)
	term.waitFor("› ")
	term.send("explain @no\t")
	term.waitFor("explain @notes-2026.md")
	term.send(" please\r")
	term.waitFor("🤖 explain @notes-2026.md please")
	term.waitFor("[file: notes-2026.md]")
	term.waitFor("buy milk")
	term.waitFor("⚙ 0 command(s)")
	term.send("/exit\r")
	term.waitExit()
}
