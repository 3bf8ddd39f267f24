package openai

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"syscall"
)

// serverKind is the kind of server a model is on, which says how to read
// its window, its slots, its models and its tool support.
type serverKind int

const (
	// kindOther is a server of no kind mm knows (vLLM, a proxy): only the
	// OpenAI-compatible API is read.
	kindOther serverKind = iota
	kindOllama
	kindLlamaCpp
	kindLMStudio
	kindOpenAI
)

// kindCache keeps the kind a server's answers showed, for the model's
// life.
type kindCache struct {
	mu   sync.Mutex
	done bool
	kind serverKind
}

// kind is the kind of m's server: a built-in provider's by its name; any
// other's (llmman, a providers: entry) by what the server answers, asked
// once — llama.cpp's GET /props, Ollama's GET /api/version, LM Studio's
// GET /api/v0/models — so that an Ollama or a llama.cpp under another
// name is read as the built-in one is. A server not listening yet, or a
// caller that gave up, is asked again next time.
func (m *openAIModel) kind(ctx context.Context) serverKind {
	switch m.provider {
	case "ollama":
		return kindOllama
	case "llamacpp":
		return kindLlamaCpp
	case "lmstudio":
		return kindLMStudio
	case "openai":
		return kindOpenAI
	}
	c := &m.kinds
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return c.kind
	}
	kind, err := m.detectKind(ctx)
	if err != nil && (ctx.Err() != nil || errors.Is(err, syscall.ECONNREFUSED)) {
		return kind
	}
	c.done, c.kind = true, kind
	return kind
}

// detectKind asks the server what it is; err is the last probe's failure
// when none answered as a known kind.
func (m *openAIModel) detectKind(ctx context.Context) (serverKind, error) {
	props, err := m.llamaProps(ctx)
	if err == nil && (props.Default.NCtx > 0 || props.TotalSlots > 0) {
		return kindLlamaCpp, nil
	}
	if err != nil && (ctx.Err() != nil || errors.Is(err, syscall.ECONNREFUSED)) {
		return kindOther, err
	}
	var version struct {
		Version string `json:"version"`
	}
	if err = m.probe(ctx, http.MethodGet, "/api/version", nil, &version); err == nil && version.Version != "" {
		return kindOllama, nil
	}
	var list struct {
		Object string `json:"object"`
		Data   []struct {
			ID    string `json:"id"`
			State string `json:"state"`
		} `json:"data"`
	}
	if err = m.probe(ctx, http.MethodGet, "/api/v0/models", nil, &list); err == nil && len(list.Data) > 0 && list.Data[0].State != "" {
		return kindLMStudio, nil
	}
	return kindOther, err
}
