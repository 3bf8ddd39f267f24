package wasm

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/hooks"
)

// TestBashGuard runs the example guard of examples/hooks-wasm as mm would.
func TestBashGuard(t *testing.T) {
	e := &hooks.Entry{Wasm: bashGuard(t)}
	const cont = `{"action":"continue"}` + "\n"
	deny := func(reason string) string {
		return `{"action":"deny","reason":"bash_guard: ` + reason + `"}` + "\n"
	}
	tests := []struct {
		command, want string
	}{
		{"ls -la", cont},
		{"rm -rf build", cont},
		{"rm -rf /tmp/x", cont},
		{"rm -f /", cont},
		{"echo 'rm -rf /' > notes.txt", cont},
		{"rm -rf /", deny("rm -r on / would delete everything under it")},
		{"sudo rm -fr /*", deny("rm -r on / would delete everything under it")},
		{"cd /tmp && rm -r -f ~", deny("rm -r on ~ would delete everything under it")},
		{`rm --recursive --force "$HOME"`, deny("rm -r on ~ would delete everything under it")},
		{"/bin/rm -Rf //", deny("rm -r on // would delete everything under it")},
		{"rm -rf --no-preserve-root /", deny("it turns off rm's protection of /")},
		{"mkfs.ext4 /dev/sdb1", deny("it would format a disk")},
		{"dd if=/dev/zero of=/dev/sda bs=1M", deny("it would overwrite a disk")},
		{":(){ :|:& };:", deny("it is a fork bomb")},
	}
	for _, tt := range tests {
		out, err := sharedRT.RunHook(t.Context(), e, hooks.PreToolCall, t.TempDir(), guardInput(tt.command))
		if err != nil {
			t.Errorf("%s: %v", tt.command, err)
		} else if string(out) != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.command, out, tt.want)
		}
	}

	// Another tool goes through.
	in := []byte(`{"event":"preToolCall","tool":{"name":"write_file","input":{"command":"rm -rf /"}}}`)
	if out, err := sharedRT.RunHook(t.Context(), e, hooks.PreToolCall, t.TempDir(), in); err != nil || string(out) != cont {
		t.Errorf("write_file: %s, %v", out, err)
	}
}

// TestAudit runs the example audit hook: one line per call in
// logs/audit.jsonl, through its write folder.
func TestAudit(t *testing.T) {
	cwd := t.TempDir()
	e := &hooks.Entry{Wasm: audit(t), Write: []string{"logs"}}

	in := `{"event":"postToolCall","cwd":"` + cwd + `","model":"script/script.yaml","tool":{"id":"call_1","name":"bash","input":{"command":"ls"}},"output":"a\nb\n"}`
	_, err := sharedRT.RunHook(t.Context(), e, hooks.PostToolCall, cwd, []byte(in))
	if want := "the folder logs this module may see does not exist in " + cwd; err == nil || err.Error() != want {
		t.Fatalf("without logs/: got %v, want %s", err, want)
	}

	if err := os.Mkdir(filepath.Join(cwd, "logs"), 0o755); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		out, err := sharedRT.RunHook(t.Context(), e, hooks.PostToolCall, cwd, []byte(in))
		if err != nil || len(out) != 0 {
			t.Fatalf("audit: %q, %v", out, err)
		}
	}
	b, err := os.ReadFile(filepath.Join(cwd, "logs", "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("audit.jsonl has %d lines, want 2:\n%s", len(lines), b)
	}
	for _, l := range lines {
		var got map[string]any
		if err := json.Unmarshal([]byte(l), &got); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		if got["time"] == "" {
			t.Errorf("no time in %s", l)
		}
		delete(got, "time")
		want := map[string]any{"model": "script/script.yaml", "tool": "bash", "id": "call_1", "input": map[string]any{"command": "ls"}, "outputBytes": 4.0}
		if g, w := mustJSON(got), mustJSON(want); g != w {
			t.Errorf("line:\n got %s\nwant %s", g, w)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestWordcount runs the example tool of examples/wasm-tools as mm would:
// its arguments on stdin, the docs folder mounted read-only.
func TestWordcount(t *testing.T) {
	cwd := t.TempDir()
	writeFiles(t, cwd, map[string]string{"docs/a.txt": "one two\nthree\n", "secret.txt": "no"})
	tests := []struct{ input, want, err string }{
		{`{"path":"docs/a.txt"}`, "docs/a.txt: 2 lines, 3 words, 14 characters\n", ""},
		{`{"text":"héllo wörld"}`, "the text: 1 lines, 2 words, 11 characters\n", ""},
		{`{"path":"secret.txt"}`, "", "exit code 1: cannot read secret.txt: open secret.txt: No such file or directory (the tool sees the docs folder only)"},
	}
	for _, tt := range tests {
		out, err := sharedRT.RunTool(t.Context(), "wordcount", wordcount(t), cwd, []string{"docs"}, nil, []byte(tt.input), 30000)
		errText := ""
		if err != nil {
			errText = err.Error()
		}
		if string(out) != tt.want || errText != tt.err {
			t.Errorf("%s: %q, %q; want %q, %q", tt.input, out, errText, tt.want, tt.err)
		}
	}
}
