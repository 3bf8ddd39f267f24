package openai

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/llamatest"
	"github.com/mm-agent/mm/internal/llm"
)

// TestCountPrompt: the server's count of a request's prompt, from the
// usage of the request sent with max_tokens 1; from llama.cpp's refusal
// of a request over its window, the count that refusal gives.
func TestCountPrompt(t *testing.T) {
	srv := llamatest.Start(llamatest.Options{NCtx: 100, Reply: func(llamatest.Request) llamatest.Reply { return llamatest.Reply{Content: "x"} }})
	defer srv.Close()
	m, err := New("llamacpp/test", Options{Providers: map[string]Provider{"llamacpp": {BaseURL: srv.URL}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		question string
		refused  bool
	}{
		{"hello", false},
		{strings.Repeat("long ", 100), true},
	} {
		req := llm.Request{Messages: []llm.Message{{Role: llm.RoleSystem, Content: "s"}, {Role: llm.RoleUser, Content: tc.question}}}
		n, err := m.(llm.PromptCounter).CountPrompt(context.Background(), req)
		stats := srv.Stats()
		last := stats[len(stats)-1]
		if err != nil || n != last.Tokens || last.Refused != tc.refused {
			t.Errorf("%.10q: count %d, %v; the server counted %+v", tc.question, n, err, last)
		}
		bodies := srv.Bodies()
		var body struct {
			MaxTokens int `json:"max_tokens"`
		}
		if json.Unmarshal(bodies[len(bodies)-1], &body); body.MaxTokens != 1 {
			t.Errorf("max_tokens %d, want 1", body.MaxTokens)
		}
	}
}
