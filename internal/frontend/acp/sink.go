package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	acp "github.com/coder/acp-go-sdk"

	"github.com/mm-agent/mm/internal/acpconn"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// sink turns one session's events into session/update notifications.
type sink struct {
	conn         *acp.AgentSideConnection
	ctx          context.Context
	log          *lineLog
	id           acp.SessionId
	cwd          string
	displayHooks bool

	// mu orders the updates: a call's start before its end, whatever
	// goroutine emits them.
	mu sync.Mutex
	// open holds the calls announced to the client and not yet ended, by
	// their ACP id.
	open map[string]openCall
	// unnamed gives ids to calls that came without one.
	unnamed map[string]string
	// spoke is set once the session's own text streamed in this turn.
	spoke bool
	// seq numbers hook runs and unnamed calls, for their ids.
	seq int
}

// openCall is what later updates of an announced call repeat.
type openCall struct {
	title string
	meta  map[string]any
}

var _ orchestrator.Sink = (*sink)(nil)

// Emit sends what the event shows.
func (k *sink) Emit(ev orchestrator.Event) {
	k.mu.Lock()
	defer k.mu.Unlock()
	switch ev := ev.(type) {
	case orchestrator.Text:
		if ev.Agent == "" {
			k.spoke = true
			k.send(acp.UpdateAgentMessageText(ev.Text))
			return
		}
		u := acp.UpdateAgentThoughtText(ev.Text)
		u.AgentThoughtChunk.Meta = acpconn.Meta{Agent: ev.Agent}.Wire()
		k.send(u)
	case orchestrator.UserText:
		// A replayed message of the person.
		k.send(acp.UpdateUserMessageText(ev.Text))
	case orchestrator.ToolStarted:
		id := k.callID(ev.Agent, ev.ID, ev.Name, ev.Subject, false)
		if c, ok := k.open[id]; ok {
			// Announced when consent was asked.
			u := acp.UpdateToolCall(acp.ToolCallId(id),
				acp.WithUpdateStatus(acp.ToolCallStatusInProgress),
				acp.WithUpdateRawInput(rawInput(ev.Input)))
			u.ToolCallUpdate.Meta = c.meta
			k.send(u)
			return
		}
		k.announce(id, ev.Agent, ev.Name, ev.Subject, ev.Path, ev.Input, acp.ToolCallStatusInProgress)
	case orchestrator.ToolEnded:
		k.ended(ev)
	case orchestrator.HookRan:
		if !k.displayHooks {
			return
		}
		k.seq++
		status := acp.ToolCallStatusCompleted
		if ev.Failed {
			status = acp.ToolCallStatusFailed
		}
		u := acp.StartToolCall(acp.ToolCallId("mm-hook-"+strconv.Itoa(k.seq)), ev.Title,
			acp.WithStartKind(acp.ToolKindOther), acp.WithStartStatus(status))
		u.ToolCall.Meta = acpconn.Meta{Hook: true}.Wire()
		k.send(u)
	case orchestrator.Notice:
		if ev.Kind == orchestrator.NoticeHookFailure {
			k.log.line(ev.Text)
			return
		}
		kind := "info"
		if ev.Kind == orchestrator.NoticeWarning {
			kind = "warning"
		}
		u := acp.UpdateAgentThoughtText(ev.Text + "\n")
		u.AgentThoughtChunk.Meta = acpconn.Meta{Notice: kind}.Wire()
		k.send(u)
	case orchestrator.Compressed:
		// A line for the person, as a notice is.
		u := acp.UpdateAgentThoughtText(ev.Line() + "\n")
		u.AgentThoughtChunk.Meta = acpconn.Meta{Notice: "info"}.Wire()
		k.send(u)
	case orchestrator.TurnEnded:
		// An answer nobody streamed (an /ask… command's, as the asking
		// agent reads it) is sent whole.
		if !k.spoke && ev.Answer != "" {
			k.send(acp.UpdateAgentMessageText(ev.Answer))
		}
		k.spoke = true
	case orchestrator.ModelStarted, orchestrator.Compressing:
		// Waits: the editor shows its own while the prompt runs.
	case orchestrator.AskStarted, orchestrator.AskEnded:
		// A hand-off shows as what it streams: the asked agent's text
		// and calls, the ask_agent call, or the /ask answer (TurnEnded).
	case orchestrator.CommandReply:
		// An editor is offered /ask… and /compact only (promptCommands):
		// the one reply left, /compact's "(nothing to compress)", is not
		// sent.
	}
}

