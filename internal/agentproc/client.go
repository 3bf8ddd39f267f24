package agentproc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/mm-agent/mm/internal/acpconn"
)

// client is the parent's side of the connection: it passes the child's
// updates and permission requests to the running prompt's Handler. It
// offers no file system and no terminal: the child has its own tools.
type client struct{ p *process }

var _ acp.Client = client{}

// SessionUpdate is never called by the SDK: acpconn.Reader hands every
// notification to process.notify instead. It takes the same path all the same.
func (c client) SessionUpdate(_ context.Context, n acp.SessionNotification) error {
	c.p.deliver(n)
	return nil
}

// show passes one of the child's updates to the prompt's Handler.
func (ap *activePrompt) show(n acp.SessionNotification) {
	switch u := n.Update; {
	case u.AgentMessageChunk != nil:
		if txt := u.AgentMessageChunk.Content.Text; txt != nil {
			ap.h.Text("", txt.Text)
		}
	case u.AgentThoughtChunk != nil:
		// Only the text of the agents an mm child asks is relayed; its
		// other thoughts and notices are not part of the hand-off.
		m := acpconn.ReadMeta(u.AgentThoughtChunk.Meta)
		if txt := u.AgentThoughtChunk.Content.Text; txt != nil && m.Agent != "" && m.Notice == "" {
			ap.h.Text(m.Agent, txt.Text)
		}
	case u.ToolCall != nil:
		tc := u.ToolCall
		m := acpconn.ReadMeta(tc.Meta)
		ap.h.ToolCall(ToolUpdate{
			Agent:    m.Agent,
			ID:       string(tc.ToolCallId),
			Start:    true,
			Tool:     m.Tool,
			Subject:  m.Subject,
			Title:    tc.Title,
			Kind:     string(tc.Kind),
			Status:   string(tc.Status),
			Input:    rawJSON(tc.RawInput),
			Output:   contentText(tc.Content),
			DeniedBy: m.Denied,
			Hook:     m.Hook,
		})
	case u.ToolCallUpdate != nil:
		tu := u.ToolCallUpdate
		m := acpconn.ReadMeta(tu.Meta)
		ap.h.ToolCall(ToolUpdate{
			Agent:    m.Agent,
			ID:       string(tu.ToolCallId),
			Tool:     m.Tool,
			Subject:  m.Subject,
			Title:    deref(tu.Title),
			Kind:     string(deref(tu.Kind)),
			Status:   string(deref(tu.Status)),
			Input:    rawJSON(tu.RawInput),
			Output:   contentText(tu.Content),
			DeniedBy: m.Denied,
			Hook:     m.Hook,
		})
	}
}

// RequestPermission relays the child's request to the Handler. The answer
// is the offered option of the matching kind; a request nobody answered
// (the prompt ended, or no option fits) is cancelled.
func (c client) RequestPermission(ctx context.Context, p acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	child := c.p
	cancelled := acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeCancelled()}
	child.mu.Lock()
	ap := child.active
	if ap == nil || ap.h == nil || p.SessionId != child.session {
		child.mu.Unlock()
		return cancelled, nil
	}
	ap.perms.Add(1)
	child.mu.Unlock()
	defer ap.perms.Done()

	pctx, cancel := context.WithCancel(ap.ctx)
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()

	// What the child sent before it asked is shown before the question.
	if !ap.caughtUp(pctx) {
		return cancelled, nil
	}
	tc := p.ToolCall
	if !knownOptions(p.Options) {
		// Neither allow nor reject can be told: no answer the person gives
		// could be passed on, so the hand-off fails.
		ap.fail(fmt.Errorf("agent %s asked for a permission mm cannot answer: %s", child.label, optionKinds(p.Options)))
		return cancelled, nil
	}
	m := acpconn.ReadMeta(tc.Meta)
	ans := ap.h.Permission(pctx, PermissionRequest{
		Agent:     m.Agent,
		ID:        string(tc.ToolCallId),
		Tool:      m.Tool,
		Subject:   m.Subject,
		Detail:    m.Detail,
		Question:  m.Question,
		Along:     m.Along,
		Arguments: m.Arguments,
		Always:    m.Always,
		NoAlways:  !offers(p.Options, acp.PermissionOptionKindAllowAlways),
		Title:     deref(tc.Title),
		Kind:      string(deref(tc.Kind)),
		Input:     rawJSON(tc.RawInput),
		Diff:      firstDiff(tc.Content),
	})
	if pctx.Err() != nil {
		return cancelled, nil
	}
	if id, ok := pickOption(p.Options, ans); ok {
		return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeSelected(id)}, nil
	}
	return cancelled, nil
}

