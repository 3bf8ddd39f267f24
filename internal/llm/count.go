package llm

import "context"

// PromptCounter is implemented by a model whose server can count the
// tokens of a request's prompt as its chat template renders it — the
// tools included, which a template may write much shorter or longer than
// their JSON. The count costs a call that writes at most one token; a
// local server keeps the prompt in its cache for the call that follows.
type PromptCounter interface {
	// CountPrompt asks the server; an error when it does not count (no
	// usage in its answer), or refuses the request.
	CountPrompt(ctx context.Context, req Request) (int, error)
}
