package agentproc

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// DefaultGrace is how long a cancelled prompt, or a child told to stop, may
// take before its process group is killed.
const DefaultGrace = 2 * time.Second

// DefaultStartTimeout bounds a child's start: initialize, then session/load
// or session/new.
// A child that has not answered by then is not an ACP agent, or is stuck
// (an ssh waiting for a password nobody types); it is stopped. An mm
// answers in milliseconds, an agent on npm in a few seconds.
const DefaultStartTimeout = 30 * time.Second

// Options say which child to start and how.
type Options struct {
	// Name is the agent's name in mmConfigs, for errors.
	Name string
	// Bin is the mm binary to run.
	Bin string
	// Config is the asked agent's configuration file, absolute.
	Config string
	// Command, when set, is the child's program and arguments instead of
	// "Bin -acp --config Config": any ACP agent (ssh for a remote mm, see
	// SSHCommand). Bin and Config are then unused.
	Command []string
	// IsMM says Command starts an mm (this binary, by command): like a
	// child by Bin and Config, it kills its own descendants when it dies,
	// so mm's watchdog need not watch it.
	IsMM bool
	// Host is the ssh destination when Command runs ssh: errors name the
	// agent with it ("expert" (ssh me@host)).
	Host string
	// Cwd is the session's working directory: its ACP session's cwd, and
	// the child's unless Dir is set.
	Cwd string
	// Dir is the child's working directory; "" for Cwd.
	Dir string
	// Environ is the child's complete environment.
	Environ []string
	// Grace is how long a cancelled prompt or a closing child may take to
	// stop before it is killed; 0 means DefaultGrace.
	Grace time.Duration
	// StartTimeout bounds initialize and session/load or session/new; 0
	// means DefaultStartTimeout.
	StartTimeout time.Duration
	// Session is the ACP session id of an earlier session of this agent to
	// go on with: the child is asked to load it (session/load) when it is
	// an mm and loads sessions, and a new session is opened when it cannot
	// (see Handler.Warn). "": a new session.
	Session string
}

// label names the agent in errors: "expert", or "expert" (ssh me@host).
func (o Options) label() string {
	if o.Host != "" {
		return fmt.Sprintf("%q (ssh %s)", o.Name, o.Host)
	}
	return fmt.Sprintf("%q", o.Name)
}

// foreign reports whether the child is an ACP agent other than mm: by
// command, neither this mm nor ssh to one.
func (o Options) foreign() bool { return len(o.Command) > 0 && !o.IsMM && o.Host == "" }

// Agent is one asked agent for as long as its owner keeps it: its child
// process, started on the first prompt and started again on the prompt
// after it died or was stopped (see Prompt), and its ACP session, which a
// new child goes on with where it can. How to start a child, and where its
// session id is kept, are the Handler's of the prompt that starts it. One mutex guards its state; a
// start, a prompt and a stop each hold it throughout, so they run one at
// a time, in the order asked.
type Agent struct {
	mu     sync.Mutex
	p      *process // the child: nil while idle
	closed bool
}

// state is where an Agent is between prompts. A start runs within a
// prompt, under the mutex: nobody else sees an Agent starting.
type state int

const (
	idle   state = iota // no child: none yet, or it was stopped, or its start failed
	ready               // a child with its session, waiting for a prompt
	dead                // the child exited since the last prompt: crashed or killed
	closed              // Close was called: no child, and none will start
)

// state is the Agent's state; a.mu is held.
func (a *Agent) state() state {
	switch {
	case a.closed:
		return closed
	case a.p == nil:
		return idle
	case a.p.hasExited():
		return dead
	}
	return ready
}

// New is an idle Agent: nothing starts before its first prompt.
func New() *Agent { return &Agent{} }

// Start is an Agent of opts, its child started now and its ACP session
// open in opts.Cwd. ctx bounds the start only; a later start is the
// Handler's of the prompt that needs it.
func Start(ctx context.Context, opts Options) (*Agent, error) {
	a := New()
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := a.startOf(ctx, opts, func(string) {}); err != nil {
		return nil, err
	}
	return a, nil
}

// Probe starts the child, asks it initialize, and stops it: mm check. It
// returns who answered ("gemini-cli 0.9.0", "" when it does not say).
func Probe(ctx context.Context, opts Options) (string, error) {
	p, err := launch(opts)
	if err != nil {
		return "", err
	}
	defer p.close()
	if err := p.handshake(ctx, opts.Cwd, false, ""); err != nil {
		return "", err
	}
	return p.info, nil
}

// Prompt sends text as one prompt and reports what the child does to h
// until it has answered. A stop reason other than end_turn, a JSON-RPC error
// or the child's death is an error naming the agent. When ctx ends first,
// the child is asked to cancel (session/cancel) and is killed if it has not
// stopped within the grace; the error then wraps ctx.Err().
//
// The rules of the child's life, all here:
//   - it is started on the first prompt, or on the first one after it died
//     (crashed, or was killed) or was stopped: once per prompt, which fails
//     when the start does; the prompt it died in is not sent again;
//   - a cancelled prompt stops it (it may be mid-turn);
//   - a start is of the options h gives (Handler.Options), and goes on with
//     their Session when the child is an mm (here or over ssh) that loads
//     it; h.Warn is told when it does not;
//   - after a prompt it lived through, h.Answered is told its session.
//
// Prompts are sent one at a time; h is not called once Prompt has returned.
func (a *Agent) Prompt(ctx context.Context, text string, h Handler) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch a.state() {
	case closed:
		return fmt.Errorf("agent %s was closed", h.Options(ctx).label())
	case dead:
		a.stop()
		fallthrough
	case idle:
		if err := a.start(ctx, h); err != nil {
			return err
		}
	}
	p := a.p
	err := p.prompt(ctx, text, h)
	if !p.hasExited() {
		// It holds the question in its session: a later start goes on
		// with it. One that died during the prompt may hold nothing.
		h.Answered(string(p.session))
	}
	if err != nil && ctx.Err() != nil {
		a.stop()
	}
	return err
}

// start starts a child of the options h gives and opens its session;
// a.mu is held.
func (a *Agent) start(ctx context.Context, h Handler) error {
	return a.startOf(ctx, h.Options(ctx), h.Warn)
}

// startOf starts a child of opts and opens its session, warn told what
// the start could not do; a.mu is held.
func (a *Agent) startOf(ctx context.Context, opts Options, warn func(string)) error {
	earlier := opts.Session
	if earlier != "" && opts.foreign() {
		// Only an mm is asked to load: the protocol has the replay come
		// before session/load's answer, and Gemini CLI sends it after,
		// where it would read as the answer to the next question.
		warn(fmt.Sprintf("%s starts a new session, without its earlier history: mm asks only an mm to load its earlier session", opts.Name))
		earlier = ""
	}
	p, err := startProcess(ctx, opts, earlier)
	if err != nil {
		return err
	}
	a.p = p
	if p.notLoaded != "" {
		warn(fmt.Sprintf("%s could not go on with its session %s (%s): it starts a new one, without its earlier history", opts.Name, earlier, p.notLoaded))
	}
	return nil
}

// stop stops the child, if any, and leaves the Agent idle; a.mu is held.
func (a *Agent) stop() {
	if a.p != nil {
		a.p.close()
		a.p = nil
	}
}

// Close stops the child, after the prompt under way (see process.close
// for how), and starts none again: a later Prompt fails.
func (a *Agent) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.stop()
	a.closed = true
	return nil
}
