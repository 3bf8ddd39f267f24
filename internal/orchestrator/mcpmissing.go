package orchestrator

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mm-agent/mm/internal/tools"
)

// startWithoutClient is the tools.MCPStarter of a session given none (a
// test's): it starts nothing, and every server (by name, as a started set
// has them) is a failure that says so.
// It must not happen often, but it must never panic.
func startWithoutClient(_ context.Context, servers []tools.MCPServer, _ tools.Env, _ time.Duration) (tools.MCPTools, []error) {
	servers = slices.Clone(servers)
	slices.SortStableFunc(servers, func(a, b tools.MCPServer) int { return strings.Compare(a.Name, b.Name) })
	set := &noClientSet{}
	var errs []error
	for _, srv := range servers {
		err := fmt.Errorf("mcp server %q: this session has no MCP client", srv.Name)
		set.servers = append(set.servers, tools.MCPServerStatus{Name: srv.Name, Err: err})
		errs = append(errs, err)
	}
	return set, errs
}

// noClientSet is the servers startWithoutClient did not start.
type noClientSet struct {
	servers []tools.MCPServerStatus
}

func (s *noClientSet) Tools() []tools.Tool { return nil }

func (s *noClientSet) Servers() []tools.MCPServerStatus {
	return append([]tools.MCPServerStatus(nil), s.servers...)
}

func (s *noClientSet) Close() error { return nil }
