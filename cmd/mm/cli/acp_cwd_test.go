package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestACPConfigFromSessionCwd: mm -acp without --config, started from a
// folder with no agent.yaml (as an editor starts it from /), gives each
// session the agent.yaml of session/new's cwd; a broken one fails that
// session/new only, naming the file.
func TestACPConfigFromSessionCwd(t *testing.T) {
	root := t.TempDir()
	started, good, broken, bare := filepath.Join(root, "started"), filepath.Join(root, "good"), filepath.Join(root, "broken"), filepath.Join(root, "bare")
	for _, d := range []string{started, good, broken, bare} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFiles(t, good, map[string]string{
		"agent.yaml": "model: script/main.yaml\n",
		"main.yaml":  "rules:\n  - say: from the good folder\n",
	})
	writeFiles(t, broken, map[string]string{"agent.yaml": "modle: echo/x\n"})
	e := startRawEditorArgs(t, started, "-acp")
	e.until(e.send("initialize", map[string]any{"protocolVersion": 1}, true), nil)

	s := newSession(t, e, good)
	var got strings.Builder
	r := e.until(e.prompt(s, "hello"), func(m rawMessage) { got.WriteString(textOf(m)) })
	if r.Error != nil {
		t.Fatalf("prompt in %s failed: %s", good, r.Error.Message)
	}
	if got.String() != "from the good folder" {
		t.Errorf("answer = %q, want the good folder's scripted model", got.String())
	}

	r = e.until(e.send("session/new", map[string]any{"cwd": broken, "mcpServers": []any{}}, true), nil)
	// The line mm prints, whole: the editor shows what a terminal would.
	want := `[config error: ` + filepath.Join(broken, "agent.yaml") + `:1: unknown key "modle" (did you mean "model"?)]`
	if r.Error == nil || r.Error.Message != want {
		t.Errorf("session/new in the broken folder answered %s %+v, want the error %q", r.Result, r.Error, want)
	}

	// A folder without agent.yaml has the defaults: no model.
	r = e.until(e.send("session/new", map[string]any{"cwd": bare, "mcpServers": []any{}}, true), nil)
	if r.Error == nil || !strings.Contains(r.Error.Message, "model") {
		t.Errorf("session/new in a folder without agent.yaml answered %s %+v, want the missing model", r.Result, r.Error)
	}
}

// newSession opens a session in cwd and returns its id.
func newSession(t *testing.T, e *rawEditor, cwd string) string {
	t.Helper()
	r := e.until(e.send("session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}}, true), nil)
	var s struct {
		SessionID string `json:"sessionId"`
	}
	if r.Error != nil || json.Unmarshal(r.Result, &s) != nil || s.SessionID == "" {
		t.Fatalf("session/new in %s answered %s %+v", cwd, r.Result, r.Error)
	}
	return s.SessionID
}

// TestACPUserConfigAndCommands: a session in a folder without agent.yaml
// runs with the person's own, and an editor is offered the folder's
// command files, which a prompt runs as the line mode does.
func TestACPUserConfigAndCommands(t *testing.T) {
	root := t.TempDir()
	own, bare := filepath.Join(root, "config"), filepath.Join(root, "bare")
	writeFiles(t, own, map[string]string{
		"mm/agent.yaml": "model: script/main.yaml\n",
		"mm/main.yaml":  "rules:\n  - say: \"from your own file: {{question}}\"\n",
	})
	writeFiles(t, bare, map[string]string{".mm/commands/review.md": "---\nargument-hint: <files>\n---\nReview $ARGUMENTS.\n"})
	e := startRawEditorEnv(t, root, []string{"XDG_CONFIG_HOME=" + own}, "-acp")
	e.until(e.send("initialize", map[string]any{"protocolVersion": 1}, true), nil)
	s := newSession(t, e, bare)
	var got strings.Builder
	offered := false
	r := e.until(e.prompt(s, "/review main.go"), func(m rawMessage) {
		got.WriteString(textOf(m))
		var p struct {
			Update struct {
				Commands []struct {
					Name, Description string
					Input             struct{ Hint string }
				} `json:"availableCommands"`
			} `json:"update"`
		}
		if json.Unmarshal(m.Params, &p) == nil {
			for _, c := range p.Update.Commands {
				offered = offered || c.Name == "review" && c.Description == "Review $ARGUMENTS." && c.Input.Hint == "<files>"
			}
		}
	})
	if r.Error != nil {
		t.Fatalf("prompt failed: %s", r.Error.Message)
	}
	if got.String() != "from your own file: Review main.go." {
		t.Errorf("answer = %q, want the person's own model on the command's question", got.String())
	}
	if !offered {
		t.Error("the editor was not offered /review")
	}
}
