package orchestrator

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"golang.org/x/sync/semaphore"

	"github.com/mm-agent/mm/agentproc"
	"github.com/mm-agent/mm/handoff"
	"github.com/mm-agent/mm/internal/tracing"
	"github.com/mm-agent/mm/mmconfigs"
	"github.com/mm-agent/mm/tools"
)

// maxConcurrentAsks bounds hand-offs to different agents running at once.
const maxConcurrentAsks = 8

// askers keeps the asked agents of a session, each kept for the session:
// a child agent (agentproc.Agent owns its process's life), or an agent
// over A2A. Hand-offs to one agent wait for each other, hand-offs to
// different agents run concurrently.
type askers struct {
	s   *Session
	sem *semaphore.Weighted

	mu     sync.Mutex
	agents map[string]*agentproc.Agent
	a2a    map[string]*askedA2A
	closed bool
}

// askedA2A is an agent asked over A2A (mmConfigs a2a:), connected on its
// first hand-off.
type askedA2A struct {
	mu    sync.Mutex // one hand-off at a time
	agent A2AAgent
}

func newAskers(s *Session) *askers {
	return &askers{s: s, sem: semaphore.NewWeighted(maxConcurrentAsks), agents: map[string]*agentproc.Agent{}, a2a: map[string]*askedA2A{}}
}

// prompt sends msg to the agent name, starting it if needed, and returns
// its answer as it read back.
func (a *askers) prompt(ctx context.Context, name string, agent mmconfigs.Agent, msg string) (string, error) {
	if err := a.sem.Acquire(ctx, 1); err != nil {
		return "", err
	}
	defer a.sem.Release(1)

	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return "", errors.New("the session is closing")
	}
	if agent.Kind == mmconfigs.AgentA2A {
		ag := a.a2a[name]
		if ag == nil {
			ag = &askedA2A{}
			a.a2a[name] = ag
		}
		a.mu.Unlock()
		return a.promptA2A(ctx, ag, name, agent, msg)
	}
	ag := a.agents[name]
	if ag == nil {
		ag = agentproc.New(a.owner(name, agent))
		a.agents[name] = ag
	}
	a.mu.Unlock()

	ctx, h, done := a.newRelay(ctx, name)
	defer done()
	err := ag.Prompt(ctx, msg, h)
	return h.answer.String(), h.outcome(err)
}

// owner is what the child agent name is told of its session: how to start
// it, where its warnings go, and where its session id is kept (and saved),
// so that a new child, or a resumed session's, goes on with it.
func (a *askers) owner(name string, agent mmconfigs.Agent) agentproc.Owner {
	return agentproc.Owner{
		Options: func(ctx context.Context) agentproc.Options {
			opts := a.s.agentOptions(name, agent)
			// The agents of a session that is not saved save nothing (see
			// childEnv): there is nothing to go on with.
			if a.s.saved() {
				opts.Session = a.s.askedSession(name)
			}
			// The child's own spans (its start) join the trace; each prompt
			// then carries the hand-off's in its _meta.
			opts.Environ = tracing.Environ(ctx, opts.Environ)
			return opts
		},
		Warn:     func(text string) { a.s.sink.Emit(Notice{Kind: NoticeWarning, Text: text}) },
		Answered: func(id string) { a.s.setAskedSession(name, id) },
	}
}

// promptA2A is prompt for an agent served over A2A: nothing to start, a
// connection kept for the session. Its A2A context is the asked agent's
// session, kept (and saved) as any asked agent's is, so that a resumed
// session goes on with the same conversation there.
func (a *askers) promptA2A(ctx context.Context, ag *askedA2A, name string, agent mmconfigs.Agent, msg string) (string, error) {
	ag.mu.Lock()
	defer ag.mu.Unlock()
	if ag.agent == nil {
		if a.s.connectA2A == nil {
			return "", errNoA2A(name)
		}
		token := ""
		if agent.TokenEnv != "" {
			token = envMap(a.s.environ)[agent.TokenEnv]
			if token == "" {
				return "", fmt.Errorf("agent %q: $%s is empty: set it to the agent's token (tokenEnv: in its mmConfigs entry)", name, agent.TokenEnv)
			}
		}
		p, err := a.s.connectA2A(A2AOptions{Name: name, URL: a.s.expander()(agent.URL), Token: token, TokenEnv: agent.TokenEnv,
			ContextID: a.s.askedSession(name)})
		if err != nil {
			return "", err
		}
		ag.agent = p
	}
	ctx, h, done := a.newRelay(ctx, name)
	defer done()
	err := ag.agent.Prompt(ctx, msg, func(chunk string) { h.Text("", chunk) })
	if id := ag.agent.ContextID(); id != "" {
		a.s.setAskedSession(name, id)
	}
	return h.answer.String(), h.outcome(err)
}

// newRelay is the relay of one hand-off to name, and the context the
// agent is asked in: cancelled when the answer passes its hard bound.
func (a *askers) newRelay(ctx context.Context, name string) (context.Context, *relay, func()) {
	ctx, cancel := context.WithCancel(ctx)
	h := &relay{s: a.s, agent: name, answer: handoff.NewAnswer(a.s.answerKeep, a.s.answerHard), stop: cancel}
	return ctx, h, cancel
}

