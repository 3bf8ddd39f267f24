// Package llm holds what every model shares: a conversation's messages, a
// request and its reply, the Model interface and what a model may say of
// itself (its window, whether it takes tools, whether it is loaded). It
// holds no model: the models on a server are internal/llm/openai's, the ones built
// into mm internal/llm/builtin's, and internal/llm/models makes the one a reference names.
// Whatever names a message imports llm, and links no client by it.
//
// A Model knows nothing of hooks, tools or turns: it takes a conversation and
// the tools on offer, streams text as it arrives and returns the complete reply.
package llm

import (
	"context"
	"encoding/json"
	"time"
)

// Roles of a Message.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Message is one entry of a conversation.
type Message struct {
	Role    string
	Content string
	// ToolCalls are the calls an assistant message made.
	ToolCalls []ToolCall
	// ToolCallID and Name identify the call a tool message answers.
	ToolCallID string
	Name       string
	// IsError marks a tool message whose call failed or did not run. The
	// OpenAI format has no place for it, so the model reads only Content;
	// it is kept so that a saved session shows each call's end again.
	IsError bool
	// Typed is a user message's question before its @path and $name lines
	// were expanded into Content, set only when that changed it (of an
	// /ask… exchange, the question alone). The model reads only Content;
	// it is kept so that a resumed session shows the question as typed.
	Typed string
}

// ToolCall is one call to a tool, as the model wrote it.
type ToolCall struct {
	ID   string
	Name string
	// Arguments is the JSON text of the arguments, as the model sent it
	// (possibly invalid JSON: the caller decides what to do with that).
	Arguments string
}

// ToolSpec describes a tool offered to the model.
type ToolSpec struct {
	Name        string
	Description string
	// Parameters is the JSON schema of the tool's input.
	Parameters json.RawMessage
}

// Request is one call to a model.
type Request struct {
	Messages []Message
	Tools    []ToolSpec
	// Purpose is PurposeSummary for the call that summarises a
	// conversation to compress it, "" for a turn's call. A server never
	// sees it; the scripted model's rules may match it.
	Purpose string
	// Format asks for an answer that is JSON valid against a schema; nil
	// for any text. A server may ignore it: the caller checks the answer.
	Format *JSONSchemaFormat
}

// JSONSchemaFormat is a structured answer's schema, as OpenAI-compatible
// servers take it in response_format.
type JSONSchemaFormat struct {
	// Name names the schema: 1 to 64 of [a-zA-Z0-9_-].
	Name string
	// Schema is the JSON Schema, as JSON.
	Schema json.RawMessage
	// Strict asks the server to hold the answer to the schema exactly.
	Strict bool
}

// PurposeSummary marks the request that summarises the older part of a
// conversation (context compression).
const PurposeSummary = "summary"

// Reply is what the model answered to one Request.
type Reply struct {
	Content   string
	ToolCalls []ToolCall
	// FinishReason is the server's, normalised: "stop", "tool_calls", "length"
	// or what the server said.
	FinishReason string
	// Usage is what the server counted, zero when it sent no usage.
	Usage Usage
}

// Usage is a server's count of one model call, from the final chunk of
// its stream ("usage", asked for with stream_options.include_usage).
type Usage struct {
	// InputTokens is the prompt's tokens, OutputTokens the reply's.
	InputTokens, OutputTokens int
	// CachedTokens is how many of InputTokens the server found in its
	// cache and did not read again (llama.cpp's timings.cache_n, OpenAI's
	// prompt_tokens_details.cached_tokens); 0 when it does not say.
	CachedTokens int
	// Generation is how long the server says it spent writing the reply
	// (llama.cpp's timings.predicted_ms); 0 when it does not say.
	Generation time.Duration
}

// Model is a chat model. Stream calls onText with each piece of text as it
// arrives (onText may be nil) and returns the whole reply once the model is done.
// Cancelling ctx ends Stream promptly with an error that wraps ctx.Err(). On
// an error the Reply holds whatever had arrived; it is not a reply to act on.
// A Model may be used by several goroutines at once.
type Model interface {
	Stream(ctx context.Context, req Request, onText func(string)) (Reply, error)
}

// SpecReader is implemented by a model that may or may not read the
// descriptions and schemas of the tools it is offered. The built-in echo
// and script models do not: a caller may then skip work spent only on
// describing tools (ask_agent's description reads every asked agent's
// configuration file). Models that do not implement it read them.
type SpecReader interface {
	ReadsToolSpecs() bool
}

// ReadsToolSpecs reports whether m reads the descriptions of its tools.
func ReadsToolSpecs(m Model) bool {
	if r, ok := m.(SpecReader); ok {
		return r.ReadsToolSpecs()
	}
	return true
}

// ToolTaker is implemented by a model that may turn out to take no tools:
// a server that refuses them for a model without tool support (Ollama's
// "does not support tools"). Models that do not implement it take them.
type ToolTaker interface {
	TakesTools() bool
}

// TakesTools reports whether m is still offered tools.
func TakesTools(m Model) bool {
	if t, ok := m.(ToolTaker); ok {
		return t.TakesTools()
	}
	return true
}

// LoadReader is implemented by a model whose server says whether it has
// the model loaded: a first request to a model not loaded waits for the
// load (seconds to minutes) before the prompt is read.
type LoadReader interface {
	// Loaded asks the server; an error when it does not say.
	Loaded(ctx context.Context) (bool, error)
}
