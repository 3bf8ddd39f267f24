package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mm-agent/mm/internal/llm"
)

// openAIModel streams chat completions from an OpenAI-compatible server.
type openAIModel struct {
	provider  string
	model     string
	baseURL   string
	apiKeyEnv string
	// idle is how long the server may send nothing (Provider.IdleTimeout).
	idle   time.Duration
	getenv func(string) string
	client *http.Client
	// notify tells the person of a retry; never nil.
	notify func(string)
	// ids numbers the call ids made up for calls the server sent without one.
	ids atomic.Int64
	// noTools is set once the server refused the model's tools.
	noTools atomic.Bool
	// place is the agent's place in a chain of hand-offs (Options.Place);
	// props, the server's GET /props, asked once.
	place Place
	props propsCache
	// kinds keeps the kind of server its answers showed (kind.go).
	kinds kindCache
	// numbers are the fields the server sent a number mm does not take
	// in, told of once (inRange).
	numbers saidNumbers
}

// The request as OpenAI's chat completions API has it.
type (
	wireRequest struct {
		Model    string        `json:"model"`
		Messages []wireMessage `json:"messages"`
		Tools    []wireTool    `json:"tools,omitempty"`
		Stream   bool          `json:"stream"`
		// StreamOptions asks for the usage chunk at the end of the stream;
		// servers that do not know it ignore it.
		StreamOptions *wireStreamOptions `json:"stream_options,omitempty"`
		// ResponseFormat asks for JSON valid against a schema (llama.cpp,
		// Ollama, LM Studio and OpenAI take this form).
		ResponseFormat *wireResponseFormat `json:"response_format,omitempty"`
		// IDSlot names llama.cpp's slot for the request (idSlot).
		IDSlot *int `json:"id_slot,omitempty"`
	}
	wireResponseFormat struct {
		Type       string         `json:"type"`
		JSONSchema wireJSONSchema `json:"json_schema"`
	}
	wireJSONSchema struct {
		Name   string          `json:"name"`
		Schema json.RawMessage `json:"schema"`
		Strict bool            `json:"strict"`
	}
	wireStreamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	}
	wireMessage struct {
		Role       string         `json:"role"`
		Content    string         `json:"content"`
		ToolCalls  []wireToolCall `json:"tool_calls,omitempty"`
		ToolCallID string         `json:"tool_call_id,omitempty"`
	}
	wireToolCall struct {
		ID       string       `json:"id"`
		Type     string       `json:"type"`
		Function wireFunction `json:"function"`
	}
	wireFunction struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	wireTool struct {
		Type     string       `json:"type"`
		Function wireToolFunc `json:"function"`
	}
	wireToolFunc struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters"`
	}
)

// maxErrorBody bounds how much of a failed response is read for its message.
const maxErrorBody = 64 << 10

func (m *openAIModel) Stream(ctx context.Context, req llm.Request, onText func(string)) (llm.Reply, error) {
	if m.noTools.Load() {
		req.Tools = nil
	}
	slot := m.idSlot(ctx)
	body, err := m.requestBody(req, slot)
	if err != nil {
		return llm.Reply{}, err
	}
	key := ""
	if m.apiKeyEnv != "" {
		if key = m.getenv(m.apiKeyEnv); key == "" {
			return llm.Reply{}, fmt.Errorf("%s: no API key: set %s", m.provider, m.apiKeyEnv)
		}
	}
	resp, w, err := m.post(ctx, body, key)
	if err != nil && len(req.Tools) > 0 && refusesTools(err) {
		// A model without tool support (many on Ollama): it is asked
		// again, and from now on, without them.
		m.dropTools()
		req.Tools = nil
		if body, err = m.requestBody(req, slot); err == nil {
			resp, w, err = m.post(ctx, body, key)
		}
	}
	if err != nil {
		return llm.Reply{}, m.missingModel(ctx, err)
	}
	defer w.stop()
	defer resp.Body.Close()
	acc := &accumulator{provider: m.provider, ids: &m.ids, bad: m.badNumber}
	in := w.body(resp.Body)
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "application/json" {
		// The server ignored stream:true and sent the whole completion.
		err = acc.readWhole(in, onText)
	} else {
		err = acc.readStream(in, onText)
	}
	if err != nil {
		err = m.failed(ctx, w, err)
	}
	return acc.reply(), err
}