// knownOptions reports whether opts offer a kind mm knows.
func knownOptions(opts []acp.PermissionOption) bool {
	for _, o := range opts {
		switch o.Kind {
		case acp.PermissionOptionKindAllowOnce, acp.PermissionOptionKindAllowAlways,
			acp.PermissionOptionKindRejectOnce, acp.PermissionOptionKindRejectAlways:
			return true
		}
	}
	return false
}

// offers reports whether opts offer the kind k.
func offers(opts []acp.PermissionOption, k acp.PermissionOptionKind) bool {
	for _, o := range opts {
		if o.Kind == k {
			return true
		}
	}
	return false
}

// optionKinds lists the kinds of opts for an error.
func optionKinds(opts []acp.PermissionOption) string {
	if len(opts) == 0 {
		return "it offered no option"
	}
	kinds := make([]string, len(opts))
	for i, o := range opts {
		kinds[i] = strconv.Quote(string(o.Kind))
	}
	return "it offered only " + strings.Join(kinds, ", ") + " (mm knows allow_once, allow_always, reject_once, reject_always)"
}

// pickOption finds the option for an answer: the kind it names, or for an
// "always" answer the "once" kind when "always" is not offered. Refused
// picks none: the request is answered "cancelled", which an mm child reads
// as "nobody could be asked", not as a person's no.
func pickOption(opts []acp.PermissionOption, ans PermissionAnswer) (acp.PermissionOptionId, bool) {
	var kinds []acp.PermissionOptionKind
	switch ans {
	case AllowOnce:
		kinds = []acp.PermissionOptionKind{acp.PermissionOptionKindAllowOnce}
	case AllowAlways:
		kinds = []acp.PermissionOptionKind{acp.PermissionOptionKindAllowAlways, acp.PermissionOptionKindAllowOnce}
	case RejectAlways:
		kinds = []acp.PermissionOptionKind{acp.PermissionOptionKindRejectAlways, acp.PermissionOptionKindRejectOnce}
	case RejectOnce:
		kinds = []acp.PermissionOptionKind{acp.PermissionOptionKindRejectOnce}
	default: // Refused
		return "", false
	}
	for _, k := range kinds {
		for _, o := range opts {
			if o.Kind == k {
				return o.OptionId, true
			}
		}
	}
	return "", false
}

// The child gets no file system and no terminal from its parent.

func (client) ReadTextFile(context.Context, acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	return acp.ReadTextFileResponse{}, acp.NewMethodNotFound(acp.ClientMethodFsReadTextFile)
}

func (client) WriteTextFile(context.Context, acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	return acp.WriteTextFileResponse{}, acp.NewMethodNotFound(acp.ClientMethodFsWriteTextFile)
}

func (client) CreateTerminal(context.Context, acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	return acp.CreateTerminalResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalCreate)
}

func (client) KillTerminal(context.Context, acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return acp.KillTerminalResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalKill)
}

func (client) TerminalOutput(context.Context, acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return acp.TerminalOutputResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalOutput)
}

func (client) ReleaseTerminal(context.Context, acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return acp.ReleaseTerminalResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalRelease)
}

func (client) WaitForTerminalExit(context.Context, acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return acp.WaitForTerminalExitResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalWaitForExit)
}

// firstDiff is the first diff of a tool call's content; nil when it has
// none.
func firstDiff(cs []acp.ToolCallContent) *Diff {
	for _, c := range cs {
		if d := c.Diff; d != nil {
			return &Diff{Path: d.Path, Old: deref(d.OldText), Created: d.OldText == nil, New: d.NewText}
		}
	}
	return nil
}

// contentText joins the text blocks of a tool call's content.
func contentText(cs []acp.ToolCallContent) string {
	var parts []string
	for _, c := range cs {
		if c.Content != nil && c.Content.Content.Text != nil {
			parts = append(parts, c.Content.Content.Text.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// rawJSON encodes a decoded rawInput again, leaving &, < and > as they are
// (hooks read them so).
func rawJSON(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