// closeAll stops every asked agent.
func (a *askers) closeAll() error {
	a.mu.Lock()
	a.closed = true
	agents, remote := a.agents, a.a2a
	a.agents, a.a2a = map[string]*agentproc.Agent{}, map[string]*askedA2A{}
	a.mu.Unlock()
	var wg sync.WaitGroup
	errs := make([]error, 0, len(agents))
	var emu sync.Mutex
	for _, ag := range agents {
		wg.Go(func() {
			if err := ag.Close(); err != nil {
				emu.Lock()
				errs = append(errs, err)
				emu.Unlock()
			}
		})
	}
	for _, ag := range remote {
		wg.Go(func() {
			ag.mu.Lock()
			defer ag.mu.Unlock()
			if ag.agent != nil {
				ag.agent.Close()
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// relay passes what an asked agent does to the asking session's person.
type relay struct {
	s     *Session
	agent string
	// answer is what is kept of the agent's answer; stop ends the
	// hand-off once it passed its hard bound.
	answer *handoff.Answer
	stop   func()
	// toolSince says one of the agent's own tool calls came after its last
	// text: the next text is another model call's, on a line of its own.
	toolSince bool
	// calls are the tool calls seen, by chain and id: an update need not
	// repeat what the call is, and an agent other than mm says it only
	// with ACP's title and kind. Permission runs beside ToolCall: mu.
	mu    sync.Mutex
	calls map[string]*seenCall
}

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
func (r *relay) see(agent string, u agentproc.ToolUpdate, started bool) (name, subject string, wasStarted bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.calls == nil {
		r.calls = map[string]*seenCall{}
	}
	key := agent + "\x00" + u.ID
	c := r.calls[key]
	if c == nil {
		c = &seenCall{}
		r.calls[key] = c
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
func (r *relay) chain(below string) string {
	if below == "" {
		return r.agent
	}
	return r.agent + "/" + below
}

func (r *relay) Text(agent, chunk string) {
	if agent == "" {
		if r.answer.Passed() {
			return // what comes while the agent is being stopped
		}
		sep := r.toolSince && r.answer.Len() > 0 && !r.answer.EndsLine()
		r.toolSince = false
		if (sep && !r.answer.Write("\n")) || !r.answer.Write(chunk) {
			r.stop()
			return
		}
	}
	r.s.sink.Emit(Text{Agent: r.chain(agent), Text: chunk})
}

func (r *relay) ToolCall(u agentproc.ToolUpdate) {
	if u.Hook {
		return // the asked agent's own hook runs: listed there, not here
	}
	if u.Agent == "" {
		r.toolSince = true
	}
	agent := r.chain(u.Agent)
	ended := u.Status == agentproc.StatusCompleted || u.Status == agentproc.StatusFailed
	name, subject, wasStarted := r.see(agent, u, u.Status == agentproc.StatusInProgress || ended)
	switch {
	case u.Status == agentproc.StatusInProgress:
		// A call is announced pending while it waits for consent; it starts
		// when it runs.
		if !wasStarted {
			r.s.sink.Emit(ToolStarted{Agent: agent, ID: u.ID, Name: name, Subject: subject, Input: u.Input})
		}
	case ended:
		if !wasStarted && u.DeniedBy == "" {
			// An agent may go from pending to done at once: the call is
			// shown started all the same.
			r.s.sink.Emit(ToolStarted{Agent: agent, ID: u.ID, Name: name, Subject: subject, Input: u.Input})
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
		r.s.sink.Emit(ToolEnded{Agent: agent, ID: u.ID, Name: name, Subject: subject, Status: status, Output: u.Output, Summary: summary, DeniedBy: u.DeniedBy})
	}
}

func (r *relay) Permission(ctx context.Context, req agentproc.PermissionRequest) agentproc.PermissionAnswer {
	agent := r.chain(req.Agent)
	tool, subject, _ := r.see(agent, agentproc.ToolUpdate{ID: req.ID, Tool: req.Tool, Subject: req.Subject, Title: req.Title, Kind: req.Kind}, false)
	ans := r.s.sink.Consent(ctx, relayedConsent(agent, tool, subject, req))
	if ans == ConsentUnavailable && req.Tool == "" && ctx.Err() == nil {
		// An mm child shows its own refusal; another agent may report no
		// call it did not run (Gemini CLI does not), so mm says it here.
		r.s.sink.Emit(ToolEnded{Agent: agent, ID: req.ID, Name: tool, Subject: subject, Status: ToolDenied,
			Summary: "[refused: nobody can approve it here: ask from the line mode or the window, or let the agent run it unasked by its own settings]"})
	}
	switch ans {
	case AllowOnce:
		return agentproc.AllowOnce
	case AllowAlways:
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
	if d := req.Diff; d != nil {
		c.Path = d.Path
		c.Change = &tools.Change{Path: d.Path, Old: d.Old, Created: d.Created, OldSize: -1, New: d.New}
	}
	return c
}

// outcome is the hand-off's error: the hard bound's, when the answer
// passed it (the agent was stopped for it), else err.
func (r *relay) outcome(err error) error {
	if r.answer.Passed() {
		return &handoff.AnswerTooLongError{Agent: r.agent, Limit: r.s.answerHard}
	}
	return err
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
