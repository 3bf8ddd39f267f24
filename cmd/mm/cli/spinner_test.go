package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// spinnerFiles: the model thinks for a while, then runs a tool that waits
// for the test's go-ahead (the file "release"), then asks an expert who
// thinks for a while too.
var spinnerFiles = map[string]string{
	"agent.yaml":  "model: script/main.yaml\nyolo: true\nmmConfigs:\n  expert: expert.yaml\n",
	"expert.yaml": "model: script/expert-script.yaml\n",
	"main.yaml": `rules:
  - afterTool: ask_agent
    say: "main: done"
  - afterTool: bash
    calls:
      - name: ask_agent
        args: {agent: expert, question: "all good?"}
  - when: '^go'
    delay: 1500ms
    calls:
      - name: bash
        args: {command: "while [ ! -e release ]; do sleep 0.05; done; echo released"}
`,
	"expert-script.yaml": `rules:
  - delay: 1500ms
    say: "expert: ok"
    pieces: 1
`,
}

// spinnerDraw is one drawing of the spinner's line.
var spinnerDraw = regexp.MustCompile(`[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] [^\r\n]*?… [0-9]+\.[0-9] s\x1b\[K`)

// TestSpinnerStates: on a terminal the line mode shows what a turn waits on
// — the model, a tool, an asked agent — with the time it has waited, and
// erases that line before anything else is written; /usage reports the
// turn's model calls.
func TestSpinnerStates(t *testing.T) {
	if testing.Short() {
		t.Skip("a scripted model that pauses 1.5 s: not in the -short lane")
	}
	dir := t.TempDir()
	writeFiles(t, dir, spinnerFiles)
	term := startTerminal(t, dir)
	term.waitFor("› ")
	term.send("go\r")
	term.waitFor(" thinking… ")
	term.waitFor(" running bash: while [ ! -e release ]")
	if err := os.WriteFile(filepath.Join(dir, "release"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	term.waitFor(" asking expert… ")
	term.waitFor("🤖 main: done")
	term.waitFor("⚙ 2 command(s)")
	term.send("/usage\r")
	term.waitFor("last turn: no token counts from the server · 3 model calls")
	term.send("/exit\r")
	term.waitExit()

	term.mu.Lock()
	out := term.out.Bytes()
	term.mu.Unlock()
	draws := spinnerDraw.FindAllIndex(out, -1)
	if len(draws) == 0 {
		t.Fatalf("no spinner on the terminal:\n%q", out)
	}
	for _, d := range draws {
		if next := out[d[1]:]; !bytes.HasPrefix(next, []byte("\r\x1b[K")) {
			t.Errorf("the spinner's line %q is followed by %q, not erased", out[d[0]:d[1]], next[:min(len(next), 40)])
		}
	}
}

// TestSpinnerNotOnAPipe: -p with stdout and stderr on pipes gets nothing of
// the spinner.
func TestSpinnerNotOnAPipe(t *testing.T) {
	if testing.Short() {
		t.Skip("a scripted model that pauses 1.5 s: not in the -short lane")
	}
	dir := t.TempDir()
	writeFiles(t, dir, spinnerFiles)
	if err := os.WriteFile(filepath.Join(dir, "release"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(mmBin, "-p", "go")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MM_CONFIG=", "MM_MODEL=", "MM_ASKED_DEPTH=", "MM_ASK_MAX_DEPTH=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mm -p: %v\n%s", err, stderr.Bytes())
	}
	if got := stdout.String(); got != "main: done\n" {
		t.Errorf("stdout: %q", got)
	}
	for _, s := range []string{"thinking", "asking expert…", "\x1b[K", "\r"} {
		if bytes.Contains(stderr.Bytes(), []byte(s)) {
			t.Errorf("stderr holds %q:\n%q", s, stderr.Bytes())
		}
	}
}
