package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync/atomic"
)

// openAIModel streams chat completions from an OpenAI-compatible server.
type openAIModel struct {
	provider  string
	model     string
	baseURL   string
	apiKeyEnv string
	getenv    func(string) string
	client    *http.Client
	// ids numbers the call ids made up for calls the server sent without one.
	ids atomic.Int64
}

// The request as OpenAI's chat completions API has it.
type (
	wireRequest struct {
		Model    string        `json:"model"`
		Messages []wireMessage `json:"messages"`
		Tools    []wireTool    `json:"tools,omitempty"`
		Stream   bool          `json:"stream"`
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

func (m *openAIModel) Stream(ctx context.Context, req Request, onText func(string)) (Reply, error) {
	body, err := m.requestBody(req)
	if err != nil {
		return Reply{}, err
	}
	url := m.baseURL + "/chat/completions"
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return Reply{}, fmt.Errorf("%s: %w", m.provider, err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "text/event-stream")
	if m.apiKeyEnv != "" {
		key := m.getenv(m.apiKeyEnv)
		if key == "" {
			return Reply{}, fmt.Errorf("%s: no API key: set %s", m.provider, m.apiKeyEnv)
		}
		hreq.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := m.client.Do(hreq)
	if err != nil {
		if ctx.Err() != nil {
			return Reply{}, fmt.Errorf("%s: %w", m.provider, ctx.Err())
		}
		return Reply{}, transportError(m.provider, m.baseURL, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return Reply{}, fmt.Errorf("%s: HTTP %d: %s", m.provider, resp.StatusCode, errorMessage(msg, resp.StatusCode))
	}
	acc := &accumulator{provider: m.provider, ids: &m.ids}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "application/json" {
		// The server ignored stream:true and sent the whole completion.
		err = acc.readWhole(resp.Body, onText)
	} else {
		err = acc.readStream(resp.Body, onText)
	}
	if err != nil && ctx.Err() != nil {
		err = fmt.Errorf("%s: %w", m.provider, ctx.Err())
	}
	return acc.reply(), err
}

// requestBody encodes req for the server.
func (m *openAIModel) requestBody(req Request) ([]byte, error) {
	w := wireRequest{Model: m.model, Stream: true, Messages: make([]wireMessage, 0, len(req.Messages))}
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
