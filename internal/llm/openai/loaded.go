package openai

import (
	"context"
	"fmt"
	"net/http"
)

// Loaded says whether Ollama has the model loaded (GET /api/ps lists it);
// other servers do not say (llama.cpp answers 503 while it loads, which
// is retried and told).
func (m *openAIModel) Loaded(ctx context.Context) (bool, error) {
	if m.kind(ctx) != kindOllama {
		return false, fmt.Errorf("%s: the server does not say whether the model is loaded", m.provider)
	}
	var ps struct {
		Models []struct {
			Name  string `json:"name"`
			Model string `json:"model"`
		} `json:"models"`
	}
	if err := m.probe(ctx, http.MethodGet, "/api/ps", nil, &ps); err != nil {
		return false, err
	}
	for _, l := range ps.Models {
		if l.Name == m.model || l.Model == m.model || l.Name == m.model+":latest" {
			return true, nil
		}
	}
	return false, nil
}
