package cli

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/mustend"
)

// TestWindowClustersInTmux: in a window of 28 columns in tmux, lines with
// a cluster of several code points near the row's end (a thumbs-up with
// a skin tone, which tmux 3.3 draws four columns wide, a family, a flag, a
// letter with two marks) lose no letter. tmux is the terminal here: what
// it shows is read back with capture-pane.
func TestWindowClustersInTmux(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	clusters := []string{"👍🏽", "👨\u200d👩\u200d👧", "🇫🇷", "e\u0301\u0302"}
	var say, want strings.Builder
	for _, c := range clusters {
		for n := 19; n <= 25; n++ {
			x := strings.Repeat("x", n)
			fmt.Fprintf(&say, "%s%sABCDEFG\n\n", x, c)
			want.WriteString(x + "ABCDEFG")
		}
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"agent.yaml":  "model: script/script.yaml\n",
		"script.yaml": fmt.Sprintf("rules:\n  - say: %q\n", say.String()),
	})
	sock := filepath.Join(dir, "tmux.sock")
	run := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(tmux, append([]string{"-S", sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	run("new-session", "-d", "-x", "28", "-y", "90", "-c", dir,
		"env", "XDG_CACHE_HOME="+filepath.Join(dir, ".cache"), "MM_CONFIG=", "MM_MODEL=", mmBin, "-tui")
	t.Cleanup(func() { exec.Command(tmux, "-S", sock, "kill-server").Run() })
	screen := func() string { return run("capture-pane", "-p") }
	waitScreen := func(text string) {
		t.Helper()
		if !mustend.Eventually(mustend.WaitBound, func() bool { return strings.Contains(screen(), text) }) {
			t.Fatalf("tmux never showed %q; it shows:\n%s", text, screen())
		}
	}
	waitScreen("idle")
	run("send-keys", "go", "Enter")
	waitScreen("⚙ 0 command(s)")
	shown := screen()
	answer := shown[strings.Index(shown, "› go"):strings.Index(shown, "⚙ 0 command(s)")]
	letters := strings.Map(func(r rune) rune {
		if r == 'x' || r >= 'A' && r <= 'G' {
			return r
		}
		return -1
	}, answer)
	if letters != want.String() {
		t.Errorf("letters were lost; tmux shows:\n%s", answer)
	}
}
