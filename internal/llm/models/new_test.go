package models

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/llm/builtin"
	"github.com/mm-agent/mm/internal/llm/openai"
)

// TestNew: each reference goes to its room — echo and script to
// internal/llm/builtin, every other provider to internal/llm/openai, whose own tests say
// what it makes of the reference — and a malformed one, or a bad
// providers: entry, fails whatever the model.
func TestNew(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "") // the default address, whatever the machine sets
	tests := []struct {
		ref       string
		providers map[string]openai.Provider
		// want is the model's type, for a model not built in.
		want    string
		echo    bool
		wantErr string
	}{
		{ref: "echo/x", echo: true},
		{ref: "echo/any/thing", echo: true},
		{ref: "ollama/qwen3:8b", want: "*openai.openAIModel"},
		{ref: "groq/x", providers: map[string]openai.Provider{"groq": {BaseURL: "https://api.groq.com/openai/v1"}}, want: "*openai.openAIModel"},

		{ref: "echo", wantErr: `model "echo": want <provider>/<model>, e.g. ollama/qwen3:8b`},
		{ref: "echo/", wantErr: `model "echo/": want <provider>/<model>, e.g. ollama/qwen3:8b`},
		{ref: "script/", wantErr: `model "script/": want <provider>/<model>, e.g. ollama/qwen3:8b`},
		{ref: "/echo", wantErr: `model "/echo": want <provider>/<model>, e.g. ollama/qwen3:8b`},
		{ref: "olama/qwen3:8b", wantErr: `model "olama/qwen3:8b": unknown provider "olama" (known: echo, llamacpp, llmman, lmstudio, ollama, openai, script) (did you mean "ollama"?)`},
		{
			ref:       "echo/x",
			providers: map[string]openai.Provider{"echo": {BaseURL: "http://localhost:1/v1"}},
			wantErr:   `providers: "echo" is built into mm and has no server to configure; remove its entry`,
		},
		{
			ref:       "echo/x",
			providers: map[string]openai.Provider{"mybox": {APIKeyEnv: "K"}},
			wantErr:   "providers.mybox: baseURL is empty; set it, e.g. http://localhost:8080/v1",
		},
		{
			ref:       "script/none.yaml",
			providers: map[string]openai.Provider{"script": {}},
			wantErr:   `providers: "script" is built into mm and has no server to configure; remove its entry`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			m, err := New(tt.ref, Options{Providers: tt.providers})
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error:\n got %v\nwant %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.echo {
				if m != builtin.Echo() {
					t.Fatalf("got %T, want the echo model", m)
				}
				return
			}
			if got := fmt.Sprintf("%T", m); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// TestNewScript: script/<file> is the file under the configuration's
// folder, or the file itself when its path is absolute; it is read and
// checked at once.
func TestNewScript(t *testing.T) {
	dir := t.TempDir()
	script := "rules:\n  - when: hello\n    say: Hello.\n"
	if err := os.WriteFile(filepath.Join(dir, "hello.yaml"), []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ ref, configDir string }{
		{"script/hello.yaml", dir},
		{"script/" + filepath.Base(dir) + "/hello.yaml", filepath.Dir(dir)},
		{"script/" + filepath.Join(dir, "hello.yaml"), "/nowhere"},
	} {
		m, err := New(tt.ref, Options{ConfigDir: tt.configDir})
		if err != nil {
			t.Errorf("%s in %q: %v", tt.ref, tt.configDir, err)
			continue
		}
		r, err := m.Stream(t.Context(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hello"}}}, nil)
		if err != nil || r.Content != "Hello." {
			t.Errorf("%s in %q: got %q, %v; want Hello.", tt.ref, tt.configDir, r.Content, err)
		}
	}
	_, err := New("script/missing.yaml", Options{ConfigDir: dir})
	if want := filepath.Join(dir, "missing.yaml") + ": cannot read: no such file or directory"; err == nil || err.Error() != want {
		t.Errorf("a missing script: got %v, want %s", err, want)
	}
}

func TestScriptPath(t *testing.T) {
	tests := []struct {
		name, configDir, want string
	}{
		{"once.yaml", "testdata/script", "testdata/script/once.yaml"},
		{"script/once.yaml", "testdata", "testdata/script/once.yaml"},
		{"testdata/script/once.yaml", "", "testdata/script/once.yaml"},
		{"/abs/once.yaml", "/nowhere", "/abs/once.yaml"},
	}
	for _, tt := range tests {
		if got := scriptPath(tt.name, tt.configDir); got != tt.want {
			t.Errorf("scriptPath(%q, %q) = %q, want %q", tt.name, tt.configDir, got, tt.want)
		}
	}
}

func BenchmarkNew(b *testing.B) {
	scripts := filepath.Join("..", "builtin", "testdata")
	for _, ref := range []string{"echo/x", "ollama/qwen3:8b", "script/script/fanout.yaml"} {
		b.Run(ref, func(b *testing.B) {
			for b.Loop() {
				if _, err := New(ref, Options{ConfigDir: scripts}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
