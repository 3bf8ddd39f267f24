package a2aagent

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
)

// CardPath is where an A2A agent serves its card, below its URL.
const CardPath = "/.well-known/agent-card.json"

// cancelGrace is how long tasks/cancel may take once a question is
// cancelled: the agent is told, but a hand-off cut short does not wait on
// a server that no longer answers.
const cancelGrace = 2 * time.Second

// Options say which agent to ask and how.
type Options struct {
	// Name is the agent's name in mmConfigs, for errors.
	Name string
	// URL is the agent's base URL, where its card is found.
	URL string
	// Token is sent as "Authorization: Bearer <token>" when not "";
	// TokenEnv names the variable it came from, for errors.
	Token, TokenEnv string
	// Client makes the requests; nil: a client of the Agent's own.
	Client *http.Client
	// ContextID is the A2A context to go on with (a resumed session's);
	// "": the agent starts one at the first question.
	ContextID string
}

// Agent is one A2A agent as one mm session asks it: its card, read once,
// and the A2A context its questions share.
type Agent struct {
	opts   Options
	client *http.Client
	own    *http.Transport // the client's transport when it is the Agent's own
	// requests numbers the Agent's JSON-RPC requests.
	requests atomic.Int64

	mu        sync.Mutex
	card      *a2a.AgentCard
	endpoint  string // where JSON-RPC requests go
	contextID string
}

// New prepares an agent; it sends nothing until the first Prompt.
func New(opts Options) (*Agent, error) {
	u, err := url.Parse(opts.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("agent %q: a2a: %q is not an http:// or https:// URL", opts.Name, opts.URL)
	}
	a := &Agent{opts: opts, contextID: opts.ContextID}
	if opts.Client != nil {
		c := *opts.Client // its transport shared; its redirects mm's
		a.client = &c
	} else {
		a.own = http.DefaultTransport.(*http.Transport).Clone()
		a.client = &http.Client{Transport: a.own}
	}
	a.client.CheckRedirect = a.checkRedirect
	return a, nil
}

// ContextID is the A2A context the agent's answers were given in; "" until
// the first answer.
func (a *Agent) ContextID() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.contextID
}

// Card is the agent card, once read; nil before the first Prompt.
func (a *Agent) Card() *a2a.AgentCard {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.card
}

// ReadCard reads the agent card, if it was not yet, and returns it.
func (a *Agent) ReadCard(ctx context.Context) (*a2a.AgentCard, error) {
	if err := a.readCard(ctx); err != nil {
		return nil, err
	}
	return a.Card(), nil
}

// Describe reads the agent card, if it was not yet, and returns who the
// agent says it is: "<name> <version>" (mm check).
func (a *Agent) Describe(ctx context.Context) (string, error) {
	card, err := a.ReadCard(ctx)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(card.Name + " " + card.Version), nil
}

// Prompt sends text as one message and returns once the agent's task has
// ended: nil when it completed; each piece of the answer goes to onText as
// it arrives. A task the agent fails, rejects or leaves waiting for input
// or authentication is an error naming the agent and the state. When ctx
// ends first, the task is cancelled on the agent and ctx's error returned.
func (a *Agent) Prompt(ctx context.Context, text string, onText func(string)) error {
	if err := a.readCard(ctx); err != nil {
		return err
	}
	msg := a2a.NewMessage(a2a.MessageRoleUser, a2a.TextPart{Text: text})
	msg.ContextID = a.ContextID()
	blocking := true
	params := &a2a.MessageSendParams{Message: msg, Config: &a2a.MessageSendConfig{
		AcceptedOutputModes: []string{"text/plain"}, Blocking: &blocking}}
	t := &task{a: a, onText: onText}
	var err error
	if a.Card().Capabilities.Streaming {
		err = a.stream(ctx, params, t)
	} else {
		err = a.send(ctx, params, t)
	}
	if ctx.Err() != nil {
		a.cancel(t.id)
		return ctx.Err()
	}
	if err != nil {
		return err
	}
	return t.outcome()
}

// Close lets go of the agent's idle connections. The agent's A2A context
// is left as it is: A2A has no call that ends one.
func (a *Agent) Close() error {
	if a.own != nil {
		a.own.CloseIdleConnections()
	}
	return nil
}

// cancel tells the agent to cancel task id, if one was started: a question
// cancelled before the agent said which task it is cannot be cancelled
// there (the stream's end is all the agent learns).
func (a *Agent) cancel(id a2a.TaskID) {
	if id == "" {
		return
	}
	ctx, stop := context.WithTimeout(context.Background(), cancelGrace)
	defer stop()
	var ignored a2a.Task
	_ = a.call(ctx, "tasks/cancel", &a2a.TaskIDParams{ID: id}, &ignored)
}

// errorf is an error about the agent: `agent "reviewer": …`.
func (a *Agent) errorf(format string, args ...any) error {
	return fmt.Errorf("agent %q: "+format, append([]any{a.opts.Name}, args...)...)
}

// transportError names what a request that got no answer could not do.
func (a *Agent) transportError(err error) error {
	if re, ok := redirectError(err); ok {
		return re
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return a.errorf("cannot reach %s: %v: is the agent running?", a.opts.URL, err)
}

// statusError is a request the agent's server refused with an HTTP status.
func (a *Agent) statusError(what string, resp *http.Response) error {
	switch resp.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden:
		if a.opts.Token == "" {
			hint := "give it one with tokenEnv: in its mmConfigs entry"
			if a.opts.TokenEnv != "" {
				hint = "$" + a.opts.TokenEnv + " is empty: set it to the agent's token"
			}
			return a.errorf("%s: %s: the agent needs a token; %s", what, resp.Status, hint)
		}
		return a.errorf("%s: %s: the agent refused the token in $%s: check it", what, resp.Status, a.opts.TokenEnv)
	}
	return a.errorf("%s: %s%s", what, resp.Status, bodyQuote(resp))
}

// authorize adds the bearer token to req.
func (a *Agent) authorize(req *http.Request) {
	if a.opts.Token != "" {
		req.Header.Set("Authorization", "Bearer "+a.opts.Token)
	}
}

// joinURL is base with path below it.
func joinURL(base, path string) string {
	return strings.TrimSuffix(base, "/") + path
}
