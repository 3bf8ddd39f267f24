package openai

import (
	"errors"
	"net/http"
	"strings"
)

// refusesTools says err is a server's refusal of the tools a request
// offered, the model having no tool support there: Ollama's HTTP 400
// "…/tiny:latest does not support tools", for a model whose template has
// no tools section; llama.cpp's "tools param requires --jinja flag".
func refusesTools(err error) bool {
	e, ok := errors.AsType[*statusError](err)
	if !ok || e.status != http.StatusBadRequest && e.status != http.StatusInternalServerError {
		return false
	}
	return strings.Contains(e.line, "does not support tools") || strings.Contains(e.line, "requires --jinja")
}

// noToolsLine is the notice, said once per model, that the tools are no
// longer offered to it.
func noToolsLine(model string) string {
	return quoteControl(model) + " has no tool support on this server: running without tools"
}

// dropTools notes that the model takes no tools, and says so once.
func (m *openAIModel) dropTools() {
	if m.noTools.CompareAndSwap(false, true) {
		m.notify(noToolsLine(m.model))
	}
}

// TakesTools is false once the server has refused the model's tools.
func (m *openAIModel) TakesTools() bool { return !m.noTools.Load() }

// ReadsToolSpecs is false once the server has refused the model's tools:
// they are not sent any more, so describing them is wasted work.
func (m *openAIModel) ReadsToolSpecs() bool { return !m.noTools.Load() }
