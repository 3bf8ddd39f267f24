package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mm-agent/mm/internal/jsonkind"
)

// The actions a reply may take.
const (
	ActionContinue = "continue"
	ActionStop     = "stop"
	ActionDeny     = "deny"
	ActionAllow    = "allow"
	ActionError    = "error"
)

// Reply is what a hook wrote on stdout, decoded for one event. Only the fields
// the event reads are filled; the others stay zero whatever the hook wrote.
type Reply struct {
	// Action is never empty after DecodeReply: an absent action is continue.
	Action string `json:"action,omitempty"`
	// Prompt, Transcript and Answer are nil when absent: absent means
	// unchanged, "" means empty.
	Prompt     *string `json:"prompt,omitempty"`
	Transcript *string `json:"transcript,omitempty"`
	Answer     *string `json:"answer,omitempty"`
	// Context is "" when absent or blank.
	Context string `json:"context,omitempty"`
	// Input is nil when absent (or null), otherwise compact JSON.
	Input    json.RawMessage `json:"input,omitempty"`
	Reason   string          `json:"reason,omitempty"`
	Response string          `json:"response,omitempty"`
	Error    string          `json:"error,omitempty"`
}

// DecodeReply reads a hook's stdout for event ev. Empty or blank stdout is
// {"action":"continue"}. A JSON null in a field is the field left out. The
// error, when there is one, is the run's failure as the reference words it:
// invalid JSON (a key given twice included), an action the event does not
// take, or the error action.
func DecodeReply(ev Event, stdout []byte) (Reply, error) {
	data := bytes.TrimSpace(stdout)
	if len(data) == 0 {
		return Reply{Action: ActionContinue}, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return Reply{}, fmt.Errorf("invalid JSON on stdout: the reply must be an object, not %s", jsonkind.Article(jsonkind.Of(data)))
		}
		return Reply{}, fmt.Errorf("invalid JSON on stdout: %v", err)
	}
	if obj == nil {
		return Reply{}, errors.New("invalid JSON on stdout: the reply must be an object, not null")
	}
	// A key given twice, at any depth (input's too), is refused as the
	// YAML side refuses it: decoding would keep the last one silently.
	if err := jsonkind.UniqueKeys(data); err != nil {
		return Reply{}, fmt.Errorf("invalid JSON on stdout: %v", err)
	}

	var r Reply
	if err := decodeString(obj, "action", &r.Action); err != nil {
		return Reply{}, err
	}
	switch r.Action {
	case "":
		r.Action = ActionContinue
	case ActionContinue:
	case ActionStop, ActionDeny, ActionAllow:
		if !actionValid(ev, r.Action) {
			return Reply{}, fmt.Errorf("action %q is not valid for %s", r.Action, ev)
		}
	case ActionError:
		var msg string
		if err := decodeString(obj, "error", &msg); err != nil {
			return Reply{}, err
		}
		if msg = strings.TrimSpace(msg); msg == "" {
			msg = "the hook reported an error"
		}
		return Reply{}, errors.New(msg)
	default:
		return Reply{}, fmt.Errorf("action %q is not valid for %s", r.Action, ev)
	}

	for _, key := range fieldsRead(ev) {
		raw, ok := obj[key]
		if !ok || isNull(raw) {
			continue
		}
		if key == "input" {
			var b bytes.Buffer
			if err := json.Compact(&b, raw); err != nil {
				return Reply{}, fmt.Errorf("invalid JSON on stdout: %v", err)
			}
			r.Input = b.Bytes()
			continue
		}
		var s string
		if err := decodeString(obj, key, &s); err != nil {
			return Reply{}, err
		}
		switch key {
		case "prompt":
			r.Prompt = &s
		case "transcript":
			r.Transcript = &s
		case "answer":
			r.Answer = &s
		case "context":
			r.Context = s
		case "reason":
			r.Reason = s
		case "response":
			r.Response = s
		}
	}
	if strings.TrimSpace(r.Context) == "" {
		r.Context = ""
	}
	return r, nil
}

// fieldsRead lists the reply fields event ev reads besides action and error.
func fieldsRead(ev Event) []string {
	switch ev {
	case PreGeneration:
		return []string{"prompt", "context", "reason", "response"}
	case PreToolCall:
		return []string{"input", "reason"}
	case PostToolCall:
		return []string{"context"}
	case PreAsk:
		return []string{"prompt", "transcript", "context", "reason"}
	case PostAsk:
		return []string{"answer", "context"}
	}
	return nil
}

// actionValid reports whether ev takes the action.
func actionValid(ev Event, action string) bool {
	switch action {
	case ActionContinue, ActionError:
		return true
	case ActionStop:
		return ev == PreGeneration
	case ActionDeny:
		return ev == PreToolCall || ev == PreAsk
	case ActionAllow:
		return ev == PreToolCall
	}
	return false
}

// decodeString reads obj[key] into dst when it is present and not null.
func decodeString(obj map[string]json.RawMessage, key string, dst *string) error {
	raw, ok := obj[key]
	if !ok || isNull(raw) {
		return nil
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return fmt.Errorf("invalid JSON on stdout: %q must be a string, not %s", key, jsonkind.Article(jsonkind.Of(raw)))
	}
	return nil
}

func isNull(raw json.RawMessage) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}
