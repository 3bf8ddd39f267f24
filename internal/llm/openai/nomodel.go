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

// missingModel turns Ollama's refusal of a model it does not have (HTTP
// 404 "model 'qwen3:8' not found") into a line that lists what it has
// (GET /api/tags), as mm init would offer them; err as it is otherwise,
// or when the list cannot be had.
func (m *openAIModel) missingModel(ctx context.Context, err error) error {
	e, ok := errors.AsType[*statusError](err)
	if m.provider != "ollama" || !ok || e.status != http.StatusNotFound || !strings.Contains(e.line, "not found") {
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
		return fmt.Errorf("%s: pull one with ollama pull <model>", hasNoModel("ollama", m.model, nil))
	}
	return errors.New(hasNoModel("ollama", m.model, names))
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
		quoted[i] = quoteControl(n)
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