// ended sends the end of a call: an update of an announced call, or the
// whole call when it never started (a denial, a bad call, a replayed call).
func (k *sink) ended(ev orchestrator.ToolEnded) {
	id := k.callID(ev.Agent, ev.ID, ev.Name, ev.Subject, true)
	status := acp.ToolCallStatusCompleted
	if ev.Status != orchestrator.ToolCompleted {
		status = acp.ToolCallStatusFailed
	}
	title := orchestrator.CallTitle(ev.Agent, ev.Name, ev.Subject)
	switch ev.DeniedBy {
	case "hook":
		title += " — denied by a hook"
	case "person":
		title += " — denied"
	}
	// The summary the terminal front ends show ("expert answered; a hook
	// replaced the answer (42 characters)"), then the output.
	texts := []string{ev.Summary, ev.Output}
	if ev.Summary == ev.Output {
		texts = texts[1:]
	}
	var content []acp.ToolCallContent
	for _, text := range texts {
		if text != "" {
			content = append(content, acp.ToolContent(acp.TextBlock(text)))
		}
	}
	m := acpconn.Meta{Agent: ev.Agent, Tool: ev.Name, Subject: ev.Subject, Denied: ev.DeniedBy}.Wire()
	if c, ok := k.open[id]; ok {
		delete(k.open, id)
		opts := []acp.ToolCallUpdateOpt{acp.WithUpdateStatus(status), acp.WithUpdateContent(content)}
		if title != c.title {
			opts = append(opts, acp.WithUpdateTitle(title))
		}
		u := acp.UpdateToolCall(acp.ToolCallId(id), opts...)
		u.ToolCallUpdate.Meta = m
		k.send(u)
		return
	}
	u := acp.StartToolCall(acp.ToolCallId(id), title,
		acp.WithStartKind(toolKind(ev.Name)),
		acp.WithStartStatus(status),
		acp.WithStartContent(content),
		acp.WithStartLocations(locations(ev.Path)),
		acp.WithStartRawInput(rawInput(ev.Input)))
	u.ToolCall.Meta = m
	k.send(u)
}

// announce sends a new call.
func (k *sink) announce(id, agent, name, subject, path string, input json.RawMessage, status acp.ToolCallStatus) {
	title := orchestrator.CallTitle(agent, name, subject)
	u := acp.StartToolCall(acp.ToolCallId(id), title,
		acp.WithStartKind(toolKind(name)),
		acp.WithStartStatus(status),
		acp.WithStartLocations(locations(path)),
		acp.WithStartRawInput(rawInput(input)))
	u.ToolCall.Meta = acpconn.Meta{Agent: agent, Tool: name, Subject: subject}.Wire()
	k.send(u)
	if k.open == nil {
		k.open = map[string]openCall{}
	}
	k.open[id] = openCall{title: title, meta: u.ToolCall.Meta}
}

