package openai

import "os"

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
