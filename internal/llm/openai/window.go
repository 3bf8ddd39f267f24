package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mm-agent/mm/internal/llm"
)

// windowProbeTimeout bounds one question to the server about its window:
// the servers answer it from memory, at once, even while busy writing.
const windowProbeTimeout = 3 * time.Second

// maxProbeBody bounds the answer read: /props holds the chat template
// (tens of kilobytes), /api/show a model's license and metadata.
const maxProbeBody = 4 << 20

// ContextWindow asks the server for the model's window, the way its kind
// of server says it: llama.cpp's GET /props, Ollama's POST /api/show, LM
// Studio's GET /api/v0/models, by the kind of server (kind.go: a provider
// of another name pointing at one of them is read as it is). For a server
// of no known kind each is tried in turn; OpenAI's API does not say.
func (m *openAIModel) ContextWindow(ctx context.Context) (int, error) {
	var probes []func(context.Context) (int, error)
	switch m.kind(ctx) {
	case kindOpenAI:
		return 0, errors.New("openai: the API does not say a model's context window")
	case kindLlamaCpp:
		probes = append(probes, m.llamaCppWindow)
	case kindOllama:
		probes = append(probes, m.ollamaWindow)
	case kindLMStudio:
		probes = append(probes, m.lmStudioWindow)
	default:
		probes = append(probes, m.llamaCppWindow, m.lmStudioWindow, m.ollamaWindow)
	}
	var errs []error
	for _, probe := range probes {
		n, err := probe(ctx)
		if err == nil && n > 0 {
			return n, nil
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return 0, errors.Join(errs...)
}

// serverRoot is the server's address without the API's /v1.
func (m *openAIModel) serverRoot() string {
	return strings.TrimSuffix(m.baseURL, "/v1")
}

// llamaCppWindow reads default_generation_settings.n_ctx from GET /props:
// the window of one slot, which is what one request may fill.
func (m *openAIModel) llamaCppWindow(ctx context.Context) (int, error) {
	props, err := m.llamaProps(ctx)
	if err != nil {
		return 0, err
	}
	if props.Default.NCtx <= 0 {
		return 0, fmt.Errorf("%s: GET /props gives no default_generation_settings.n_ctx", m.provider)
	}
	return props.Default.NCtx, nil
}

// ollamaNumCtx is the num_ctx Ollama runs a model with when neither its
// Modelfile nor the request sets one (OLLAMA_CONTEXT_LENGTH may raise it;
// the API does not say so, and a smaller window is the safe guess).
const ollamaNumCtx = 4096

// ollamaWindow reads, for a model Ollama has loaded, its context_length
// in GET /api/ps: the window it runs with, whatever set it
// (OLLAMA_CONTEXT_LENGTH included). Otherwise POST /api/show: the model's
// own context length (model_info's <architecture>.context_length) and the
// num_ctx in effect (its parameters, else Ollama's default): the smaller
// governs.
func (m *openAIModel) ollamaWindow(ctx context.Context) (int, error) {
	var ps struct {
		Models []struct {
			Name          string `json:"name"`
			Model         string `json:"model"`
			ContextLength int    `json:"context_length"`
		} `json:"models"`
	}
	if m.probe(ctx, http.MethodGet, "/api/ps", nil, &ps) == nil {
		for _, l := range ps.Models {
			if l.Name != m.model && l.Model != m.model && l.Name != m.model+":latest" {
				continue
			}
			if n := m.inRange("GET /api/ps", "context_length", l.ContextLength, maxWindow, windowThen); n > 0 {
				return n, nil
			}
		}
	}
	var show struct {
		Parameters string                     `json:"parameters"`
		ModelInfo  map[string]json.RawMessage `json:"model_info"`
	}
	body, _ := json.Marshal(map[string]string{"model": m.model})
	if err := m.probe(ctx, http.MethodPost, "/api/show", body, &show); err != nil {
		return 0, err
	}
	numCtx := ollamaNumCtx
	for _, line := range strings.Split(show.Parameters, "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "num_ctx" {
			if n, err := strconv.Atoi(f[1]); err == nil && m.inRange("POST /api/show", "num_ctx", n, maxWindow, windowThen) > 0 {
				numCtx = n
			}
		}
	}
	var arch string
	_ = json.Unmarshal(show.ModelInfo["general.architecture"], &arch)
	var trained int
	if json.Unmarshal(show.ModelInfo[arch+".context_length"], &trained) == nil {
		trained = m.inRange("POST /api/show", "model_info."+arch+".context_length", trained, maxWindow, windowThen)
	}
	if trained > 0 && trained < numCtx {
		return trained, nil
	}
	if show.ModelInfo == nil && show.Parameters == "" {
		return 0, fmt.Errorf("%s: POST /api/show gives neither model_info nor parameters", m.provider)
	}
	return numCtx, nil
}

// lmStudioWindow reads GET /api/v0/models: the loaded_context_length of
// the model, once it is loaded (before, LM Studio has not chosen one).
func (m *openAIModel) lmStudioWindow(ctx context.Context) (int, error) {
	var list struct {
		Data []struct {
			ID     string `json:"id"`
			State  string `json:"state"`
			Loaded int    `json:"loaded_context_length"`
		} `json:"data"`
	}
	if err := m.probe(ctx, http.MethodGet, "/api/v0/models", nil, &list); err != nil {
		return 0, err
	}
	for _, d := range list.Data {
		if d.ID != m.model {
			continue
		}
		if n := m.inRange("GET /api/v0/models", "loaded_context_length", d.Loaded, maxWindow, windowThen); n > 0 {
			return n, nil
		}
	}
	return 0, fmt.Errorf("%s: GET /api/v0/models gives no loaded_context_length for %s (not loaded yet?)", m.provider, m.model)
}

// probe makes one request to the server's own API and decodes its JSON.
func (m *openAIModel) probe(ctx context.Context, method, path string, body []byte, v any) error {
	ctx, cancel := context.WithTimeout(ctx, windowProbeTimeout)
	defer cancel()
	var in io.Reader
	if body != nil {
		in = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, m.serverRoot()+path, in)
	if err != nil {
		return fmt.Errorf("%s: %s %s: %w", m.provider, method, path, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if m.apiKeyEnv != "" {
		if key := m.getenv(m.apiKeyEnv); key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
	}
	resp, err := m.client.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %s %s: %w", m.provider, method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxProbeBody))
	if err != nil {
		return fmt.Errorf("%s: %s %s: %w", m.provider, method, path, err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s %s: HTTP %d", m.provider, method, path, resp.StatusCode)
	}
	if err := json.Unmarshal(b, v); err != nil {
		if field, problem, ok := notWhole(err); ok {
			// The other fields are read; this one is as if not sent.
			m.badNumber(method+" "+path, field, problem, "mm goes on without it")
			return nil
		}
		return fmt.Errorf("%s: %s %s: not the JSON expected: %v", m.provider, method, path, err)
	}
	return nil
}

// contextTooLong recognises, in an error body (the whole body or the
// "error" value inside it), a refusal for a request over the window:
// llama.cpp's exceed_context_size_error, OpenAI's context_length_exceeded,
// or a message that says so in the words of LM Studio, vLLM or OpenAI.
func contextTooLong(provider, line string, body []byte) *llm.ContextTooLongError {
	var v struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &v) == nil && len(v.Error) > 0 {
		body = v.Error
	}
	var e struct {
		Type         string          `json:"type"`
		Code         json.RawMessage `json:"code"`
		Message      string          `json:"message"`
		PromptTokens int             `json:"n_prompt_tokens"`
		NCtx         int             `json:"n_ctx"`
	}
	if json.Unmarshal(body, &e) != nil {
		// A bare string: LM Studio's {"error":"The number of tokens …"}.
		if json.Unmarshal(body, &e.Message) != nil {
			return nil
		}
	}
	var code string
	_ = json.Unmarshal(e.Code, &code)
	said := e.Type == "exceed_context_size_error" || code == "context_length_exceeded"
	for _, re := range windowWords() {
		if m := re.FindStringSubmatch(e.Message); m != nil {
			said = true
			if e.NCtx == 0 {
				e.NCtx, _ = strconv.Atoi(m[1])
			}
		}
	}
	if !said {
		return nil
	}
	// The refusal is itself the line the person reads: a count out of
	// range in it is dropped, as if the server had not given it.
	if e.PromptTokens < 0 || e.PromptTokens > maxTokens {
		e.PromptTokens = 0
	}
	if e.NCtx < 0 || e.NCtx > maxWindow {
		e.NCtx = 0
	}
	return &llm.ContextTooLongError{Provider: provider, Line: line, PromptTokens: e.PromptTokens, Window: e.NCtx}
}

// windowWords are the messages of servers that refuse a request over their
// window without a type or code that says so, each with the window it
// names: LM Studio's two, vLLM's and OpenAI's older one.
var windowWords = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`(?i)greater than the context length \(n_keep: \d+ ?>= ?n_ctx: (\d+)\)`),
		regexp.MustCompile(`(?i)loaded with context length of only (\d+) tokens`),
		regexp.MustCompile(`(?i)maximum context length is (\d+) tokens`),
	}
})