// send makes one request. The response's body is to be read under the
// returned watch, which the caller stops.
func (m *openAIModel) send(ctx context.Context, body []byte, key string) (*http.Response, *idleWatch, error) {
	w := watchIdle(ctx, m.idle)
	url := m.baseURL + "/chat/completions"
	hreq, err := http.NewRequestWithContext(w.ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		w.stop()
		return nil, nil, fmt.Errorf("%s: %w", m.provider, err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "text/event-stream")
	if key != "" {
		hreq.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := m.client.Do(hreq)
	if err != nil {
		err = m.failed(ctx, w, transportError(m.provider, m.baseURL, err))
		w.stop()
		return nil, nil, err
	}
	w.kick() // the headers arrived
	return resp, w, nil
}

// failed is the error of a request that went wrong once sent: the caller's
// cancellation, a server that went silent, or err as it is.
func (m *openAIModel) failed(ctx context.Context, w *idleWatch, err error) error {
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("%s: %w", m.provider, ctx.Err())
	case w.stalled():
		return m.stallError(w.got)
	}
	return err
}

// stallError is the line for a server that sent nothing for the idle
// timeout, before any of the reply (got false) or in the middle of it.
func (m *openAIModel) stallError(got bool) error {
	what := "stalled before answering; check that it is running, or raise providers." + m.provider +
		".idleTimeout if the model needs longer to read a long prompt"
	if got {
		what = "stalled mid-reply; check that it is still running and try again, or raise providers." +
			m.provider + ".idleTimeout"
	}
	return fmt.Errorf("%s sent nothing for %v (idleTimeout) at %s (model %s): the model server %s",
		m.provider, m.idle, m.baseURL, m.model, what)
}

// requestBody encodes req for the server, in slot when it is not nil.
func (m *openAIModel) requestBody(req llm.Request, slot *int) ([]byte, error) {
	w := wireRequest{Model: m.model, Stream: true, StreamOptions: &wireStreamOptions{IncludeUsage: true}, IDSlot: slot, Messages: make([]wireMessage, 0, len(req.Messages))}
	for _, msg := range req.Messages {
		wm := wireMessage{Role: msg.Role, Content: msg.Content, ToolCallID: msg.ToolCallID}
		for _, c := range msg.ToolCalls {
			args := c.Arguments
			if strings.TrimSpace(args) == "" {
				args = "{}"
			}
			wm.ToolCalls = append(wm.ToolCalls, wireToolCall{ID: c.ID, Type: "function",
				Function: wireFunction{Name: c.Name, Arguments: args}})
		}
		w.Messages = append(w.Messages, wm)
	}
	if f := req.Format; f != nil {
		if !json.Valid(f.Schema) {
			return nil, fmt.Errorf("%s: response format %q: the schema is not valid JSON", m.provider, f.Name)
		}
		w.ResponseFormat = &wireResponseFormat{Type: "json_schema", JSONSchema: wireJSONSchema{Name: f.Name, Schema: f.Schema, Strict: f.Strict}}
	}
	for _, t := range req.Tools {
		params := t.Parameters
		if len(bytes.TrimSpace(params)) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		} else if !json.Valid(params) {
			return nil, fmt.Errorf("%s: tool %q: parameters are not valid JSON", m.provider, t.Name)
		}
		w.Tools = append(w.Tools, wireTool{Type: "function",
			Function: wireToolFunc{Name: t.Name, Description: t.Description, Parameters: params}})
	}
	b, err := json.Marshal(w)
	if err != nil {
		return nil, fmt.Errorf("%s: encode request: %w", m.provider, err)
	}
	return b, nil
}
