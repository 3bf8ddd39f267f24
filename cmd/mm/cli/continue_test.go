package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runIn runs mm with args in dir, stdin from in, its sessions under
// state; it returns stdout and stderr.
func runIn(t *testing.T, dir, state, in string, args ...string) (string, string) {
	t.Helper()
	cmd := exec.Command(mmBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MM_CONFIG=", "MM_ASKED_DEPTH=", "MM_MODEL=", "MM_ASK_CHAIN=", "MM_BIN=",
		"MM_ASK_MAX_DEPTH=", "XDG_STATE_HOME="+state)
	cmd.Stdin = strings.NewReader(in)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("mm %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
	}
	return out.String(), errOut.String()
}

var sessionID = regexp.MustCompile(`"session_id":"([0-9a-z]{12})"`)

// TestContinueIsThisFoldersLastUsed: mm --continue goes on with the session
// a person last used in this folder — one resumed and not written to
// included — not the one saved last, and never an editor's.
func TestContinueIsThisFoldersLastUsed(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(t.TempDir(), "state")
	writeFiles(t, dir, map[string]string{"agent.yaml": "model: echo/main\n"})
	idOf := func(out string) string {
		t.Helper()
		m := sessionID.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no session_id in %s", out)
		}
		return m[1]
	}
	older, _ := runIn(t, dir, state, "", "-p", "--output-format", "json", "older")
	newer, _ := runIn(t, dir, state, "", "-p", "--output-format", "json", "newer")
	olderID, newerID := idOf(older), idOf(newer)

	// The line mode resumes the older one and leaves without a word.
	runIn(t, dir, state, "/resume "+olderID+"\n/exit\n")
	_, said := runIn(t, dir, state, "", "--continue", "-p", "again")
	if want := "continuing this folder's last session: " + olderID + " (1 turn, 2 messages)\n"; said != want {
		t.Errorf("after /resume %s (older), --continue said %q, want %q (newer is %s)", olderID, said, want, newerID)
	}

	// An editor's session in this folder, saved after every other, is not
	// the person's.
	e := startRawEditorEnv(t, dir, []string{"XDG_STATE_HOME=" + state}, "-acp")
	editorID := e.session(dir)
	if got := e.turn(editorID, "from the editor"); got.err != "" {
		t.Fatalf("the editor's prompt: %s", got.err)
	}
	e.stop()
	_, said = runIn(t, dir, state, "", "--continue", "-p", "and again")
	if want := "continuing this folder's last session: " + olderID + " (2 turns, 4 messages)\n"; said != want {
		t.Errorf("after an editor's session %s, --continue said %q, want %q", editorID, said, want)
	}

	// mm sessions marks the one --continue takes.
	list, _ := runIn(t, dir, state, "", "sessions")
	for _, line := range strings.Split(list, "\n") {
		marked := strings.HasSuffix(line, "  ← mm --continue")
		if strings.HasPrefix(line, olderID) != marked {
			t.Errorf("mm sessions: %q: marked %v, want it on %s alone\n%s", line, marked, olderID, list)
		}
	}
}

// TestLineResumeShowsTerminal: on a terminal, the line mode going on with
// a session shows its last turns, each question as it was typed (an @path
// line, not the file it read), the answers rendered as markdown, and says
// how many earlier ones /history shows.
func TestLineResumeShowsTerminal(t *testing.T) {
	dir := t.TempDir()
	state := os.Getenv("XDG_STATE_HOME") // startTerminal's
	writeFiles(t, dir, map[string]string{
		"agent.yaml":  "model: script/script.yaml\n",
		"notes.md":    "buy milk\n",
		"script.yaml": "rules:\n  - when: notes.md\n    say: A shopping list.\n  - say: '{{question}}'\n",
	})
	runIn(t, dir, state, "", "-p", "one")
	for _, q := range []string{"two", "what is in it?\n@notes.md", "a **bold** four"} {
		runIn(t, dir, state, "", "--continue", "-p", q)
	}
	term := startTerminal(t, dir, "--continue")
	term.waitFor("continuing this folder's last session: ")
	term.waitFor("… 1 earlier turn: /history shows them")
	term.waitFor("› two")
	term.waitFor("› what is in it?\r\n  @notes.md\r\n🤖 A shopping list.")
	term.waitFor("🤖 a \x1b[1mbold\x1b[0m four")
	m := term.mark()
	term.send("/history\r")
	term.waitSince(m, "› one")
	term.send("/exit\r")
	term.waitExit()
	term.hasNone("buy milk")
}
