package openai

import (
	"testing"
	"time"
)

func TestNew(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "") // the default address, whatever the machine sets
	tests := []struct {
		ref       string
		providers map[string]Provider
		// For an OpenAI-compatible model: what it talks to.
		provider, model, baseURL, apiKeyEnv string
		wantErr                             string
	}{
		{ref: "ollama/qwen3:8b", provider: "ollama", model: "qwen3:8b", baseURL: "http://localhost:11434/v1"},
		{ref: "llmman/qwen3-8b", provider: "llmman", model: "qwen3-8b", baseURL: "http://localhost:17434/v1"},
		{ref: "llamacpp/unsloth/Qwen3-8B-GGUF", provider: "llamacpp", model: "unsloth/Qwen3-8B-GGUF", baseURL: "http://localhost:8080/v1"},
		{ref: "lmstudio/qwen/qwen3-8b", provider: "lmstudio", model: "qwen/qwen3-8b", baseURL: "http://localhost:1234/v1"},
		{ref: "openai/gpt-4o-mini", provider: "openai", model: "gpt-4o-mini", baseURL: "https://api.openai.com/v1", apiKeyEnv: "OPENAI_API_KEY"},
		{
			ref:       "ollama/qwen3:8b",
			providers: map[string]Provider{"ollama": {BaseURL: "http://gpu.lan:11434/v1/"}},
			provider:  "ollama", model: "qwen3:8b", baseURL: "http://gpu.lan:11434/v1",
		},
		{
			ref:       "openai/gpt-4o",
			providers: map[string]Provider{"openai": {BaseURL: "https://proxy.example/v1"}},
			provider:  "openai", model: "gpt-4o", baseURL: "https://proxy.example/v1", apiKeyEnv: "OPENAI_API_KEY",
		},
		{
			ref:       "openai/gpt-4o",
			providers: map[string]Provider{"openai": {APIKeyEnv: "MY_KEY"}},
			provider:  "openai", model: "gpt-4o", baseURL: "https://api.openai.com/v1", apiKeyEnv: "MY_KEY",
		},
		{
			ref:       "groq/llama-3.3-70b",
			providers: map[string]Provider{"groq": {BaseURL: "https://api.groq.com/openai/v1", APIKeyEnv: "GROQ_API_KEY"}},
			provider:  "groq", model: "llama-3.3-70b", baseURL: "https://api.groq.com/openai/v1", apiKeyEnv: "GROQ_API_KEY",
		},

		{ref: "echo/x", wantErr: `model "echo/x": echo is built into mm and has no server: internal/llm/models makes it`},
		{ref: "script/s.yaml", wantErr: `model "script/s.yaml": script is built into mm and has no server: internal/llm/models makes it`},
		{ref: "gpt4", wantErr: `model "gpt4": want <provider>/<model>, e.g. ollama/qwen3:8b`},
		{ref: "", wantErr: `model "": want <provider>/<model>, e.g. ollama/qwen3:8b`},
		{ref: "/qwen3", wantErr: `model "/qwen3": want <provider>/<model>, e.g. ollama/qwen3:8b`},
		{ref: "ollama/", wantErr: `model "ollama/": want <provider>/<model>, e.g. ollama/qwen3:8b`},
		{ref: "echo/", wantErr: `model "echo/": want <provider>/<model>, e.g. ollama/qwen3:8b`},
		{ref: "olama/qwen3:8b", wantErr: `model "olama/qwen3:8b": unknown provider "olama" (known: echo, llamacpp, llmman, lmstudio, ollama, openai, script) (did you mean "ollama"?)`},
		{
			ref:       "gorq/x",
			providers: map[string]Provider{"groq": {BaseURL: "https://api.groq.com/openai/v1"}, "ollama": {BaseURL: "http://gpu:11434/v1"}},
			wantErr:   `model "gorq/x": unknown provider "gorq" (known: echo, groq, llamacpp, llmman, lmstudio, ollama, openai, script) (did you mean "groq"?)`,
		},
		{
			ref:       "echo/x",
			providers: map[string]Provider{"echo": {BaseURL: "http://localhost:1/v1"}},
			wantErr:   `providers: "echo" is built into mm and has no server to configure; remove its entry`,
		},
		{
			ref:       "ollama/x",
			providers: map[string]Provider{"mybox": {APIKeyEnv: "K"}},
			wantErr:   "providers.mybox: baseURL is empty; set it, e.g. http://localhost:8080/v1",
		},
		{
			ref:       "mybox/x",
			providers: map[string]Provider{"mybox": {BaseURL: "localhost:8080/v1"}},
			wantErr:   `providers.mybox: baseURL "localhost:8080/v1": want an http:// or https:// URL, e.g. http://localhost:8080/v1`,
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
			o, ok := m.(*openAIModel)
			if !ok {
				t.Fatalf("got %T, want an OpenAI-compatible model", m)
			}
			got := [4]string{o.provider, o.model, o.baseURL, o.apiKeyEnv}
			want := [4]string{tt.provider, tt.model, tt.baseURL, tt.apiKeyEnv}
			if got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}

func TestIdleTimeoutOption(t *testing.T) {
	tests := []struct {
		ref       string
		providers map[string]Provider
		baseURL   string
		idle      time.Duration
		wantErr   string
	}{
		{ref: "ollama/m", baseURL: "http://localhost:11434/v1", idle: DefaultIdleTimeout},
		{
			ref:       "ollama/m",
			providers: map[string]Provider{"ollama": {IdleTimeout: 20 * time.Minute}},
			baseURL:   "http://localhost:11434/v1", idle: 20 * time.Minute,
		},
		{
			ref:       "gpu/m",
			providers: map[string]Provider{"gpu": {BaseURL: "http://gpu.lan:8080/v1", IdleTimeout: 90 * time.Second}},
			baseURL:   "http://gpu.lan:8080/v1", idle: 90 * time.Second,
		},
		{
			ref:       "ollama/m",
			providers: map[string]Provider{"ollama": {IdleTimeout: -time.Second}},
			wantErr:   "providers.ollama: idleTimeout -1s: want a positive duration like 90s or 10m",
		},
	}
	for _, tt := range tests {
		m, err := New(tt.ref, Options{Providers: tt.providers})
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("%s: got %v, want %s", tt.ref, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		o := m.(*openAIModel)
		if o.baseURL != tt.baseURL || o.idle != tt.idle {
			t.Errorf("%s %v: got %s %v, want %s %v", tt.ref, tt.providers, o.baseURL, o.idle, tt.baseURL, tt.idle)
		}
	}
}
