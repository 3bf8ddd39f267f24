package suggest

import (
	"slices"
	"testing"
)

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "ab", 2}, {"tool", "tools", 1},
		{"modle", "model", 1}, {"kitten", "sitting", 3}, {"é", "e", 1},
	}
	for _, tt := range tests {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	tests := []struct {
		word  string
		known []string
		want  string
	}{
		{"expret", []string{"gemini", "expert"}, ` (did you mean "expert"?)`},
		{"preToolcall", []string{"preGeneration", "preToolCall", "postToolCall"}, ` (did you mean "preToolCall"?)`},
		{"olama", []string{"echo", "llamacpp", "ollama"}, ` (did you mean "ollama"?)`},
		{"comit", []string{"commit", "release-notes"}, ` (did you mean "commit"?)`},
		{"x", []string{"xy"}, ""},
		{"faraway", []string{"expert"}, ""},
		{"expert", []string{"expert"}, ""},
	}
	for _, tt := range tests {
		if got := DidYouMean(tt.word, tt.known); got != tt.want {
			t.Errorf("DidYouMean(%q, %q) = %q, want %q", tt.word, tt.known, got, tt.want)
		}
	}
}

func TestByCloseness(t *testing.T) {
	got := ByCloseness("qwen3:8", []string{"llama3.2:1b", "qwen3:8b", "qwen2.5:7b", "tiny:latest"})
	want := []string{"qwen3:8b", "qwen2.5:7b", "llama3.2:1b", "tiny:latest"}
	if !slices.Equal(got, want) {
		t.Errorf("ByCloseness = %q, want %q", got, want)
	}
}
