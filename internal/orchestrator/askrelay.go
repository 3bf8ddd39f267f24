package orchestrator

import (
	"cmp"
	"context"
	"strings"

	"github.com/mm-agent/mm/internal/agentproc"
	"github.com/mm-agent/mm/internal/handoff"
	"github.com/mm-agent/mm/internal/tools"
	"github.com/mm-agent/mm/internal/tracing"
)

// A hand-off is the agentproc.Handler of the prompt it sends: how to start
// the asked agent, what its start could not do, the session it holds the
// answer in, and what it does while it answers, relayed to the asking
// session's person.
var _ agentproc.Handler = (*handOff)(nil)

// Options is how to start the asked agent: its options (agents.go), the
// session it answered in before, so that a new child, or a resumed
// session's, goes on with it, and the hand-off's trace in its environment.
func (h *handOff) Options(ctx context.Context) agentproc.Options {
	s := h.s
	opts := s.agentOptions(h.agent, h.entry)
	// The agents of a session that is not saved save nothing (see
	// childEnv): there is nothing to go on with.
	if s.history.saved() {
		opts.Session = s.history.askedSession(h.agent)
	}
	// The child's own spans (its start) join the trace; each prompt then
	// carries the hand-off's in its _meta.
	opts.Environ = tracing.Environ(ctx, opts.Environ)
	return opts
}

// Warn shows that the asked agent starts without its earlier history.
func (h *handOff) Warn(text string) { h.s.sink.Emit(Notice{Kind: NoticeWarning, Text: text}) }

// Answered keeps (and saves) the session the asked agent answered in.
func (h *handOff) Answered(session string) { h.s.history.setAskedSession(h.agent, session) }

// seenCall is what the relay knows of one tool call.
type seenCall struct {
	name, subject string
	byMeta        bool // named by an mm's _meta, not by ACP's kind and title
	started       bool
}

// see records what u says of its call and returns the call's name: by
// mm's _meta (tool, subject) when the agent is an mm, else by ACP's kind
// and title. started marks the call shown started; wasStarted says it had
// been before.
func (h *handOff) see(agent string, u agentproc.ToolUpdate, started bool) (name, subject string, wasStarted bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.calls == nil {
		h.calls = map[string]*seenCall{}
	}
	key := agent + "\x00" + u.ID
	c := h.calls[key]
	if c == nil {
		c = &seenCall{}
		h.calls[key] = c
	}
	switch {
	case u.Tool != "":
		c.name, c.subject, c.byMeta = u.Tool, u.Subject, true
	case !c.byMeta && (u.Kind != "" || u.Title != ""):
		// An update may change the title or the kind: the latest is kept.
		if u.Kind != "" {
			c.name = u.Kind
		}
		if u.Title != "" {
			c.subject = u.Title
		}
	}
	if c.name == "" {
		c.name = "tool"
	}
	wasStarted = c.started
	c.started = c.started || started
	return c.name, c.subject, wasStarted
}

// chain names the agent something came from, seen from the asking session.
func (h *handOff) chain(below string) string {
	if below == "" {
		return h.agent
	}
	return h.agent + "/" + below
}

// Text shows a piece of text of the asked agent, or of an agent below it;
// the asked agent's own is kept as its answer, within its bounds.
func (h *handOff) Text(agent, chunk string) {
	if agent == "" {
		if h.streamed.Passed() {
			return // what comes while the agent is being stopped
		}
		sep := h.toolSince && h.streamed.Len() > 0 && !h.streamed.EndsLine()
		h.toolSince = false
		if (sep && !h.streamed.Write("\n")) || !h.streamed.Write(chunk) {
			h.stop()
			return
		}
	}
	h.s.sink.Emit(Text{Agent: h.chain(agent), Text: chunk})
}

