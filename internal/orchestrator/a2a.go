package orchestrator

import (
	"context"
	"fmt"
)

// A2AAgent is an agent served over A2A (mmConfigs a2a:) as one session
// asks it: a2aagent.Agent. The orchestrator holds it through this
// interface, and is given the client as an A2AConnector, so that the A2A
// SDK is imported by a2aagent alone (internal/archtest).
type A2AAgent interface {
	// Prompt sends text as one message and returns once the agent's task
	// has ended, each piece of the answer going to onText as it arrives.
	Prompt(ctx context.Context, text string, onText func(string)) error
	// ContextID is the A2A context the answers were given in; "" until
	// the first.
	ContextID() string
	// Describe reads the agent's card: "<name> <version>" as it says
	// (mm check).
	Describe(ctx context.Context) (string, error)
	// Close lets go of the agent's connections.
	Close() error
}

// A2AOptions say which agent to ask over A2A, and how.
type A2AOptions struct {
	// Name is the agent's name in mmConfigs, for errors.
	Name string
	// URL is the agent's base URL, $VAR expanded.
	URL string
	// Token is sent as a bearer token when not ""; TokenEnv names the
	// variable it came from, for errors.
	Token, TokenEnv string
	// ContextID is the A2A context to go on with (a resumed session's).
	ContextID string
}

// A2AConnector prepares an agent asked over A2A; it sends nothing until
// the first Prompt or Describe (a2aagent.New, given by the command line).
type A2AConnector func(A2AOptions) (A2AAgent, error)

// errNoA2A is the error of an agent over A2A that a session given no A2A
// client (a test's) was asked.
func errNoA2A(name string) error {
	return fmt.Errorf("agent %q: this session has no A2A client", name)
}
