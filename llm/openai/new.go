package openai

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mm-agent/mm/internal/suggest"
	"github.com/mm-agent/mm/llm"
)

// Provider says where an OpenAI-compatible server listens. It is the
// configuration's providers: entry.
type Provider struct {
	// BaseURL is the API root, up to and including /v1:
	// {BaseURL}/chat/completions is what gets called.
	BaseURL string
	// APIKeyEnv names the environment variable holding the API key, sent as
	// a bearer token. Empty: no key is sent.
	APIKeyEnv string
	// IdleTimeout ends a call when the server sends no byte for that long,
	// the wait for the response headers included. Zero: DefaultIdleTimeout.
	IdleTimeout time.Duration
}

// DefaultIdleTimeout is how long a server may send nothing before a call is
// given up as stalled. Local servers send no byte while they load a model
// and read the prompt (prefill), and hold a tool call back until it is
// written whole: on a laptop without a GPU, an 8B model reads some 30 to 100
// tokens a second, so a 10,000-token prompt the server has not cached takes
// minutes before the first byte. Five minutes waits for that, and still
// tells a hung server from a slow one within one cup of coffee; a slower
// setup raises providers.<name>.idleTimeout.
const DefaultIdleTimeout = 5 * time.Minute

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
}

// New returns the model on a server that ref names, "<provider>/<model>":
// the provider is the text before the first slash, the model the rest
// (which may hold more slashes). New does no I/O: an unreachable server is
// reported by the first Stream. The providers without a server (echo,
// script) are not its own: llm/models makes their models.
func New(ref string, opts Options) (llm.Model, error) {
	provider, name, ok := strings.Cut(ref, "/")
	if !ok || provider == "" || name == "" {
		return nil, fmt.Errorf("model %q: want <provider>/<model>, e.g. ollama/qwen3:8b", ref)
	}
	if err := CheckProviders(opts.Providers); err != nil {
		return nil, err
	}
	if slices.Contains(serverless(), provider) {
		return nil, fmt.Errorf("model %q: %s is built into mm and has no server: llm/models makes it", ref, provider)
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

// builtinProvider returns a built-in OpenAI-compatible provider
// (docs/explanation/architecture.md, "Models").
func builtinProvider(name string) (Provider, bool) {
	switch name {
	case "llmman":
		return Provider{BaseURL: "http://localhost:17434/v1"}, true
	case "ollama":
		return Provider{BaseURL: "http://localhost:11434/v1"}, true
	case "llamacpp":
		return Provider{BaseURL: "http://localhost:8080/v1"}, true
	case "lmstudio":
		return Provider{BaseURL: "http://localhost:1234/v1"}, true
	case "openai":
		return Provider{BaseURL: "https://api.openai.com/v1", APIKeyEnv: "OPENAI_API_KEY"}, true
	}
	return Provider{}, false
}

// builtinProviderEnv is builtinProvider with the environment's say:
// OLLAMA_HOST moves ollama, as it moves Ollama's own CLI (a configured
// providers.ollama.baseURL still wins: it is the more particular).
func builtinProviderEnv(name string, getenv func(string) string) (Provider, bool, error) {
	p, ok := builtinProvider(name)
	if name == "ollama" {
		u, err := ollamaBaseURL(getenv(ollamaHostEnv))
		if err != nil {
			return Provider{}, false, err
		}
		p.BaseURL = u
	}
	return p, ok, nil
}

// serverless lists the providers built into mm that need no server: their
// models are llm/builtin's. A providers: entry may not name them, and an
// unknown provider's error lists them with the others.
func serverless() []string { return []string{"echo", "script"} }

// builtinNames lists every built-in provider, the serverless ones included.
func builtinNames() []string {
	return append(serverless(), "llamacpp", "llmman", "lmstudio", "ollama", "openai")
}

// knownProviders lists the built-in and configured providers, sorted.
func knownProviders(extra map[string]Provider) []string {
	names := builtinNames()
	for name := range extra {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// mergeProvider lays the fields o sets over base.
func mergeProvider(base, o Provider) Provider {
	if o.BaseURL != "" {
		base.BaseURL = o.BaseURL
	}
	if o.APIKeyEnv != "" {
		base.APIKeyEnv = o.APIKeyEnv
	}
	if o.IdleTimeout != 0 {
		base.IdleTimeout = o.IdleTimeout
	}
	return base
}

// CheckProviders validates the configured providers, in name order so that
// the error reported is always the same one.
func CheckProviders(ps map[string]Provider) error {
	names := make([]string, 0, len(ps))
	for name := range ps {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		p := ps[name]
		if slices.Contains(serverless(), name) {
			return fmt.Errorf("providers: %q is built into mm and has no server to configure; remove its entry", name)
		}
		if strings.Contains(name, "/") || name == "" {
			return fmt.Errorf("providers: %q is not a provider name: it must be non-empty and hold no slash", name)
		}
		if p.IdleTimeout < 0 {
			return fmt.Errorf("providers.%s: idleTimeout %v: want a positive duration like 90s or 10m", name, p.IdleTimeout)
		}
		_, builtin := builtinProvider(name)
		if p.BaseURL == "" {
			if builtin {
				continue
			}
			return fmt.Errorf("providers.%s: baseURL is empty; set it, e.g. http://localhost:8080/v1", name)
		}
		u, err := url.Parse(p.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("providers.%s: baseURL %q: want an http:// or https:// URL, e.g. http://localhost:8080/v1", name, p.BaseURL)
		}
	}
	return nil
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
