package main

import (
	"context"
	"net"

	"github.com/mm-agent/mm/cmd/mm/cli"
	"github.com/mm-agent/mm/internal/a2aagent"
	"github.com/mm-agent/mm/internal/frontend/a2a"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// connectA2A is cli.Features.A2A: a2aagent's client, for the agents asked
// over A2A.
func connectA2A(o orchestrator.A2AOptions) (orchestrator.A2AAgent, error) {
	a, err := a2aagent.New(a2aagent.Options{Name: o.Name, URL: o.URL, Token: o.Token, TokenEnv: o.TokenEnv, ContextID: o.ContextID})
	if err != nil {
		return nil, err // not a nil *Agent in the interface
	}
	return a, nil
}

// serveA2A is cli.Features.ServeA2A: mm serve over internal/frontend/a2a.
func serveA2A(ctx context.Context, ln net.Listener, o cli.ServeOptions) error {
	skills := make([]a2a.Skill, len(o.Skills))
	for i, sk := range o.Skills {
		skills[i] = a2a.Skill(sk)
	}
	// A nil o.Store is a nil a2a.Store: nothing is saved.
	return a2a.Serve(ctx, ln, a2a.Options{Session: o.Session, Store: o.Store, Name: o.Name, Description: o.Description,
		Version: o.Version, Skills: skills, Token: o.Token, MaxTasks: o.MaxTasks, MaxConns: o.MaxConns, Host: o.Host,
		AllowOrigins: o.AllowOrigins, Log: o.Log})
}