// ToolCall shows a tool call of the asked agent, or of an agent below it,
// as it starts and ends.
func (h *handOff) ToolCall(u agentproc.ToolUpdate) {
	if u.Hook {
		return // the asked agent's own hook runs: listed there, not here
	}
	if u.Agent == "" {
		h.toolSince = true
	}
	agent := h.chain(u.Agent)
	ended := u.Status == agentproc.StatusCompleted || u.Status == agentproc.StatusFailed
	name, subject, wasStarted := h.see(agent, u, u.Status == agentproc.StatusInProgress || ended)
	sink := h.s.sink
	switch {
	case u.Status == agentproc.StatusInProgress:
		// A call is announced pending while it waits for consent; it starts
		// when it runs.
		if !wasStarted {
			sink.Emit(ToolStarted{Agent: agent, ID: u.ID, Name: name, Subject: subject, Input: u.Input})
		}
	case ended:
		if !wasStarted && u.DeniedBy == "" {
			// An agent may go from pending to done at once: the call is
			// shown started all the same.
			sink.Emit(ToolStarted{Agent: agent, ID: u.ID, Name: name, Subject: subject, Input: u.Input})
		}
		status := ToolCompleted
		switch {
		case u.DeniedBy != "":
			status = ToolDenied
		case u.Status == agentproc.StatusFailed:
			status = ToolFailed
		}
		summary := ""
		if status != ToolCompleted {
			summary = firstLine(u.Output)
		}
		sink.Emit(ToolEnded{Agent: agent, ID: u.ID, Name: name, Subject: subject, Status: status, Output: u.Output, Summary: summary, DeniedBy: u.DeniedBy})
	}
}

// Permission asks the asking session's person about a tool call of the
// asked agent, or of an agent below it.
func (h *handOff) Permission(ctx context.Context, req agentproc.PermissionRequest) agentproc.PermissionAnswer {
	agent := h.chain(req.Agent)
	tool, subject, _ := h.see(agent, agentproc.ToolUpdate{ID: req.ID, Tool: req.Tool, Subject: req.Subject, Title: req.Title, Kind: req.Kind}, false)
	ans := h.s.sink.Consent(ctx, relayedConsent(agent, tool, subject, req))
	if ans == ConsentUnavailable && req.Tool == "" && ctx.Err() == nil {
		// An mm child shows its own refusal; another agent may report no
		// call it did not run (Gemini CLI does not), so mm says it here.
		h.s.sink.Emit(ToolEnded{Agent: agent, ID: req.ID, Name: tool, Subject: subject, Status: ToolDenied,
			Summary: "[refused: nobody can approve it here: ask from the line mode or the window, or let the agent run it unasked by its own settings]"})
	}
	switch ans {
	case AllowOnce:
		return agentproc.AllowOnce
	case AllowAlways, AllowAlwaysSaved:
		// Not offered for an asked agent's call (no file of this agent's
		// holds its rules): taken as always.
		return agentproc.AllowAlways
	case RejectOnce:
		return agentproc.RejectOnce
	case RejectAlways:
		return agentproc.RejectAlways
	}
	return agentproc.Refused
}

// relayedConsent is the consent question of an asked agent's call: what
// the agent's own consent question shows when it is an mm (never a second
// reading of the call's input here); for another agent, its title, and the
// whole input, since mm cannot know what its tool acts on. A file change
// the agent sent is shown as a diff either way.
func relayedConsent(agent, tool, subject string, req agentproc.PermissionRequest) ConsentRequest {
	c := ConsentRequest{Agent: agent, ID: req.ID, Tool: tool, Subject: subject, Input: req.Input,
		Detail: req.Detail, Question: req.Question, Along: req.Along, Arguments: req.Arguments}
	if req.Tool == "" {
		c.Detail = subject
		c.Arguments = tools.Arguments(req.Input)
	}
	if !req.NoAlways {
		// The agent's own "always": its rules are its own (an mm child
		// adds them to its session); this person cannot save them.
		c.Always = &AlwaysOffer{For: cmp.Or(req.Always, tool)}
	}
	if d := req.Diff; d != nil {
		c.Path = d.Path
		c.Change = &tools.Change{Path: d.Path, Old: d.Old, Created: d.Created, OldSize: -1, New: d.New}
	}
	return c
}

// bounded is the prompt's error: the hard bound's, when the answer passed
// it (the agent was stopped for it), else err.
func (h *handOff) bounded(err error) error {
	if h.streamed.Passed() {
		return &handoff.AnswerTooLongError{Agent: h.agent, Limit: h.s.answerHard}
	}
	return err
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
