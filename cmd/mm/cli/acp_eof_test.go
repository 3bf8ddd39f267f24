package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/mustend"
)

// TestACPAnswersWhatItReadBeforeItsEnd: an editor (or a pipe) that closes
// mm -acp's stdin right after a request still gets its answer, then mm
// exits and leaves nothing behind (issue 37: mm exited at stdin's end,
// unanswered). A prompt runs to its end; a tool call that needs consent
// is refused, nobody being left to ask.
func TestACPAnswersWhatItReadBeforeItsEnd(t *testing.T) {
	const script = `rules:
  - afterTool: bash
    say: "bash said: {{output}}"
  - when: '^shell'
    calls:
      - name: bash
        args: {command: touch ran.txt}
  - when: '^slow'
    delay: 100ms
    pieces: 5
    say: one two three four five
`
	tests := []struct {
		name, prompt, text string
	}{
		{"a slow answer", "slow please", "one two three four five"},
		{"a call that needs consent", "shell", "bash said: [refused: the person did not allow this call]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			e := startRawEditorEnv(t, dir, []string{"MM_NO_SAVE=1"}, "-acp")
			writeFiles(t, dir, map[string]string{"agent.yaml": "model: script/script.yaml\n", "script.yaml": script})
			id := e.prompt(e.session(dir), tc.prompt)
			if err := e.in.Close(); err != nil {
				t.Fatal(err)
			}
			var text strings.Builder
			r := e.until(id, func(m rawMessage) { text.WriteString(textOf(m)) })
			var result struct {
				StopReason string `json:"stopReason"`
			}
			if err := json.Unmarshal(r.Result, &result); err != nil || result.StopReason != "end_turn" || text.String() != tc.text {
				t.Errorf("the prompt answered %s (error %v), streaming %q; want end_turn, streaming %q", r.Result, r.Error, text.String(), tc.text)
			}
			mustend.Within(t, 20*time.Second, "mm -acp after its stdin ended", func() {
				if err := e.cmd.Wait(); err != nil {
					t.Errorf("mm -acp exited with %v", err)
				}
			})
			if left := processesMatching(mmBin, dir); len(left) > 0 {
				t.Errorf("processes left behind: %q", left)
			}
			if _, err := os.Stat(filepath.Join(dir, "ran.txt")); err == nil {
				t.Error("bash ran without consent")
			}
		})
	}
}

// TestACPAnswersAPipe: requests written in one go and stdin closed, as
// by printf … | mm -acp, are each answered before mm exits.
func TestACPAnswersAPipe(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"agent.yaml": "model: echo/main\n"})
	e := startRawEditorEnv(t, dir, []string{"MM_NO_SAVE=1"}, "-acp")
	ids := []int{
		e.send("initialize", map[string]any{"protocolVersion": 1}, true),
		e.send("session/new", map[string]any{"cwd": dir, "mcpServers": []any{}}, true),
		e.send("session/new", map[string]any{"cwd": "relative", "mcpServers": []any{}}, true),
		e.send("no/such/method", map[string]any{}, true),
	}
	if err := e.in.Close(); err != nil {
		t.Fatal(err)
	}
	// The answers come in the order they are ready: read them all, to
	// stdout's end.
	answered := map[int]bool{}
	for {
		line, err := e.out.ReadBytes('\n')
		if err != nil {
			break
		}
		var m rawMessage
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("mm -acp wrote %q: %v", line, err)
		}
		if m.ID != nil && m.Method == "" {
			answered[*m.ID] = true
		}
	}
	for _, id := range ids {
		if !answered[id] {
			t.Errorf("request %d was not answered (answered: %v)", id, answered)
		}
	}
	mustend.Within(t, 20*time.Second, "mm -acp after its stdin ended", func() {
		if err := e.cmd.Wait(); err != nil {
			t.Errorf("mm -acp exited with %v", err)
		}
	})
}
