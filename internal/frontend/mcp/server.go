package mcp

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sync/semaphore"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// server is one served configuration: the MCP SDK's server with a tool
// per agent, and the mm session of each MCP session.
type server struct {
	// ctx ends every call and session when mm serve stops.
	ctx   context.Context
	opts  Options
	log   *frontend.ServeLog
	mcp   *sdk.Server
	calls *semaphore.Weighted

	mu     sync.Mutex
	byMCP  map[*sdk.ServerSession]*served
	closed bool
	// waiting are the goroutines that close a session when its MCP
	// session ends.
	waiting sync.WaitGroup
}

func newServer(ctx context.Context, opts Options) *server {
	if opts.NewSession == nil {
		opts.NewSession = func(ctx context.Context, o orchestrator.Options) (Session, error) { return orchestrator.New(ctx, o) }
	}
	if opts.MaxCalls <= 0 {
		opts.MaxCalls = DefaultMaxCalls
	}
	s := &server{ctx: ctx, opts: opts, log: frontend.NewServeLog(opts.Log), calls: semaphore.NewWeighted(int64(opts.MaxCalls)),
		byMCP: map[*sdk.ServerSession]*served{}}
	s.mcp = sdk.NewServer(&sdk.Implementation{Name: "mm", Title: opts.Name, Version: opts.Version},
		&sdk.ServerOptions{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Instructions: instructions(opts)})
	if opts.ConfigError != nil {
		s.mcp.AddReceivingMiddleware(refuseInitialize(opts.ConfigError))
	}
	for _, t := range toolsOf(opts) {
		s.mcp.AddTool(t.spec(), s.handler(t))
	}
	return s
}

// instructions tell the client's model what the tools are.
func instructions(opts Options) string {
	return fmt.Sprintf("mm's agents, as tools: %s is the configuration's own agent; each other tool asks an agent it may hand work to. "+
		"Give each call a question complete on its own; send the conversation so far along as conversation when the agent needs it.", opts.Name)
}

// refuseInitialize fails every initialize with the configuration's
// error, as mm writes it everywhere ("[config error: <path>: <message>]").
func refuseInitialize(cfgErr error) sdk.Middleware {
	text := frontend.ErrorText(cfgErr)
	return func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "initialize" {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: text}
			}
			return next(ctx, method, req)
		}
	}
}

// session is the served session of the MCP session ss, started on its
// first call.
func (s *server) session(ss *sdk.ServerSession) (*served, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errStopping
	}
	if sv := s.byMCP[ss]; sv != nil {
		return sv, nil
	}
	sv := newServed(s, ss)
	s.byMCP[ss] = sv
	// The session ends with its MCP session: the client closed it (stdio's
	// end, HTTP's DELETE), or it was idle for sessionIdle.
	s.waiting.Go(func() {
		_ = ss.Wait()
		s.mu.Lock()
		delete(s.byMCP, ss)
		s.mu.Unlock()
		sv.close()
	})
	return sv, nil
}

// closeAll ends every MCP session and closes its session, once their
// calls have returned.
func (s *server) closeAll() {
	s.mu.Lock()
	s.closed = true
	var all []*sdk.ServerSession
	for ss := range s.byMCP {
		all = append(all, ss)
	}
	s.mu.Unlock()
	for _, ss := range all {
		_ = ss.Close()
	}
	for ss := range s.mcp.Sessions() {
		_ = ss.Close()
	}
	s.waiting.Wait()
}
