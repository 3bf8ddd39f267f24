package cli

import (
	"testing"

	"github.com/mm-agent/mm/frontend/a2a"
	"github.com/mm-agent/mm/mmconfigs"
	"github.com/mm-agent/mm/orchestrator"
)

// A ServeStore is an a2a.Store and back: mm-full passes mm serve's store
// through as it is.
var (
	_ a2a.Store  = ServeStore(nil)
	_ ServeStore = a2a.Store(nil)
)

// TestServeDefaultsAreFrontendA2As: mm serve's --max-tasks and
// --max-connections defaults are the server's, which cli does not import.
func TestServeDefaultsAreFrontendA2As(t *testing.T) {
	if defaultMaxTasks != a2a.DefaultMaxTasks {
		t.Errorf("--max-tasks defaults to %d, frontend/a2a to %d: make them equal", defaultMaxTasks, a2a.DefaultMaxTasks)
	}
	if defaultMaxConns != a2a.DefaultMaxConns {
		t.Errorf("--max-connections defaults to %d, frontend/a2a to %d: make them equal", defaultMaxConns, a2a.DefaultMaxConns)
	}
}

// TestLacksA2A: a configuration with agents over A2A needs the A2A client,
// named with those agents; one without needs nothing of it.
func TestLacksA2A(t *testing.T) {
	connect := func(orchestrator.A2AOptions) (orchestrator.A2AAgent, error) { return nil, nil }
	withA2A := &mmconfigs.Config{Path: "/work/agent.yaml", Agents: map[string]mmconfigs.Agent{
		"reviewer": {Kind: mmconfigs.AgentA2A, URL: "http://127.0.0.1:8000/"},
		"expert":   {Kind: mmconfigs.AgentFile, Config: "/work/expert.yaml"},
		"critic":   {Kind: mmconfigs.AgentA2A, URL: "http://127.0.0.1:8001/"},
	}}
	withoutA2A := &mmconfigs.Config{Path: "/work/agent.yaml", Agents: map[string]mmconfigs.Agent{
		"expert": {Kind: mmconfigs.AgentFile, Config: "/work/expert.yaml"},
	}}
	tests := []struct {
		name string
		f    Features
		cfg  *mmconfigs.Config
		want string
	}{
		{"mm, agents over A2A", Features{}, withA2A, "agent.yaml: agents over A2A (critic, reviewer)"},
		{"mm, none", Features{}, withoutA2A, ""},
		{"with the client", Features{A2A: connect}, withA2A, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.f.lacks(tt.cfg); got != tt.want {
				t.Errorf("lacks = %q, want %q", got, tt.want)
			}
		})
	}
}
