// Package mcptools holds the tools of MCP servers over stdio: it starts a
// session's servers, each in its own process group, lists their tools and
// offers them to the model as <server>__<tool>, calls them, and stops the
// servers with the session.
//
// It is the one package of mm that links the MCP client (the MCP Go SDK):
// configuration, the orchestrator and the front ends name servers with
// tools.MCPServer and hold a started set as a tools.MCPTools, so that a
// configuration with no MCP server starts none of it. Start is the
// tools.MCPStarter cmd/mm plugs in.
package mcptools

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mm-agent/mm/internal/textcut"
	"github.com/mm-agent/mm/internal/tools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultStartTimeout is how long Start gives a server to start and list
// its tools when the caller gives no timeout.
const DefaultStartTimeout = 30 * time.Second

// commandLineMax is the most of a server's command line an error quotes,
// in characters: as much as a tool call's subject line shows, enough to
// recognise the command.
const commandLineMax = 60

// Set is the MCP servers of a session, started together and stopped
// together: a tools.MCPTools. Its methods are safe for concurrent use.
type Set struct {
	conns []*mcpConn // every server asked for, started or not, by name
	tools []tools.Tool

	closeOnce sync.Once
	closeErr  error
}

// Start starts servers concurrently, each with startTimeout (or
// DefaultStartTimeout when it is not positive) to start and list its
// tools. A server that fails is reported by one error naming it, and the
// others go on; the set holds those that started. ctx bounds the start-up
// only: the servers run until Close, which the caller must call. It is a
// tools.MCPStarter; the set it returns is a *Set, never nil.
func Start(ctx context.Context, servers []tools.MCPServer, env tools.Env, startTimeout time.Duration) (tools.MCPTools, []error) {
	return start(ctx, servers, env, startTimeout)
}

// start is Start with the set's own type, for the tests.
func start(ctx context.Context, servers []tools.MCPServer, env tools.Env, startTimeout time.Duration) (*Set, []error) {
	if startTimeout <= 0 {
		startTimeout = DefaultStartTimeout
	}
	servers = slices.Clone(servers)
	slices.SortStableFunc(servers, func(a, b tools.MCPServer) int { return strings.Compare(a.Name, b.Name) })
	conns := make([]*mcpConn, len(servers))
	var wg sync.WaitGroup
	for i, srv := range servers {
		if i > 0 && servers[i-1].Name == srv.Name {
			conns[i] = &mcpConn{name: srv.Name, startErr: fmt.Errorf("mcp server %q: listed twice", srv.Name)}
			continue
		}
		wg.Go(func() { conns[i] = startServer(ctx, srv, env, startTimeout) })
	}
	wg.Wait()
	var errs []error
	for _, c := range conns {
		if c.startErr != nil {
			errs = append(errs, c.startErr)
		}
	}
	return newSet(conns), errs
}

// startServer starts one server; a failure is recorded in the returned
// connection's startErr.
func startServer(ctx context.Context, srv tools.MCPServer, env tools.Env, timeout time.Duration) *mcpConn {
	fail := func(format string, args ...any) *mcpConn {
		line := commandLine(srv)
		err := fmt.Errorf("mcp server %q: start %q: %s", srv.Name, line, fmt.Sprintf(format, args...))
		return &mcpConn{name: srv.Name, startErr: err}
	}
	if strings.TrimSpace(srv.Name) == "" {
		return &mcpConn{startErr: errors.New(`mcp server "": a server needs a name`)}
	}
	if strings.TrimSpace(srv.Command) == "" {
		return &mcpConn{name: srv.Name, startErr: fmt.Errorf("mcp server %q: command is empty", srv.Name)}
	}
	if err := ctx.Err(); err != nil {
		return fail("%v", context.Cause(ctx))
	}
	p, err := startProc(srv, env)
	if err != nil {
		return fail("%v", err)
	}
	startCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c, err := connect(startCtx, srv.Name, &mcp.IOTransport{Reader: p.stdout, Writer: p.stdin}, p, env.Cwd)
	if err == nil {
		return c
	}
	var cause error
	switch {
	case ctx.Err() != nil:
		cause = context.Cause(ctx)
	case p.exited() != nil:
		cause = p.exited()
	case startCtx.Err() != nil:
		cause = fmt.Errorf("no answer within %v", timeout)
	default:
		// The session broke: most likely the server is exiting.
		if cause = p.waitExit(mcpGrace); cause == nil {
			cause = err
		}
	}
	p.stop(0)
	return fail("%v", cause)
}

// commandLine is the server's command and arguments, for an error line.
func commandLine(srv tools.MCPServer) string {
	return textcut.Ellipsis(strings.Join(append([]string{srv.Command}, srv.Args...), " "), commandLineMax)
}

// connect opens an MCP session over t and lists the server's tools. p is
// the server's process, or nil when there is none (in tests).
func connect(ctx context.Context, name string, t mcp.Transport, p *serverProc, cwd string) (*mcpConn, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "mm", Version: mmVersion()}, nil)
	if cwd != "" {
		client.AddRoots(&mcp.Root{URI: (&url.URL{Scheme: "file", Path: cwd}).String(), Name: "working directory"})
	}
	cs, err := client.Connect(ctx, t, nil)
	if err != nil {
		return nil, err
	}
	var listed []*mcp.Tool
	if caps := cs.InitializeResult().Capabilities; caps != nil && caps.Tools != nil {
		for tool, err := range cs.Tools(ctx, nil) {
			if err != nil {
				cs.Close()
				return nil, fmt.Errorf("list tools: %w", err)
			}
			listed = append(listed, tool)
		}
	}
	c := &mcpConn{name: name, session: cs, proc: p, remote: listed}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	return c, nil
}

// mmVersion is the version of the running mm, sent to servers as the
// client's.
func mmVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// newSet names the tools of the started servers and returns the set.
func newSet(conns []*mcpConn) *Set {
	s := &Set{conns: conns}
	taken := map[string]bool{}
	for _, c := range conns {
		if c.session == nil {
			continue
		}
		for _, rt := range c.remote {
			name := uniqueName(toolName(c.name, rt.Name), taken)
			taken[name] = true
			c.exposed = append(c.exposed, name)
			s.tools = append(s.tools, newMCPTool(c, name, rt))
		}
	}
	return s
}

// Tools returns the tools of every server that started, server by server
// (by name), each server's in the order it listed them.
func (s *Set) Tools() []tools.Tool {
	if s == nil {
		return nil
	}
	return slices.Clone(s.tools)
}

// Servers returns the status of every server asked for, by name.
func (s *Set) Servers() []tools.MCPServerStatus {
	if s == nil {
		return nil
	}
	out := make([]tools.MCPServerStatus, 0, len(s.conns))
	for _, c := range s.conns {
		st := tools.MCPServerStatus{Name: c.name, Tools: slices.Clone(c.exposed), Err: c.startErr}
		if st.Err == nil {
			st.Err = c.failure()
		}
		out = append(out, st)
	}
	return out
}

// Close stops every server: it closes its session (and so its stdin), gives
// it a moment to exit, then kills its process group. Calls still running
// end with an error result. Close is idempotent; it returns what could not
// be stopped.
func (s *Set) Close() error {
	if s == nil {
		return nil
	}
	s.closeOnce.Do(func() {
		errs := make([]error, len(s.conns))
		var wg sync.WaitGroup
		for i, c := range s.conns {
			if c.session != nil {
				wg.Go(func() { errs[i] = c.close() })
			}
		}
		wg.Wait()
		s.closeErr = errors.Join(errs...)
	})
	return s.closeErr
}
