package openai

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/mm-agent/mm/internal/suggest"
)

// maxListed bounds the models named when the one asked for is missing.
const maxListed = 20

// missingModel turns a server's refusal of a model it does not have
// (Ollama's HTTP 404 "model 'qwen3:8' not found", vLLM's "The model `x`
// does not exist") into a line that lists what it has, as mm init would
// offer them: an Ollama's GET /api/tags, any other server's GET /models.
// The kind of server is what it answers (kind.go), whatever the
// provider's name. err as it is otherwise: another refusal, a list that
// cannot be had or that has the model.
func (m *openAIModel) missingModel(ctx context.Context, err error) error {
	e, ok := errors.AsType[*statusError](err)
	if !ok || !refusesModel(e) {
		return err
	}
	switch m.kind(ctx) {
	case kindLlamaCpp:
		return err // it serves its one model under any name
	case kindOllama:
		if e.status != http.StatusNotFound || !strings.Contains(e.line, "not found") {
			return err
		}
		var tags struct {
			Models []struct {
				Name string `json:"name"`
			} `json:"models"`
		}
		if m.probe(ctx, http.MethodGet, "/api/tags", nil, &tags) != nil {
			return err
		}
		var names []string
		for _, t := range tags.Models {
			names = append(names, t.Name)
		}
		if len(names) == 0 {
			return fmt.Errorf("%s: pull one with ollama pull <model>", hasNoModel(m.provider, m.model, nil))
		}
		return errors.New(hasNoModel(m.provider, m.model, names))
	}
	key := ""
	if m.apiKeyEnv != "" {
		key = m.getenv(m.apiKeyEnv)
	}
	ids, lerr := listModelIDs(ctx, m.client, m.baseURL, key)
	if lerr != nil || slices.Contains(ids, m.model) {
		return err
	}
	return errors.New(hasNoModel(m.provider, m.model, ids))
}

// refusesModel says a server's refusal is of the model asked for: HTTP
// 404, or a 400 or 422 whose message says a model is not found or does
// not exist.
func refusesModel(e *statusError) bool {
	if e.status == http.StatusNotFound {
		return true
	}
	line := strings.ToLower(e.line)
	return (e.status == http.StatusBadRequest || e.status == http.StatusUnprocessableEntity) &&
		strings.Contains(line, "model") && (strings.Contains(line, "not found") || strings.Contains(line, "does not exist"))
}

// hasNoModel is the line for a server (named by its provider) that does
// not have model: the models it has, quoted, the closest to the name
// first, at most maxListed of them.
func hasNoModel(provider, model string, names []string) string {
	if len(names) == 0 {
		return fmt.Sprintf("%s has no model %q, and no model at all", provider, model)
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = visibleName(n)
	}
	slices.Sort(quoted)
	// The ones nearest the name asked for first: the likely typo's fix.
	quoted = suggest.ByCloseness(model, quoted)
	more := ""
	if len(quoted) > maxListed {
		more = fmt.Sprintf(" and %d more (%s list)", len(quoted)-maxListed, provider)
		quoted = quoted[:maxListed]
	}
	return fmt.Sprintf("%s has no model %q, it has: %s%s", provider, model, strings.Join(quoted, ", "), more)
}
