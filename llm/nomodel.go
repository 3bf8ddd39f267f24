package llm

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
		names = append(names, quoteControl(t.Name))
	}
	slices.Sort(names)
	// The ones nearest the name asked for first: the likely typo's fix.
	names = suggest.ByCloseness(m.model, names)
	if len(names) == 0 {
		return fmt.Errorf("ollama has no model %q, and no model at all: pull one with ollama pull <model>", m.model)
	}
	more := ""
	if len(names) > maxListed {
		more = fmt.Sprintf(" and %d more (ollama list)", len(names)-maxListed)
		names = names[:maxListed]
	}
	return fmt.Errorf("ollama has no model %q, it has: %s%s", m.model, strings.Join(names, ", "), more)
}
