package sessions

import (
	"encoding/json"
	"time"

	"github.com/mm-agent/mm/internal/llm"
)

// Version is the format of the files this mm writes. A file of a newer
// format is refused, naming both; an older one is read as it was written.
const Version = 1

// Header is a session file's first line: what the session is.
type Header struct {
	// Version is the file's format (Version when written by this mm).
	Version int
	// ID is the session's id, the file's name without ".jsonl"; also its
	// ACP sessionId under mm -acp.
	ID string
	// Cwd is the folder the session ran in: mm sessions lists this
	// folder's, mm --continue the one a person last used there (MarkUsed).
	Cwd string
	// Config is the configuration file's absolute path, "" without one.
	Config string
	// Model is the model reference the session started with.
	Model string
	// Created is when the session started.
	Created time.Time
	// ForkedFrom is the session this one copied its history from, when it
	// was resumed while another mm held it.
	ForkedFrom string
}

// The kinds of line, the "t" field of each.
const (
	kindHeader  = "session"
	kindMessage = "message"
	kindReplace = "replace"
	kindAsked   = "asked"
)

// headerLine is Header as written. Every line's "t" comes first, so that a
// line's kind (and a message's role) can be told from its first bytes.
type headerLine struct {
	T          string    `json:"t"`
	V          int       `json:"v"`
	ID         string    `json:"id"`
	Cwd        string    `json:"cwd"`
	Config     string    `json:"config"`
	Model      string    `json:"model"`
	Created    time.Time `json:"created"`
	ForkedFrom string    `json:"forkedFrom,omitempty"`
}

// message is an llm.Message as written: every field it holds, so that a
// resumed session's requests are those it would have sent.
type message struct {
	Role string `json:"role"`
	// Turn is, on a question's own line (not in a replace's history), its
	// number in the history as it stands: the listing reads the count of
	// questions from the file's last such line instead of the whole file.
	// Files written before it have none.
	Turn       int        `json:"turn,omitempty"`
	Content    string     `json:"content,omitempty"`
	ToolCalls  []toolCall `json:"toolCalls,omitempty"`
	ToolCallID string     `json:"toolCallId,omitempty"`
	Name       string     `json:"name,omitempty"`
	// IsError marks a tool result whose call failed or did not run, so
	// that session/load shows its end.
	IsError bool `json:"isError,omitempty"`
	// Typed is a question before its @path and $name lines were expanded
	// into Content, written only when that changed it: a resumed session
	// shows it. Files written before it have none, and show Content.
	Typed string `json:"typed,omitempty"`
	// Model is, on a question's own line, the model it was asked of,
	// written only when it is not the one the file said last (the
	// header's, or an earlier question's): a session whose model was
	// switched (/model) goes on with it. Older mm read past it.
	Model string `json:"model,omitempty"`
}

type toolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// messageLine is one message joining the history.
type messageLine struct {
	T string `json:"t"`
	message
}

// replaceLine is the whole history after a compression (or /clear).
type replaceLine struct {
	T string `json:"t"`
	// Turns is how many questions history holds, before it: the listing
	// reads it without decoding the history.
	Turns   int       `json:"turns"`
	History []message `json:"history"`
}

// askedLine is the session id an asked agent answered in.
type askedLine struct {
	T       string `json:"t"`
	Agent   string `json:"agent"`
	Session string `json:"session"`
}

// anyLine reads every kind of line.
type anyLine struct {
	T string `json:"t"`
	// header
	V          int       `json:"v"`
	ID         string    `json:"id"`
	Cwd        string    `json:"cwd"`
	Config     string    `json:"config"`
	Model      string    `json:"model"`
	Created    time.Time `json:"created"`
	ForkedFrom string    `json:"forkedFrom"`
	// message
	message
	// replace
	Turns   int       `json:"turns"`
	History []message `json:"history"`
	// asked
	Agent   string `json:"agent"`
	Session string `json:"session"`
}

func toWire(m llm.Message) message {
	w := message{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID, Name: m.Name, IsError: m.IsError, Typed: m.Typed}
	if len(m.ToolCalls) > 0 {
		w.ToolCalls = make([]toolCall, len(m.ToolCalls))
		for i, c := range m.ToolCalls {
			w.ToolCalls[i] = toolCall(c)
		}
	}
	return w
}

func (w message) llm() llm.Message {
	m := llm.Message{Role: w.Role, Content: w.Content, ToolCallID: w.ToolCallID, Name: w.Name, IsError: w.IsError, Typed: w.Typed}
	if len(w.ToolCalls) > 0 {
		m.ToolCalls = make([]llm.ToolCall, len(w.ToolCalls))
		for i, c := range w.ToolCalls {
			m.ToolCalls[i] = llm.ToolCall(c)
		}
	}
	return m
}

// appendLine appends v as one line: its JSON and a newline.
func appendLine(buf []byte, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return buf, err
	}
	buf = append(buf, b...)
	return append(buf, '\n'), nil
}

func encodeHeader(buf []byte, h Header) ([]byte, error) {
	return appendLine(buf, headerLine{T: kindHeader, V: h.Version, ID: h.ID, Cwd: h.Cwd, Config: h.Config, Model: h.Model, Created: h.Created, ForkedFrom: h.ForkedFrom})
}

// models are what a Writer knows of the models of its session: the one
// the next questions are asked of, and the one its file says last.
type models struct {
	running, said string
}

// encodeMessages appends msgs' lines, numbering each question after the
// *turns already in the history, which it counts on, and noting its model
// on it when the file said another (nil m: none is noted).
func encodeMessages(buf []byte, msgs []llm.Message, turns *int, m *models) ([]byte, error) {
	var err error
	for _, msg := range msgs {
		w := toWire(msg)
		if msg.Role == llm.RoleUser {
			w.Turn = *turns + 1
			if m != nil && m.running != "" && m.running != m.said {
				w.Model, m.said = m.running, m.running
			}
		}
		if buf, err = appendLine(buf, messageLine{T: kindMessage, message: w}); err != nil {
			return buf, err
		}
		*turns = max(*turns, w.Turn)
	}
	return buf, nil
}

// encodeReplace appends a replace line and sets *turns to the questions
// of msgs.
func encodeReplace(buf []byte, msgs []llm.Message, turns *int) ([]byte, error) {
	h := make([]message, len(msgs))
	n := 0
	for i, m := range msgs {
		h[i] = toWire(m)
		if m.Role == llm.RoleUser {
			n++
		}
	}
	buf, err := appendLine(buf, replaceLine{T: kindReplace, Turns: n, History: h})
	if err == nil {
		*turns = n
	}
	return buf, err
}

func encodeAsked(buf []byte, agent, session string) ([]byte, error) {
	return appendLine(buf, askedLine{T: kindAsked, Agent: agent, Session: session})
}
