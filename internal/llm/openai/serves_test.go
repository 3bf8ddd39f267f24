package openai

import "testing"

// TestNoSuchModelError: mm check's line and a run's refusal are one line
// of one shape: the server's models quoted (a name is the server's text),
// the closest to the name first; Ollama's says how to fetch the model.
func TestNoSuchModelError(t *testing.T) {
	tests := []struct {
		e    NoSuchModelError
		want string
	}{
		{NoSuchModelError{Provider: "ollama", Model: "qwen3:8", Has: []string{"tiny:latest", "qwen3:8b"}},
			`ollama has no model "qwen3:8", it has: qwen3:8b, tiny:latest; fetch it with: ollama pull qwen3:8`},
		{NoSuchModelError{Provider: "lmstudio", Model: "x", Has: []string{"a\x1b[2Jb"}},
			`lmstudio has no model "x", it has: a\x1b[2Jb`},
		{NoSuchModelError{Provider: "lmstudio", Model: "x"}, `lmstudio has no model "x", and no model at all`},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("Error()\n got %q\nwant %q", got, tt.want)
		}
	}
}
