package hooks

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/mm-agent/mm/internal/strictyaml"
)

// loadConfig reads a hooks: block the way a configuration file does.
func loadConfig(t *testing.T, dir, src string) (*Config, error) {
	t.Helper()
	var doc struct {
		Hooks Config `yaml:"hooks"`
	}
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatalf("yaml: %v", err)
	}
	return &doc.Hooks, doc.Hooks.Resolve(dir)
}

func TestValidationMessages(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "guard.wasm"), []byte("\x00asm"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "folder.wasm"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, src, want string
	}{
		{"unknown event", "hooks:\n  preToolcall:\n    - command: x\n",
			`agent.yaml:2: hooks: unknown event "preToolcall" (want one of preGeneration, preToolCall, postToolCall, postGeneration, preAsk, postAsk) (did you mean "preToolCall"?)`},
		{"no command no wasm", "hooks:\n  preGeneration:\n    - timeout: 5s\n",
			`agent.yaml:3: hooks.preGeneration[0]: command must not be empty (or wasm: a module)`},
		{"blank command", "hooks:\n  postAsk:\n    - command: x\n    - command: '   '\n",
			`agent.yaml:4: hooks.postAsk[1]: command must not be empty (or wasm: a module)`},
		{"empty command", "hooks:\n  preAsk:\n    - command: \"\"\n",
			`agent.yaml:3: hooks.preAsk[0]: command must not be empty (or wasm: a module)`},
		{"both", "hooks:\n  preToolCall:\n    - command: x\n      wasm: guard.wasm\n",
			`agent.yaml:4: hooks.preToolCall[0]: give command or wasm, not both`},
		{"no module", "hooks:\n  postToolCall:\n    - wasm: hooks/missing.wasm\n",
			`agent.yaml:3: hooks.postToolCall[0]: wasm: no module at ` + filepath.Join(dir, "hooks/missing.wasm")},
		{"module is a folder", "hooks:\n  postToolCall:\n    - wasm: folder.wasm\n",
			`agent.yaml:3: hooks.postToolCall[0]: wasm: no module at ` + filepath.Join(dir, "folder.wasm")},
		{"read on a command", "hooks:\n  postToolCall:\n    - command: x\n      read: [src]\n",
			`agent.yaml:4: hooks.postToolCall[0]: read and write only apply to a wasm hook — remove them, or give wasm: a module`},
		{"write on a command", "hooks:\n  postToolCall:\n    - command: x\n      write: [logs]\n",
			`agent.yaml:4: hooks.postToolCall[0]: read and write only apply to a wasm hook — remove them, or give wasm: a module`},
		{"absolute folder", "hooks:\n  postToolCall:\n    - wasm: guard.wasm\n      read: [/etc]\n",
			`agent.yaml:4: hooks.postToolCall[0]: folder "/etc" must be relative to the working directory`},
		{"dot folder", "hooks:\n  postToolCall:\n    - wasm: guard.wasm\n      read: [.]\n",
			`agent.yaml:4: hooks.postToolCall[0]: folder "." must be a folder inside the working directory, not it or above it`},
		{"dotdot folder", "hooks:\n  postToolCall:\n    - wasm: guard.wasm\n      write: [..]\n",
			`agent.yaml:4: hooks.postToolCall[0]: folder ".." must be a folder inside the working directory, not it or above it`},
		{"folder leading above", "hooks:\n  postToolCall:\n    - wasm: guard.wasm\n      write: [logs/../../etc]\n",
			`agent.yaml:4: hooks.postToolCall[0]: folder "logs/../../etc" must be a folder inside the working directory, not it or above it`},
		{"folder back to the top", "hooks:\n  postToolCall:\n    - wasm: guard.wasm\n      read: [src/..]\n",
			`agent.yaml:4: hooks.postToolCall[0]: folder "src/.." must be a folder inside the working directory, not it or above it`},
		{"empty folder", "hooks:\n  postToolCall:\n    - wasm: guard.wasm\n      read: [\"\"]\n",
			`agent.yaml:4: hooks.postToolCall[0]: folder "" must be a folder inside the working directory, not it or above it`},
		{"folder twice in read", "hooks:\n  postToolCall:\n    - wasm: guard.wasm\n      read: [src, src]\n",
			`agent.yaml:4: hooks.postToolCall[0]: folder "src" is given twice`},
		{"folder in read and write", "hooks:\n  postToolCall:\n    - wasm: guard.wasm\n      read: [logs]\n      write: [./logs/]\n",
			`agent.yaml:5: hooks.postToolCall[0]: folder "./logs/" is given twice`},
		{"matcher on preGeneration", "hooks:\n  preGeneration:\n    - command: x\n      matcher: bash\n",
			`agent.yaml:4: hooks.preGeneration[0]: matcher is only for preToolCall, postToolCall, preAsk and postAsk`},
		{"matcher on postGeneration", "hooks:\n  postGeneration:\n    - command: x\n      matcher: bash\n",
			`agent.yaml:4: hooks.postGeneration[0]: matcher is only for preToolCall, postToolCall, preAsk and postAsk`},
		{"bad matcher", "hooks:\n  preToolCall:\n    - command: x\n      matcher: (bash\n",
			"agent.yaml:4: hooks.preToolCall[0]: matcher: error parsing regexp: missing closing ): `(bash`"},
		{"negative timeout", "hooks:\n  preAsk:\n    - command: x\n      timeout: -1s\n",
			`agent.yaml:4: hooks.preAsk[0]: timeout must be >= 0`},
		{"negative bare timeout", "hooks:\n  preAsk:\n    - command: x\n      timeout: -3\n",
			`agent.yaml:4: hooks.preAsk[0]: timeout must be >= 0`},
		{"bad onError", "hooks:\n  postAsk:\n    - command: x\n      onError: panic\n",
			`agent.yaml:4: hooks.postAsk[0]: onError must be "fail", "warn" or "ignore"`},
		// Beyond the reference's table: a typo never passes silently.
		{"unknown key", "hooks:\n  postAsk:\n    - command: x\n      onerror: fail\n",
			`agent.yaml:4: hooks.postAsk[0]: unknown key "onerror" (did you mean "onError"?)`},
		{"timeout not a duration", "hooks:\n  postAsk:\n    - command: x\n      timeout: soon\n",
			`agent.yaml:4: hooks.postAsk[0]: timeout: "soon" is not a duration (write it like 5s or 1m)`},
		{"event twice", "hooks:\n  preAsk:\n    - command: x\n  preAsk:\n    - command: y\n",
			`agent.yaml:4: hooks: event "preAsk" is given twice (one list per event)`},
		{"event not a list", "hooks:\n  preAsk: x\n",
			`agent.yaml:2: hooks.preAsk: must be a list of hooks`},
		{"entry not a map", "hooks:\n  preAsk:\n    - x\n",
			`agent.yaml:3: hooks.preAsk[0]: must be a map with command or wasm`},
		{"hooks not a map", "hooks: [x]\n",
			`agent.yaml:1: hooks: must be a map of events to lists of hooks`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadConfig(t, dir, tt.src)
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if got := strictyaml.Located("agent.yaml", err); got != tt.want {
				t.Errorf("error\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestValidConfig(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "audit.wasm"), []byte("\x00asm"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfig(t, dir, `
hooks:
  preGeneration:
    - command: node "$MM_CONFIG_DIR/hooks/no-secrets.js"
      timeout: 5s
      onError: fail
    - command: |
        ./a.sh
        ./b.sh
  preToolCall:
    - matcher: ^(bash|write_file|edit_file)$
      command: ./hooks/guard.sh
      timeout: 0
  postToolCall:
    - wasm: ./audit.wasm
      read: [src/]
      write: [logs]
      onError: ignore
      timeout: 2
  postGeneration:
  preAsk: []
`)
	if err != nil {
		t.Fatal(err)
	}
	pre := cfg.Entries(PreGeneration)
	if len(pre) != 2 {
		t.Fatalf("%d preGeneration entries, want 2", len(pre))
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"timeout", pre[0].Timeout, 5 * time.Second},
		{"onError", pre[0].OnError, "fail"},
		{"default onError", pre[1].OnError, "warn"},
		{"default timeout", pre[1].Timeout, 10 * time.Second},
		{"config dir", pre[0].ConfigDir, dir},
		{"label", pre[0].Label(), `node "$MM_CONFIG_DIR/hooks/no-secrets.js"`},
		{"label of several lines", pre[1].Label(), `./a.sh ./b.sh`},
		{"timeout 0", cfg.Entries(PreToolCall)[0].Timeout, 10 * time.Second},
		{"bare timeout", cfg.Entries(PostToolCall)[0].Timeout, 2 * time.Second},
		{"wasm path", cfg.Entries(PostToolCall)[0].Wasm, filepath.Join(dir, "audit.wasm")},
		{"wasm label", cfg.Entries(PostToolCall)[0].Label(), "audit.wasm"},
		{"read", cfg.Entries(PostToolCall)[0].Read, []string{"src"}},
		{"write", cfg.Entries(PostToolCall)[0].Write, []string{"logs"}},
		{"count", cfg.Count(), 4},
		{"summary", cfg.Summary(), "preGeneration×2 preToolCall×1 postToolCall×1"},
		{"matches bash", cfg.Entries(PreToolCall)[0].Matches("bash"), true},
		{"does not match my_bash", cfg.Entries(PreToolCall)[0].Matches("my_bash"), false},
		{"no postGeneration", len(cfg.Entries(PostGeneration)), 0},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s: got %#v, want %#v", c.name, c.got, c.want)
		}
	}
}

func TestUnanchoredMatcher(t *testing.T) {
	cfg, err := loadConfig(t, t.TempDir(), "hooks:\n  postAsk:\n    - command: x\n      matcher: bash\n")
	if err != nil {
		t.Fatal(err)
	}
	e := cfg.Entries(PostAsk)[0]
	for subject, want := range map[string]bool{"bash": true, "my_bash": true, "bas": false} {
		if got := e.Matches(subject); got != want {
			t.Errorf("Matches(%q) = %v, want %v", subject, got, want)
		}
	}
}

func TestNoHooksBlock(t *testing.T) {
	for _, src := range []string{"model: echo/x\n", "hooks:\n", "hooks: {}\n"} {
		cfg, err := loadConfig(t, t.TempDir(), src)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if cfg.Count() != 0 || cfg.Summary() != "" {
			t.Errorf("%q: %d hooks, summary %q", src, cfg.Count(), cfg.Summary())
		}
	}
}

func TestParseEvent(t *testing.T) {
	for _, ev := range Events {
		if got, err := ParseEvent(string(ev)); err != nil || got != ev {
			t.Errorf("ParseEvent(%q) = %q, %v", ev, got, err)
		}
	}
	_, err := ParseEvent("pretoolcall")
	want := `unknown event "pretoolcall" (want one of preGeneration, preToolCall, postToolCall, postGeneration, preAsk, postAsk) (did you mean "preToolCall"?)`
	if err == nil || err.Error() != want {
		t.Errorf("ParseEvent(pretoolcall) error %v, want %q", err, want)
	}
}

// TestAfterCancel: the time the hooks that outlive a cancelled turn may
// take is the sum of the postGeneration and postAsk timeouts, the default
// for an entry that gives none; the other events' hooks are cancelled with
// the turn and count for nothing.
func TestAfterCancel(t *testing.T) {
	tests := []struct {
		name, src string
		want      time.Duration
	}{
		{"no hooks", "hooks: {}\n", 0},
		{"cancelled with the turn", "hooks:\n  preGeneration:\n    - {command: a, timeout: 5s}\n" +
			"  preToolCall:\n    - {command: a}\n  postToolCall:\n    - {command: a}\n  preAsk:\n    - {command: a}\n", 0},
		{"post hooks", "hooks:\n  preGeneration:\n    - {command: a, timeout: 5s}\n" +
			"  postGeneration:\n    - {command: a}\n    - {command: b, timeout: 2s}\n  postAsk:\n    - {command: c, timeout: 1500ms}\n",
			DefaultTimeout + 3500*time.Millisecond},
	}
	for _, tt := range tests {
		cfg, err := loadConfig(t, t.TempDir(), tt.src)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := cfg.AfterCancel(); got != tt.want {
			t.Errorf("%s: AfterCancel() = %v, want %v", tt.name, got, tt.want)
		}
	}
}
