package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
)

// TakesToolsOn says whether Ollama at baseURL (its OpenAI-compatible API's
// root, …/v1) runs model with tool support, as POST /api/show lists the
// model's capabilities ("tools"); known is false when the server does not
// say (another kind of server, an older Ollama, no answer). It sends no
// API key: mm init asks local servers.
func TakesToolsOn(ctx context.Context, client *http.Client, baseURL, model string) (takes, known bool) {
	body, _ := json.Marshal(map[string]string{"model": model})
	root := strings.TrimSuffix(strings.TrimRight(baseURL, "/"), "/v1")
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, root+"/api/show", bytes.NewReader(body))
	if err != nil {
		return false, false
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return false, false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return false, false
	}
	var show struct {
		Capabilities []string `json:"capabilities"`
	}
	if json.NewDecoder(io.LimitReader(resp.Body, maxProbeBody)).Decode(&show) != nil || show.Capabilities == nil {
		return false, false
	}
	return slices.Contains(show.Capabilities, "tools"), true
}

// noToolSupport is, for a model on an Ollama server (by its kind, whatever
// the provider's name), the line saying the server runs it without tool
// support: mm then runs it without tools (notools.go), and the agent can
// only talk. nil where it has tool support, or the server does not say.
func (m *openAIModel) noToolSupport(ctx context.Context) error {
	if m.kind(ctx) != kindOllama {
		return nil
	}
	var show struct {
		Capabilities []string `json:"capabilities"`
	}
	body, _ := json.Marshal(map[string]string{"model": m.model})
	if m.probe(ctx, http.MethodPost, "/api/show", body, &show) != nil || show.Capabilities == nil || slices.Contains(show.Capabilities, "tools") {
		return nil
	}
	return fmt.Errorf("%s has no tool support on this server (its capabilities in POST /api/show lack tools): mm runs it without tools, and the agent can only answer; pick a model whose ollama show lists tools", quoteControl(m.model))
}
