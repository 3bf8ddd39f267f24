package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// permissionsScript runs what it is asked to: "run <command>".
const permissionsScript = `rules:
  - afterTool: bash
    say: "the tool said: {{output}}"
  - when: '^run ([^\n]+)'
    calls:
      - name: bash
        args: {command: "{{1}}"}
`

// TestLineModeAlwaysSaved: at a terminal, the consent question offers the
// command's prefix; [s] saves it to agent.yaml, whose comments stay, and
// a command it covers is not asked about again.
func TestLineModeAlwaysSaved(t *testing.T) {
	if testing.Short() {
		t.Skip("a terminal session: the full lane")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"agent.yaml":  "# mine\nmodel: script/script.yaml   # scripted\n",
		"script.yaml": permissionsScript,
	})
	term := startTerminal(t, dir)
	term.waitFor("› ")
	m := term.mark()
	term.send("run echo one && echo two\r")
	term.waitSince(m, `Allow bash: echo one && echo two? [y] yes once  [n] no  [a] always for "echo one" and "echo two"  [s] always, saved to agent.yaml  [v] never for bash › `)
	term.send("s\r")
	term.waitSince(m, `saved "bash: echo one *" and "bash: echo two *" to permissions.allow in agent.yaml`)
	term.waitSince(m, "🤖 the tool said: one")
	term.waitSince(m, "⚙ 1 command(s)")
	m = term.mark()
	term.send("run echo two again\r")
	term.waitSince(m, "🤖 the tool said: two again")
	term.waitSince(m, "⚙ 1 command(s)")
	if s := term.since(m); strings.Contains(s, "Allow bash") {
		t.Errorf("asked again:\n%s", s)
	}
	term.send("/exit\r")
	term.waitExit()
	got, err := os.ReadFile(filepath.Join(dir, "agent.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := "# mine\nmodel: script/script.yaml   # scripted\npermissions:\n  allow:\n    - bash: echo one *\n    - bash: echo two *\n"
	if string(got) != want {
		t.Errorf("agent.yaml became\n%s\nwant\n%s", got, want)
	}
}

// TestWindowAlwaysPrefix: in the window, a is "always" for the command's
// prefix alone: the same prefix is not asked about again, another one is.
func TestWindowAlwaysPrefix(t *testing.T) {
	if testing.Short() {
		t.Skip("a terminal session: the full lane")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"agent.yaml":  "model: script/script.yaml\n",
		"script.yaml": permissionsScript,
	})
	term := startTerminal(t, dir, "-tui")
	term.waitFor("idle · Enter sends")
	m := term.mark()
	term.send("run echo hi\r")
	term.waitSince(m, `Allow bash: echo hi? [y] once [n] no [a] always for "echo hi" [s] saved to agent.yaml [v] never`)
	term.send("a")
	term.waitSince(m, `→ always for "echo hi"`)
	term.waitSince(m, "🤖 the tool said: hi")
	term.waitSince(m, "idle · Enter sends")
	m = term.mark()
	term.send("run echo hi there\r")
	term.waitSince(m, "🤖 the tool said: hi there")
	term.waitSince(m, "idle · Enter sends")
	m = term.mark()
	term.send("run echo ho\r")
	term.waitSince(m, `Allow bash: echo ho? [y] once [n] no [a] always for "echo ho" [s] saved to agent.yaml [v] never`)
	term.send("n")
	term.waitSince(m, "→ no")
	term.waitSince(m, "idle · Enter sends")
	term.send("/exit\r")
	term.waitExit()
	if got, _ := os.ReadFile(filepath.Join(dir, "agent.yaml")); string(got) != "model: script/script.yaml\n" {
		t.Errorf("agent.yaml changed without a save:\n%s", got)
	}
}
