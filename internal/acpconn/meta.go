package acpconn

import "encoding/json"

// Meta is what an mm -acp adds under "_meta"."mm" to some of its updates
// and permission requests, and what an asking mm reads there: the one
// definition of the wire object both ends share (agentproc's package
// documentation shows it). Every field may be absent; any other ACP agent
// works without them.
type Meta struct {
	// Agent is the chain of agents below the sender whose update this is;
	// "" for its own.
	Agent string `json:"agent,omitempty"`
	// Tool and Subject name a tool call; Subject is cut to a line.
	Tool    string `json:"tool,omitempty"`
	Subject string `json:"subject,omitempty"`
	// Denied is "hook" or "person" on a refused call.
	Denied string `json:"denied,omitempty"`
	// Hook marks a hook run shown as a tool call; Notice, a notice sent as
	// a thought ("info", "warning").
	Hook   bool   `json:"hook,omitempty"`
	Notice string `json:"notice,omitempty"`

	// What a permission request asks about, as the sender's consent
	// question shows it: the subject whole, an ask_agent call's question
	// and what goes along, a tool's whole arguments when the sender does
	// not decode them. A file's change goes as ACP's diff content.
	Detail    string `json:"detail,omitempty"`
	Question  string `json:"question,omitempty"`
	Along     string `json:"along,omitempty"`
	Arguments string `json:"arguments,omitempty"`
	// Always names what the request's "always" option allows, as the
	// sender's consent question does (`"go test"`, a bash command's
	// prefix); "" when the sender does not say.
	Always string `json:"always,omitempty"`
}

// Wire is m as a "_meta" map; nil when m says nothing.
func (m Meta) Wire() map[string]any {
	if m == (Meta{}) {
		return nil
	}
	return map[string]any{"mm": m}
}

// ReadMeta is the mm object of a "_meta" map; a foreign or malformed "mm"
// key reads as nothing.
func ReadMeta(m map[string]any) Meta {
	var v Meta
	if raw, ok := m["mm"]; ok {
		if b, err := json.Marshal(raw); err == nil {
			if json.Unmarshal(b, &v) != nil {
				return Meta{}
			}
		}
	}
	return v
}
