package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"

	"github.com/mm-agent/mm/internal/llm"
)

// maxModelList bounds what is read of a server's list of models.
const maxModelList = 1 << 20

// CheckServes says whether m's server answers and has m's model, by asking
// it for its models (GET <baseURL>/models): nil when it does; an error
// naming the server, the model and how to start the server or fetch the
// model when it does not, or when an Ollama runs it without tool support.
// A model without a server (echo, script) and a server that names no model
// of its own (llama.cpp serves the file it was started with under any
// name) have nothing to check beyond the answer. The kind of server is
// what it answers (kind.go), whatever the provider's name.
func CheckServes(ctx context.Context, m llm.Model) error {
	om, ok := m.(*openAIModel)
	if !ok {
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, om.baseURL+"/models", nil)
	if err != nil {
		return fmt.Errorf("%s: %w", om.provider, err)
	}
	if om.apiKeyEnv != "" {
		key := om.getenv(om.apiKeyEnv)
		if key == "" {
			return fmt.Errorf("%s: no API key: set %s", om.provider, om.apiKeyEnv)
		}
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := om.client.Do(req)
	if err != nil {
		var te *unreachableError
		if errors.As(transportError(om.provider, om.baseURL, err), &te) {
			return te
		}
		return fmt.Errorf("%s at %s does not answer (%v): %s", om.provider, om.baseURL, err, startHint(om.provider, om.baseURL))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s at %s: GET /models: %s", om.provider, om.baseURL, resp.Status)
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxModelList)).Decode(&list); err != nil {
		return fmt.Errorf("%s at %s: GET /models: %v", om.provider, om.baseURL, err)
	}
	kind := om.kind(ctx)
	if kind == kindLlamaCpp {
		return nil
	}
	ids := make([]string, 0, len(list.Data))
	for _, d := range list.Data {
		ids = append(ids, d.ID)
	}
	if slices.Contains(ids, om.model) || kind == kindOllama && slices.Contains(ids, om.model+":latest") {
		return om.noToolSupport(ctx)
	}
	return &NoSuchModelError{Provider: om.provider, Model: om.model, Has: ids, Ollama: kind == kindOllama}
}

// NoSuchModelError is a server that does not have the model asked for.
type NoSuchModelError struct {
	Provider, Model string
	// Has are the server's models, in its order.
	Has []string
	// Ollama says the server is an Ollama, which can fetch the model.
	Ollama bool
}

// Error names what the server has, as a run's refusal does (hasNoModel),
// and how to fetch the model where the server can.
func (e *NoSuchModelError) Error() string {
	msg := hasNoModel(e.Provider, e.Model, e.Has)
	if e.Ollama || e.Provider == "ollama" {
		msg += "; fetch it with: ollama pull " + e.Model
	}
	return msg
}
