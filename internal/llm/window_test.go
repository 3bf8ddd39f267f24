package llm

import "testing"

func TestDefaultWindowFor(t *testing.T) {
	for ref, want := range map[string]int{"llamacpp/qwen3": 4096, "ollama/qwen3:8b": 4096, "openai/gpt-4o": 128000, "script/s.yaml": 4096} {
		if got := DefaultWindowFor(ref); got != want {
			t.Errorf("DefaultWindowFor(%q) = %d, want %d", ref, got, want)
		}
	}
}
