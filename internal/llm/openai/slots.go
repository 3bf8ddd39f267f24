package openai

import (
	"context"
	"fmt"
	"strings"

	"github.com/mm-agent/mm/internal/llm"
)

// HandOffAdvice is, for an agent on model m (ref) that asks other agents,
// what to set on its server so that a hand-off does not cost it its
// prompt cache; "" where mm knows of nothing to set.
//
// Ollama runs one slot a model by default, and with OLLAMA_NUM_PARALLEL=2
// alone still gives the asked agent the slot with the longest common
// prefix — the asking agent's; its multi-user cache gives it the least
// recently used slot instead (measured: cmd/mm/cli
// TestRealOllamaHandOffCache). Ollama does not say how it runs, so that
// advice is given whenever it applies.
//
// llama.cpp's llama-server says its slots in GET /props: with two or more
// mm gives each agent of a chain its own (idSlot), and there is nothing to
// set; with one, every agent's request takes it (cmd/mm/cli
// TestLlamaCppHandOffCache). A llamacpp server that does not answer gets
// the advice as a condition.
func HandOffAdvice(ctx context.Context, ref string, m llm.Model) string {
	provider, _, _ := strings.Cut(ref, "/")
	o, ok := m.(*openAIModel)
	if ok && o.kind(ctx) == kindOllama {
		return provider + ": a hand-off takes the asking agent's cache slot unless ollama serve runs with OLLAMA_NUM_PARALLEL=2 OLLAMA_MULTIUSER_CACHE=1 (and OLLAMA_NEW_ENGINE=1 for a model on its llama.cpp runner, whose multi-user cache aborts in Ollama 0.17)"
	}
	if !ok || o.kind(ctx) == kindLMStudio || o.kind(ctx) == kindOpenAI {
		return ""
	}
	props, err := o.llamaProps(ctx)
	switch {
	case err == nil && props.TotalSlots == 1:
		return fmt.Sprintf("%s: a hand-off takes the asking agent's cache slot: llama-server at %s runs one slot; start it with --parallel 2 (or more), and mm gives each agent of a chain a slot of its own", provider, o.serverRoot())
	case err != nil && provider == "llamacpp":
		return "llamacpp: a hand-off takes the asking agent's cache slot unless llama-server runs two slots or more (--parallel 2; recent builds run 4 by default): mm gives each agent of a chain a slot of its own"
	}
	return ""
}
