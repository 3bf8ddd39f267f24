package openai

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/suggest"
)

// Options are what New needs besides the model reference.
type Options struct {
	// Providers adds providers or overrides built-in ones (the config's
	// providers: map). An entry for a built-in provider replaces only the
	// fields it sets.
	Providers map[string]Provider
	// Getenv reads API keys. Nil: os.Getenv.
	Getenv func(string) string
	// HTTPClient talks to servers. Nil: a client with a dial timeout but no
	// overall timeout, since a reply may stream for minutes (the idle
	// timeout bounds a silent server, whatever the client).
	HTTPClient *http.Client
	// Notify receives, as one line for the person, what the model does
	// that would otherwise be a silent wait: each retry of a busy server
	// ("ollama is busy (HTTP 503: …): retrying in 4s (attempt 3 of 5)").
	// It is called on the goroutine that called Stream. Nil: nobody is told.
	Notify func(line string)
	// Place is the agent's place in a chain of hand-offs, for a server
	// with a slot for each (llama.cpp's). The zero Place: an agent that
	// neither asks nor was asked.
	Place Place
	// Trace, when set, is given every line of what the model sends to its
	// server and receives, the API key left out (mm --verbose: traced).
	Trace func(line string)
}

// New returns the model on a server that ref names, "<provider>/<model>":
// the provider is the text before the first slash, the model the rest
// (which may hold more slashes). New does no I/O: an unreachable server is
// reported by the first Stream. The providers without a server (echo,
// script) are not its own: internal/llm/models makes their models.
func New(ref string, opts Options) (llm.Model, error) {
	provider, name, ok := strings.Cut(ref, "/")
	if !ok || provider == "" || name == "" {
		return nil, fmt.Errorf("model %q: want <provider>/<model>, e.g. ollama/qwen3:8b", ref)
	}
	if err := CheckProviders(opts.Providers); err != nil {
		return nil, err
	}
	if slices.Contains(serverless(), provider) {
		return nil, fmt.Errorf("model %q: %s is built into mm and has no server: internal/llm/models makes it", ref, provider)
	}
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	p, ok, err := builtinProviderEnv(provider, getenv)
	if err != nil {
		return nil, err
	}
	if o, found := opts.Providers[provider]; found {
		p, ok = mergeProvider(p, o), true
	}
	if !ok {
		known := knownProviders(opts.Providers)
		return nil, fmt.Errorf("model %q: unknown provider %q (known: %s)%s",
			ref, provider, strings.Join(known, ", "), suggest.DidYouMean(provider, known))
	}
	client := opts.HTTPClient
	if client == nil {
		client = defaultHTTPClient()
	}
	if opts.Trace != nil {
		client = traced(client, opts.Trace)
	}
	idle := p.IdleTimeout
	if idle == 0 {
		idle = DefaultIdleTimeout
	}
	notify := opts.Notify
	if notify == nil {
		notify = func(string) {}
	}
	return &openAIModel{
		provider:  provider,
		model:     name,
		baseURL:   strings.TrimRight(p.BaseURL, "/"),
		apiKeyEnv: p.APIKeyEnv,
		idle:      idle,
		getenv:    getenv,
		client:    client,
		notify:    notify,
		place:     opts.Place,
	}, nil
}

// defaultHTTPClient bounds connecting, not replying: local models can take
// minutes to load and to answer.
func defaultHTTPClient() *http.Client {
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	return &http.Client{Transport: &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         dialer.DialContext,
		TLSHandshakeTimeout: 10 * time.Second,
		MaxIdleConnsPerHost: 4,
		IdleConnTimeout:     90 * time.Second,
		ForceAttemptHTTP2:   true,
	}}
}
