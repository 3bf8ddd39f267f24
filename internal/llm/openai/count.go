package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"

	"github.com/mm-agent/mm/internal/llm"
)

// CountPrompt is the server's count of the tokens req's prompt holds
// (llm.PromptCounter): req sent as any call is, with max_tokens 1, and the
// prompt_tokens of its usage read — or, when the server refuses it as over
// its window, the count its refusal gives. It neither retries nor
// notifies: the call that follows does.
func (m *openAIModel) CountPrompt(ctx context.Context, req llm.Request) (int, error) {
	if m.noTools.Load() {
		req.Tools = nil
	}
	body, err := m.requestBody(req, m.idSlot(ctx))
	if err != nil {
		return 0, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return 0, fmt.Errorf("%s: encode request: %w", m.provider, err)
	}
	fields["max_tokens"] = json.RawMessage("1")
	if body, err = json.Marshal(fields); err != nil {
		return 0, fmt.Errorf("%s: encode request: %w", m.provider, err)
	}
	key := ""
	if m.apiKeyEnv != "" {
		if key = m.getenv(m.apiKeyEnv); key == "" {
			return 0, fmt.Errorf("%s: no API key: set %s", m.provider, m.apiKeyEnv)
		}
	}
	resp, w, err := m.send(ctx, body, key)
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != http.StatusOK {
		err := m.refused(ctx, resp, w)
		if e, ok := errors.AsType[*llm.ContextTooLongError](err); ok && e.PromptTokens > 0 {
			// Refused as over the window, the prompt counted
			// (llama.cpp's n_prompt_tokens): the count all the same.
			return e.PromptTokens, nil
		}
		return 0, err
	}
	defer w.stop()
	defer resp.Body.Close()
	acc := &accumulator{provider: m.provider, ids: &m.ids, bad: m.badNumber}
	in := w.body(resp.Body)
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "application/json" {
		err = acc.readWhole(in, nil)
	} else {
		err = acc.readStream(in, nil)
	}
	if err != nil {
		return 0, err
	}
	n := acc.reply().Usage.InputTokens
	if n <= 0 {
		return 0, fmt.Errorf("%s: counting the prompt: the server sent no usage", m.provider)
	}
	return n, nil
}
