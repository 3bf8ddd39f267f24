package llm

import "strings"

// HandOffAdvice is, for an agent on model ref that asks other agents,
// what to set on its server so that a hand-off does not cost it its
// prompt cache; "" where mm knows of nothing to set. Ollama runs one slot
// a model by default, and with OLLAMA_NUM_PARALLEL=2 alone still gives
// the asked agent the slot with the longest common prefix — the asking
// agent's; its multi-user cache gives it the least recently used slot
// instead (measured: cmd/mm/cli TestRealOllamaHandOffCache). The server
// does not say how it runs, so the advice is given whenever it applies.
func HandOffAdvice(ref string) string {
	provider, _, _ := strings.Cut(ref, "/")
	if provider != "ollama" {
		return ""
	}
	return "ollama: a hand-off takes the asking agent's cache slot unless ollama serve runs with OLLAMA_NUM_PARALLEL=2 OLLAMA_MULTIUSER_CACHE=1 (and OLLAMA_NEW_ENGINE=1 for a model on its llama.cpp runner, whose multi-user cache aborts in Ollama 0.17)"
}
