package openai

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
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
// models are internal/llm/builtin's. A providers: entry may not name them, and an
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
