package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mm-agent/mm/internal/handoff"
)

// Input is the JSON object a hook reads on stdin. Empty fields are left out,
// except durationMs, which a postAsk input always carries.
type Input struct {
	Event  Event        `json:"event"`
	Cwd    string       `json:"cwd"`
	Model  string       `json:"model,omitempty"`
	Prompt string       `json:"prompt,omitempty"`
	Tool   *ToolCall    `json:"tool,omitempty"`
	Ask    *handoff.Ask `json:"ask,omitempty"`
	Output string       `json:"output,omitempty"`
	Answer string       `json:"answer,omitempty"`
	Error  string       `json:"error,omitempty"`
	// DurationMs is how long the asked agent took (postAsk): a pointer so
	// that a hand-off that took no time still says 0.
	DurationMs *int64 `json:"durationMs,omitempty"`
	Asked      *Asked `json:"asked,omitempty"`
}

// ToolCall is the "tool" object of a preToolCall or postToolCall input.
type ToolCall struct {
	// ID is the call's reference; it may be empty, and the key is kept.
	ID   string `json:"id"`
	Name string `json:"name"`
	// Input is the call's arguments, a JSON value.
	Input json.RawMessage `json:"input"`
}

// Asked marks the input of an agent that another agent asked.
type Asked struct {
	Depth int `json:"depth"`
}

// encode writes the input as one line of JSON, '&', '<' and '>' as they are,
// so that a hook can search a command for "&&" or ">" as plain text.
func (in *Input) encode() ([]byte, error) {
	if in.Tool != nil {
		c, t := *in, *in.Tool
		t.Input = toolInput(t.Input)
		c.Tool = &t
		in = &c
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(in); err != nil {
		return nil, fmt.Errorf("encode the %s input: %w", in.Event, err)
	}
	return b.Bytes(), nil
}

// toolInput makes a tool call's arguments a JSON value a hook can read: no
// arguments are {}, and arguments that are not JSON (a model's mistake) are
// passed as a JSON string holding the text.
func toolInput(raw json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage("{}")
	}
	if json.Valid(raw) {
		return raw
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(string(raw)) // a string always encodes
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
