package orchestrator

import (
	"context"
	"errors"
	"sync"

	"golang.org/x/sync/semaphore"

	"github.com/mm-agent/mm/internal/agentproc"
	"github.com/mm-agent/mm/internal/handoff"
	"github.com/mm-agent/mm/internal/mmconfigs"
)

// maxConcurrentAsks bounds hand-offs to different agents running at once.
const maxConcurrentAsks = 8

// askers keeps the asked agents of a session, each kept for the session:
// a child agent (agentproc.Agent owns its process's life), or an agent
// over A2A. Hand-offs to one agent wait for each other, hand-offs to
// different agents run concurrently.
type askers struct {
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

func newAskers() *askers {
	return &askers{sem: semaphore.NewWeighted(maxConcurrentAsks), agents: map[string]*agentproc.Agent{}, a2a: map[string]*askedA2A{}}
}

// errClosing is a hand-off that comes once the session is closing.
var errClosing = errors.New("the session is closing")

// child is the asked agent name that runs as a child process, idle until
// its first prompt.
func (a *askers) child(name string) (*agentproc.Agent, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return nil, errClosing
	}
	ag := a.agents[name]
	if ag == nil {
		ag = agentproc.New()
		a.agents[name] = ag
	}
	return ag, nil
}

// remote is the asked agent name served over A2A, not connected until its
// first prompt.
func (a *askers) remote(name string) (*askedA2A, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return nil, errClosing
	}
	ag := a.a2a[name]
	if ag == nil {
		ag = &askedA2A{}
		a.a2a[name] = ag
	}
	return ag, nil
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

// prompt sends msg to the asked agent, starting it if need be, and
// returns its answer as it read back. The agent's answer, tool calls and
// consent questions reach the person through h as they come.
func (h *handOff) prompt(ctx context.Context, msg string) (string, error) {
	asks := h.s.asks
	if err := asks.sem.Acquire(ctx, 1); err != nil {
		return "", err
	}
	defer asks.sem.Release(1)
	if h.entry.Kind == mmconfigs.AgentA2A {
		ag, err := asks.remote(h.agent)
		if err != nil {
			return "", err
		}
		return h.promptA2A(ctx, ag, msg)
	}
	ag, err := asks.child(h.agent)
	if err != nil {
		return "", err
	}
	ctx, done := h.relayed(ctx)
	defer done()
	err = ag.Prompt(ctx, msg, h)
	return h.streamed.String(), h.bounded(err)
}

// promptA2A is prompt for an agent served over A2A: nothing to start, a
// connection kept for the session. Its A2A context is the asked agent's
// session, kept (and saved) as any asked agent's is, so that a resumed
// session goes on with the same conversation there.
func (h *handOff) promptA2A(ctx context.Context, ag *askedA2A, msg string) (string, error) {
	s, name := h.s, h.agent
	ag.mu.Lock()
	defer ag.mu.Unlock()
	if ag.agent == nil {
		if s.connectA2A == nil {
			return "", errNoA2A(name)
		}
		token, err := a2aToken(name, h.entry, envMap(s.environ))
		if err != nil {
			return "", err
		}
		p, err := s.connectA2A(A2AOptions{Name: name, URL: s.expander()(h.entry.URL), Token: token, TokenEnv: h.entry.TokenEnv,
			ContextID: s.history.askedSession(name)})
		if err != nil {
			return "", err
		}
		ag.agent = p
	}
	ctx, done := h.relayed(ctx)
	defer done()
	err := ag.agent.Prompt(ctx, msg, func(chunk string) { h.Text("", chunk) })
	if id := ag.agent.ContextID(); id != "" {
		s.history.setAskedSession(name, id)
	}
	return h.streamed.String(), h.bounded(err)
}

// relayed readies the relay of the agent's answer, and returns the
// context the agent is asked in: cancelled when the answer passes its hard
// bound, and by done.
func (h *handOff) relayed(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	h.streamed, h.stop = handoff.NewAnswer(h.s.answerKeep, h.s.answerHard), cancel
	return ctx, cancel
}
