package llm

import (
	"context"
	"strings"
)

// DefaultContextWindow is the window assumed when neither the server nor
// the configuration says: 4,096 tokens, the smallest window local servers
// are commonly run with (Ollama's default on a machine with less than
// 24 GiB of video memory, llama.cpp's -c 4096). Too small costs an early
// compression; too large costs a request the server refuses.
const DefaultContextWindow = 4096

// openAIContextWindow is the window of OpenAI's chat models (128k tokens
// and more since gpt-4o), whose API does not say it.
const openAIContextWindow = 128000

// DefaultWindowFor is the window assumed for the model ref when neither
// its server nor the configuration says: openAIContextWindow for OpenAI,
// DefaultContextWindow for every other provider.
func DefaultWindowFor(ref string) int {
	if provider, _, _ := strings.Cut(ref, "/"); provider == "openai" {
		return openAIContextWindow
	}
	return DefaultContextWindow
}

// WindowReader is implemented by a model whose server can say its context
// window: how many tokens a request and its reply may hold together.
type WindowReader interface {
	// ContextWindow asks the server. It returns 0 and an error saying why
	// when the server does not say (an old server, another kind of server,
	// a model not loaded).
	ContextWindow(ctx context.Context) (int, error)
}

// ContextTooLongError is a server's refusal of a request longer than its
// context window: llama.cpp's exceed_context_size_error, OpenAI's
// context_length_exceeded.
type ContextTooLongError struct {
	Provider string
	// Line is the server's status and message.
	Line string
	// PromptTokens and Window are the server's counts when it gives them
	// (llama.cpp's n_prompt_tokens and n_ctx), else 0.
	PromptTokens, Window int
}

func (e *ContextTooLongError) Error() string { return e.Provider + ": " + e.Line }
