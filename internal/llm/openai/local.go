package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
)

// LocalServer is a built-in provider served on this machine, at its
// default address.
type LocalServer struct {
	// Provider is the provider's name in a model reference (ollama).
	Provider string
	// BaseURL is its OpenAI-compatible API's root (http://localhost:11434/v1).
	BaseURL string
}

// LocalServers lists the built-in providers that are local servers —
// llmman, Ollama, llama.cpp and LM Studio — at their default ports, in the
// order mm init offers their models; Ollama where $OLLAMA_HOST says, when
// it says so well.
func LocalServers() []LocalServer {
	var servers []LocalServer
	for _, name := range []string{"llmman", "ollama", "llamacpp", "lmstudio"} {
		p, _, err := builtinProviderEnv(name, os.Getenv)
		if err != nil {
			p, _ = builtinProvider(name)
		}
		servers = append(servers, LocalServer{Provider: name, BaseURL: p.BaseURL})
	}
	return servers
}

// ListModels asks the server at baseURL, as mm init does, for its models
// (GET <baseURL>/models): their ids, in the server's order; an error for a
// server that lists none. It sends no API key: a local server needs none.
func ListModels(ctx context.Context, client *http.Client, baseURL string) ([]string, error) {
	return listModelIDs(ctx, client, baseURL, "")
}

// listModelIDs is ListModels sending key, when not "", as a bearer token.
func listModelIDs(ctx context.Context, client *http.Client, baseURL, key string) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(baseURL, "/")+"/models", nil)
	if err != nil {
		return nil, err
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /models: %s", resp.Status)
	}
	var body struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxModelList)).Decode(&body); err != nil {
		return nil, fmt.Errorf("GET /models: %w", err)
	}
	var ids []string
	for _, m := range body.Data {
		if id := strings.TrimSpace(m.ID); id != "" {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil, errors.New("GET /models: no model")
	}
	return ids, nil
}
