package openai

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
)

// TestRealOllamaUnderAnotherName: a real Ollama, named "box" in the
// configuration's providers, is read as the ollama provider is, by what it
// answers: its window (num_ctx 1024), a missing model with its list and
// the pull, a model without tool support, the hand-off advice.
func TestRealOllamaUnderAnotherName(t *testing.T) {
	s := realOllama(t)
	ctx := context.Background()
	model := func(name string) llm.Model {
		m, err := New("box/"+name, Options{Providers: map[string]Provider{"box": {BaseURL: s.URL + "/v1"}}})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	if n, err := model("tiny-tools").(llm.WindowReader).ContextWindow(ctx); n != 1024 || err != nil {
		t.Errorf("window %d, %v; want 1024", n, err)
	}
	if err := CheckServes(ctx, model("tiny-tools")); err != nil {
		t.Errorf("a model it has, with tools: %v", err)
	}
	if err := CheckServes(ctx, model("tiny")); err == nil || !strings.HasPrefix(err.Error(), "tiny has no tool support on this server") {
		t.Errorf("a model without tools: %v", err)
	}
	if err := CheckServes(ctx, model("nope")); err == nil || !strings.HasPrefix(err.Error(), `box has no model "nope", it has: `) || !strings.HasSuffix(err.Error(), "; fetch it with: ollama pull nope") {
		t.Errorf("a model it lacks: %v", err)
	}
	_, err := model("nope").Stream(ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), `box has no model "nope", it has: `) || !strings.Contains(err.Error(), "tiny-tools:latest") {
		t.Errorf("a run on a model it lacks: %v", err)
	}
	for name, want := range map[string]bool{"tiny": false, "tiny-tools": true, "tiny-tools:latest": true} {
		if takes, known := TakesToolsOn(ctx, http.DefaultClient, s.URL+"/v1", name); takes != want || !known {
			t.Errorf("mm init's question of %s's tools: %v, %v; want %v, known", name, takes, known, want)
		}
	}
	if got := HandOffAdvice(ctx, "box/tiny", model("tiny")); !strings.HasPrefix(got, "box: a hand-off takes the asking agent's cache slot unless ollama serve runs with") {
		t.Errorf("hand-off advice %q", got)
	}
}
