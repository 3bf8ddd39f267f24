// Package openai holds the models on a server, and all of mm that speaks
// HTTP to one: the OpenAI-compatible chat completions client (the request,
// the SSE stream read as servers really send it, the retries of a busy
// server, the idle timeout) for the built-in providers — llmman, Ollama,
// llama.cpp, LM Studio, OpenAI — and the configured ones, and each
// server's own API for what the chat API does not say: llama.cpp's GET
// /props (its window and its slots), Ollama's /api/ps, /api/show and
// /api/tags, LM Studio's /api/v0/models.
//
// Which provider is where is here too: the built-in providers' addresses,
// OLLAMA_HOST, the configuration's providers: entries, how to start each
// server when it does not answer. internal/llm/models chooses between these models
// and the built-in ones (internal/llm/builtin).
package openai