// Consent asks the client: the call is announced (pending), then
// session/request_permission. A request that fails or is cancelled is a
// one-time rejection.
func (k *sink) Consent(ctx context.Context, req orchestrator.ConsentRequest) orchestrator.ConsentAnswer {
	k.mu.Lock()
	id := k.callID(req.Agent, req.ID, req.Tool, req.Subject, false)
	if _, ok := k.open[id]; !ok {
		k.announce(id, req.Agent, req.Tool, req.Subject, req.Path, req.Input, acp.ToolCallStatusPending)
	}
	k.mu.Unlock()

	options := []acp.PermissionOption{
		{Kind: acp.PermissionOptionKindAllowOnce, Name: "Allow once", OptionId: acp.PermissionOptionId(acp.PermissionOptionKindAllowOnce)},
	}
	if req.Always != nil {
		what := req.Always.For
		if req.Agent != "" {
			what = req.Agent + "'s " + what
		}
		options = append(options, acp.PermissionOption{Kind: acp.PermissionOptionKindAllowAlways, Name: "Always allow " + what + " in this session", OptionId: acp.PermissionOptionId(acp.PermissionOptionKindAllowAlways)})
		if req.Always.SaveTo != "" {
			options = append(options, acp.PermissionOption{Kind: acp.PermissionOptionKindAllowAlways, Name: "Always allow " + what + ", saved to " + req.Always.SaveTo, OptionId: optionAllowAlwaysSaved})
		}
	}
	what := req.Tool
	if req.Agent != "" {
		what = req.Agent + "'s " + req.Tool
	}
	options = append(options,
		acp.PermissionOption{Kind: acp.PermissionOptionKindRejectOnce, Name: "Reject", OptionId: acp.PermissionOptionId(acp.PermissionOptionKindRejectOnce)},
		acp.PermissionOption{Kind: acp.PermissionOptionKindRejectAlways, Name: "Never allow " + what + " in this session", OptionId: acp.PermissionOptionId(acp.PermissionOptionKindRejectAlways)})
	resp, err := k.conn.RequestPermission(ctx, acp.RequestPermissionRequest{
		SessionId: k.id,
		ToolCall: acp.ToolCallUpdate{
			ToolCallId: acp.ToolCallId(id),
			Title:      acp.Ptr(orchestrator.CallTitle(req.Agent, req.Tool, req.Subject)),
			Kind:       acp.Ptr(toolKind(req.Tool)),
			Status:     acp.Ptr(acp.ToolCallStatusPending),
			RawInput:   rawInput(req.Input),
			Content:    consentContent(req),
			Locations:  locations(req.Path),
			Meta: acpconn.Meta{Agent: req.Agent, Tool: req.Tool, Subject: req.Subject,
				Detail: req.Detail, Question: req.Question, Along: req.Along, Arguments: req.Arguments, Always: alwaysFor(req)}.Wire(),
		},
		Options: options,
	})
	switch {
	case err != nil:
		return orchestrator.RejectOnce
	case resp.Outcome.Selected == nil:
		// Cancelled: the turn was cancelled, or the client (a parent mm in
		// -p or mm --ask) had nobody to ask.
		return orchestrator.ConsentUnavailable
	}
	switch id := resp.Outcome.Selected.OptionId; {
	case id == optionAllowAlwaysSaved && req.Always != nil && req.Always.SaveTo != "":
		return orchestrator.AllowAlwaysSaved
	case id == optionAllowAlwaysSaved:
		return orchestrator.RejectOnce // not offered
	}
	switch acp.PermissionOptionKind(resp.Outcome.Selected.OptionId) {
	case acp.PermissionOptionKindAllowOnce:
		return orchestrator.AllowOnce
	case acp.PermissionOptionKindAllowAlways:
		return orchestrator.AllowAlways
	case acp.PermissionOptionKindRejectAlways:
		return orchestrator.RejectAlways
	}
	return orchestrator.RejectOnce
}

// alwaysFor is what req's "always" answer allows, for the _meta of its
// permission request: "" when none is offered.
func alwaysFor(req orchestrator.ConsentRequest) string {
	if req.Always == nil {
		return ""
	}
	return req.Always.For
}

// optionAllowAlwaysSaved is the id of the option that allows always and
// saves the rules to the configuration file; the other options' ids are
// their kinds.
const optionAllowAlwaysSaved acp.PermissionOptionId = "allow_always_saved"

// consentContent is what a permission request shows besides its title,
// as a terminal's consent question does: the subject whole, an ask_agent
// call's question and what goes along, a tool's whole arguments, and a
// file's change as ACP's diff, which an editor shows as its own.
func consentContent(req orchestrator.ConsentRequest) []acp.ToolCallContent {
	var text []string
	switch {
	case req.Question != "":
		text = append(text, "To ask "+req.Detail+":", req.Question)
	case req.Detail != "":
		text = append(text, req.Detail)
	}
	if req.Along != "" {
		text = append(text, "["+req.Along+"]")
	}
	if req.Arguments != "" {
		text = append(text, "Arguments: "+req.Arguments)
	}
	var out []acp.ToolCallContent
	if len(text) > 0 {
		out = append(out, acp.ToolContent(acp.TextBlock(strings.Join(text, "\n"))))
	}
	switch c := req.Change; {
	case c == nil:
	case c.Created:
		out = append(out, acp.ToolDiffContent(c.Path, c.New))
	case c.OldSize >= 0:
		out = append(out, acp.ToolContent(acp.TextBlock(fmt.Sprintf("%s is too large to show what is replaced (%d bytes); its new content is %d bytes", c.Path, c.OldSize, len(c.New)))))
	default:
		out = append(out, acp.ToolDiffContent(c.Path, c.New, c.Old))
	}
	return out
}

