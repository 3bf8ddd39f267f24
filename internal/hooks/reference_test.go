package hooks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/reference"
)

// TestReferenceExamples: the reference's examples are mm's own — its hooks:
// block loads as written, and each input it shows is what mm writes for it,
// byte for byte.
func TestReferenceExamples(t *testing.T) {
	units, err := reference.Read("../..")
	if err != nil {
		t.Fatal(err)
	}

	blocks := reference.Blocks(units, "Hook entry", "yaml")
	if len(blocks) != 1 {
		t.Fatalf("%d yaml examples under Hook entry, want 1", len(blocks))
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hooks", "audit.wasm"), []byte("\x00asm"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfig(t, dir, strings.Join(blocks[0], "\n")+"\n")
	if err != nil {
		t.Fatalf("the reference's example: %v", err)
	}
	if got, want := cfg.Summary(), "preGeneration×1 preToolCall×1 postToolCall×1 postGeneration×1"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	pre := cfg.Entries(PreGeneration)[0]
	guard := cfg.Entries(PreToolCall)[0]
	audit := cfg.Entries(PostToolCall)[0]
	checks := []struct {
		name      string
		got, want any
	}{
		{"preGeneration onError", pre.OnError, OnErrorFail},
		{"guard matches bash", guard.Matches("bash"), true},
		{"guard does not match my_bash", guard.Matches("my_bash"), false},
		{"guard's default onError", guard.OnError, OnErrorWarn},
		{"audit's module", audit.Wasm, filepath.Join(dir, "hooks", "audit.wasm")},
		{"audit's write folder", strings.Join(audit.Write, ","), "logs"},
		{"postGeneration onError", cfg.Entries(PostGeneration)[0].OnError, OnErrorIgnore},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}

	inputs := reference.Blocks(units, "Examples", "json")
	if len(inputs) != 1 || len(inputs[0]) != 3 {
		t.Fatalf("json examples under Examples: %q, want one block of three inputs", inputs)
	}
	for _, line := range inputs[0] {
		var in Input
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		b, err := in.encode()
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSuffix(string(b), "\n"); got != line {
			t.Errorf("mm writes\n %s\nthe reference shows\n %s", got, line)
		}
	}
}