// promptCommands are the slash commands an editor may send as a prompt:
// what the session's Prompt runs (/ask…, /compact and the person's
// command files).
func promptCommands(s Session) []orchestrator.Command {
	return append(s.Commands(), orchestrator.CompactCommand())
}

// commands advertises the session's slash commands.
func (k *sink) commands(cmds []orchestrator.Command) {
	list := make([]acp.AvailableCommand, 0, len(cmds))
	for _, c := range cmds {
		ac := acp.AvailableCommand{Name: c.Name, Description: c.Description}
		if c.Hint != "" {
			ac.Input = &acp.AvailableCommandInput{Unstructured: &acp.UnstructuredCommandInput{Hint: c.Hint}}
		}
		list = append(list, ac)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.send(acp.SessionUpdate{AvailableCommandsUpdate: &acp.SessionAvailableCommandsUpdate{AvailableCommands: list}})
}

// endTurn closes what the turn left open: calls announced for consent that
// never ran because the turn was cancelled.
func (k *sink) endTurn() {
	k.mu.Lock()
	defer k.mu.Unlock()
	for id, c := range k.open {
		u := acp.UpdateToolCall(acp.ToolCallId(id), acp.WithUpdateStatus(acp.ToolCallStatusFailed))
		u.ToolCallUpdate.Meta = c.meta
		k.send(u)
	}
	k.open = nil
	k.unnamed = nil
	k.spoke = false
}

// send writes one update. It uses the server's context, not the turn's: the
// last updates of a cancelled turn must still reach the client.
func (k *sink) send(u acp.SessionUpdate) {
	if err := k.conn.SessionUpdate(k.ctx, acp.SessionNotification{SessionId: k.id, Update: u}); err != nil {
		k.log.line("mm: session/update: " + err.Error())
	}
}

// callID is a call's ACP id: its own, under the asked agent's chain for a
// relayed call so that ids of different agents cannot meet. A call without
// an id gets one, found again by agent, tool and subject; last forgets it.
func (k *sink) callID(agent, id, name, subject string, last bool) string {
	if id == "" {
		key := agent + "\x00" + name + "\x00" + subject
		id = k.unnamed[key]
		switch {
		case id == "":
			k.seq++
			id = "mm-call-" + strconv.Itoa(k.seq)
			if !last {
				if k.unnamed == nil {
					k.unnamed = map[string]string{}
				}
				k.unnamed[key] = id
			}
		case last:
			delete(k.unnamed, key)
		}
		return id
	}
	if agent != "" {
		return agent + "/" + id
	}
	return id
}

// locations points the editor at the file a file tool works on: the path
// the tool resolved, never a second reading of its input.
func locations(path string) []acp.ToolCallLocation {
	if path == "" {
		return nil
	}
	return []acp.ToolCallLocation{{Path: path}}
}

// toolKind is the ACP kind of a tool, for the editor's icon.
func toolKind(name string) acp.ToolKind {
	switch name {
	case "bash":
		return acp.ToolKindExecute
	case "read_file":
		return acp.ToolKindRead
	case "write_file", "edit_file":
		return acp.ToolKindEdit
	case "ask_agent":
		return acp.ToolKindThink
	}
	return acp.ToolKindOther
}

// rawInput is a call's input for rawInput: as JSON when it is JSON, and
// absent when empty.
func rawInput(in json.RawMessage) any {
	switch {
	case len(in) == 0:
		return nil
	case !json.Valid(in):
		return string(in)
	}
	return in
}
