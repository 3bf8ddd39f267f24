package acp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	acp "github.com/coder/acp-go-sdk"

	"github.com/mm-agent/mm/internal/acpconn"
	"github.com/mm-agent/mm/internal/tracing"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// Session is what the front end needs of an orchestrator session.
type Session interface {
	// PromptTyped runs a turn on what an editor's person typed; Prompt
	// one on an asking mm's question, as it is.
	PromptTyped(ctx context.Context, text string) error
	Prompt(ctx context.Context, text string) error
	Commands() []orchestrator.Command
	// Warnings are what went wrong while it started (an MCP server).
	Warnings() []string
	Close() error
}

// Options configure Serve.
type Options struct {
	// Session is the template of every session's options; Serve sets Cwd
	// (from session/new) and Sink.
	Session orchestrator.Options
	// Version is mm's version, sent in initialize.
	Version string
	// Cwd, when set, is every session's working folder, whatever
	// session/new says: an mm asked over ssh (mm -acp --session-cwd) works
	// in a folder of its own machine, not of the asking one.
	Cwd string
	// NewSession starts a session; nil means orchestrator.New.
	NewSession func(ctx context.Context, opts orchestrator.Options) (Session, error)
	// Configure, when set, completes each session's options once their Cwd
	// is session/new's: mm -acp without --config gives each session the
	// configuration found in its own folder. An error fails session/new.
	Configure func(opts *orchestrator.Options) error
	// Store saves the sessions, and finds them again for session/load and
	// session/list; nil: sessions are not saved and neither is offered.
	Store Store
}

// Serve speaks ACP as an agent on in and out until in ends or ctx is done,
// then closes every session. At in's end it first answers every request it
// had read: a prompt runs to its end (nobody can be asked for consent any
// more: a tool call that needs it is refused). errw gets the lines an
// editor shows in its agent log: hooks' failure reports and protocol
// problems.
func Serve(ctx context.Context, in io.Reader, out io.Writer, errw io.Writer, opts Options) error {
	if opts.NewSession == nil {
		opts.NewSession = newOrchestratorSession
	}
	log := &lineLog{w: errw}
	s := &server{
		ctx:      context.WithoutCancel(ctx),
		opts:     opts,
		log:      log,
		out:      &watchWriter{w: out},
		sessions: map[acp.SessionId]*session{},
	}
	// Nothing is read before the connection is set up: the connection's
	// reader would race with SetLogger, a request with s.conn.
	ready := make(chan struct{})
	w := acpconn.NewWriter(s.out)
	r := acpconn.NewReader(acpconn.Gated(in, ready), w, s.notify, func(err error) { log.line("mm: " + err.Error()) })
	s.conn = acp.NewAgentSideConnection(s, w, r)
	s.conn.SetLogger(slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelWarn})))
	close(ready)
	var err error
	select {
	case <-s.conn.Done():
		// The input has ended: what was read is answered before mm exits.
		select {
		case <-w.Answered():
		case <-ctx.Done():
			err = ctx.Err()
		}
	case <-ctx.Done():
		err = ctx.Err()
	}
	s.closeAll()
	return err
}

func newOrchestratorSession(ctx context.Context, opts orchestrator.Options) (Session, error) {
	s, err := orchestrator.New(ctx, opts)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// server is the ACP agent.
type server struct {
	// ctx outlives every request: updates are sent on it, so that the last
	// ones of a cancelled turn still go out.
	ctx  context.Context
	opts Options
	log  *lineLog
	out  *watchWriter
	conn *acp.AgentSideConnection

	// asked says the client is an asking mm (its initialize's clientInfo),
	// not an editor: its prompts are questions to answer, not a person's
	// typing to expand.
	asked atomic.Bool

	mu       sync.Mutex
	sessions map[acp.SessionId]*session
	closed   bool
}

// session is one ACP session.
type session struct {
	id    acp.SessionId
	orch  Session
	sink  *sink
	saved Saved

	turnMu sync.Mutex // one prompt at a time

	mu     sync.Mutex
	cancel context.CancelFunc // the running prompt's, or nil
}

var _ acp.Agent = (*server)(nil)

func (s *server) Initialize(_ context.Context, p acp.InitializeRequest) (acp.InitializeResponse, error) {
	s.asked.Store(p.ClientInfo != nil && p.ClientInfo.Name == acpconn.AskingClient)
	caps := acp.AgentCapabilities{
		SessionCapabilities: acp.SessionCapabilities{Close: &acp.SessionCloseCapabilities{}},
	}
	if s.opts.Store != nil {
		caps.LoadSession = true
		caps.SessionCapabilities.List = &acp.SessionListCapabilities{}
	}
	return acp.InitializeResponse{
		ProtocolVersion:   acp.ProtocolVersionNumber,
		AgentCapabilities: caps,
		AgentInfo:         &acp.Implementation{Name: "mm", Version: s.opts.Version},
		AuthMethods:       []acp.AuthMethod{},
	}, nil
}

func (s *server) Authenticate(context.Context, acp.AuthenticateRequest) (acp.AuthenticateResponse, error) {
	return acp.AuthenticateResponse{}, nil
}

// mcpServers converts the editor's stdio MCP servers; the other transports
// are not offered in initialize, and one sent anyway is logged and skipped.
func (s *server) mcpServers(in []acp.McpServer) []orchestrator.MCPServer {
	var out []orchestrator.MCPServer
	for _, m := range in {
		if m.Stdio == nil {
			s.log.line("mm: session/new: an MCP server that is not stdio is skipped (mm speaks MCP over stdio only)")
			continue
		}
		env := map[string]string{}
		for _, e := range m.Stdio.Env {
			env[e.Name] = e.Value
		}
		out = append(out, orchestrator.MCPServer{Name: m.Stdio.Name, Command: m.Stdio.Command, Args: m.Stdio.Args, Env: env})
	}
	return out
}

// NewSession starts an orchestrator session in the client's cwd (with the
// configuration found there when Options.Configure says so), saved from
// now on when there is a Store, and once the client knows the session's
// id, advertises its /ask… commands.
func (s *server) NewSession(ctx context.Context, p acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	if !filepath.IsAbs(p.Cwd) {
		return acp.NewSessionResponse{}, acp.NewInvalidParams(map[string]any{"error": fmt.Sprintf("cwd %q is not an absolute path", p.Cwd)})
	}
	ss, err := s.start(p.Cwd, p.McpServers, func(o orchestrator.Options) (Saved, error) {
		if s.opts.Store == nil {
			return Saved{ID: newSessionID()}, nil
		}
		saved, err := s.opts.Store.Create(ctx, o)
		if err == nil && saved.ID == "" {
			saved.ID = newSessionID()
		}
		return saved, err
	})
	if err == nil {
		err = s.add(ss)
	}
	if err != nil {
		return acp.NewSessionResponse{}, err
	}
	cmds := promptCommands(ss.orch)
	s.out.afterResponse(string(ss.id), func() { ss.sink.commands(cmds) })
	return acp.NewSessionResponse{SessionId: ss.id}, nil
}

// start configures a session in cwd, has it saved (save: a new one, or
// the saved one it goes on with) and starts it. Its errors are the
// request's.
func (s *server) start(cwd string, mcp []acp.McpServer, save func(orchestrator.Options) (Saved, error)) (*session, error) {
	o := s.opts.Session
	o.Cwd = cwd
	if s.opts.Cwd != "" {
		o.Cwd = s.opts.Cwd
	}
	if s.opts.Configure != nil {
		if err := s.opts.Configure(&o); err != nil {
			s.log.line("mm: " + errorText(err))
			return nil, &acp.RequestError{Code: -32603, Message: errorText(err)}
		}
	}
	saved, err := save(o)
	if err != nil {
		if errors.Is(err, ErrUnknownSession) {
			// Not logged: the answer says it, and a parent mm whose child
			// has lost its session goes on (its stderr quotes a crash).
			return nil, &acp.RequestError{Code: codeNotFound, Message: err.Error()}
		}
		s.log.line("mm: " + err.Error())
		return nil, &acp.RequestError{Code: -32603, Message: err.Error()}
	}
	for _, line := range saved.Notices {
		s.log.line("mm: " + line)
	}
	id := acp.SessionId(saved.ID)
	sk := &sink{
		conn:         s.conn,
		ctx:          s.ctx,
		log:          s.log,
		id:           id,
		cwd:          o.Cwd,
		displayHooks: o.Config != nil && o.Config.DisplayHooks,
	}
	o.Sink = sk
	o.MCPServers = append(o.MCPServers, s.mcpServers(mcp)...)
	o.Recorder, o.Resume = saved.Recorder, saved.Resume
	orch, err := s.opts.NewSession(s.ctx, o)
	if err != nil {
		s.log.line("mm: " + errorText(err))
		s.endSaving(saved)
		return nil, &acp.RequestError{Code: -32603, Message: errorText(err)}
	}
	for _, line := range orch.Warnings() {
		s.log.line("mm: " + line)
	}
	return &session{id: id, orch: orch, sink: sk, saved: saved}, nil
}

// add makes ss one of the server's sessions, or closes it when the server
// is closing or a session of that id is open already.
func (s *server) add(ss *session) error {
	s.mu.Lock()
	var err error
	switch {
	case s.closed:
		err = acp.NewInternalError(map[string]any{"error": "mm is shutting down"})
	case s.sessions[ss.id] != nil:
		err = &acp.RequestError{Code: -32603, Message: openAlready(ss.id)}
	default:
		s.sessions[ss.id] = ss
	}
	s.mu.Unlock()
	if err != nil {
		s.closeSession(ss)
	}
	return err
}

func openAlready(id acp.SessionId) string {
	return fmt.Sprintf("session %q is open already in this mm: go on with it, or session/close it before loading it again", id)
}

// endSaving ends the saving of a session, saying so when it fails.
func (s *server) endSaving(saved Saved) {
	if saved.Close == nil {
		return
	}
	if err := saved.Close(); err != nil {
		s.log.line("mm: session " + saved.ID + ": " + err.Error())
	}
}

// Prompt runs one turn. Its updates are sent before the response; a turn
// cancelled by session/cancel ends with the stop reason cancelled, a failed
// one with a JSON-RPC error carrying its message.
func (s *server) Prompt(ctx context.Context, p acp.PromptRequest) (acp.PromptResponse, error) {
	ss := s.session(p.SessionId)
	if ss == nil {
		return acp.PromptResponse{}, acp.NewInvalidParams(map[string]any{"error": fmt.Sprintf("unknown session %q", p.SessionId)})
	}
	// The asking mm's hand-off, when it is traced, continues here: its
	// _meta names it, whatever this process's TRACEPARENT said.
	ctx, cancel := s.turnContext(ctx)
	defer cancel()
	ctx = tracing.FromMeta(tracing.Adopt(ctx, s.ctx), p.Meta)
	ss.turnMu.Lock()
	defer ss.turnMu.Unlock()
	if ctx.Err() != nil {
		// Cancelled, or replaced by a newer prompt, while it waited.
		return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
	}
	ss.mu.Lock()
	ss.cancel = cancel
	ss.mu.Unlock()
	defer func() {
		ss.mu.Lock()
		ss.cancel = nil
		ss.mu.Unlock()
	}()

	prompt := ss.orch.PromptTyped
	if s.asked.Load() {
		prompt = ss.orch.Prompt
	}
	err := prompt(ctx, promptText(p.Prompt))
	ss.sink.endTurn()
	if ctx.Err() != nil {
		return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
	}
	if err != nil {
		return acp.PromptResponse{}, &acp.RequestError{Code: -32603, Message: err.Error()}
	}
	return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
}

// turnContext is a prompt's context, from its request's: cancelled with it
// ($/cancel_request), or by the cancel returned (session/cancel, the
// session closed) — not when the input ends, which the SDK cancels every
// request for: a prompt read before the end is answered (Serve waits for
// it).
func (s *server) turnContext(req context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(req))
	stop := context.AfterFunc(req, func() {
		select {
		case <-s.conn.Done(): // the input ended (before req: it is its parent)
		default:
			cancel()
		}
	})
	return ctx, func() { stop(); cancel() }
}

// Cancel cancels the session's running prompt.
func (s *server) Cancel(_ context.Context, p acp.CancelNotification) error {
	if ss := s.session(p.SessionId); ss != nil {
		ss.mu.Lock()
		if ss.cancel != nil {
			ss.cancel()
		}
		ss.mu.Unlock()
	}
	return nil
}

// notify takes the editor's notifications from the connection's reader,
// one at a time as they arrive: a burst of them waits in the pipe, not in
// a queue that closes the connection when full.
func (s *server) notify(method string, params json.RawMessage) {
	if method != acp.AgentMethodSessionCancel {
		return // the only notification an agent is sent
	}
	var p acp.CancelNotification
	if err := json.Unmarshal(params, &p); err != nil {
		s.log.line("mm: session/cancel: " + err.Error())
		return
	}
	_ = s.Cancel(s.ctx, p)
}

// CloseSession cancels the session's turn, if any, and closes it.
func (s *server) CloseSession(_ context.Context, p acp.CloseSessionRequest) (acp.CloseSessionResponse, error) {
	s.mu.Lock()
	ss := s.sessions[p.SessionId]
	delete(s.sessions, p.SessionId)
	s.mu.Unlock()
	if ss == nil {
		return acp.CloseSessionResponse{}, acp.NewInvalidParams(map[string]any{"error": fmt.Sprintf("unknown session %q", p.SessionId)})
	}
	s.closeSession(ss)
	return acp.CloseSessionResponse{}, nil
}

func (s *server) ResumeSession(context.Context, acp.ResumeSessionRequest) (acp.ResumeSessionResponse, error) {
	return acp.ResumeSessionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionResume)
}

func (s *server) SetSessionConfigOption(context.Context, acp.SetSessionConfigOptionRequest) (acp.SetSessionConfigOptionResponse, error) {
	return acp.SetSessionConfigOptionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionSetConfigOption)
}

func (s *server) SetSessionMode(context.Context, acp.SetSessionModeRequest) (acp.SetSessionModeResponse, error) {
	return acp.SetSessionModeResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionSetMode)
}

func (s *server) session(id acp.SessionId) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions[id]
}

// closeAll closes every session, once their turns are over.
func (s *server) closeAll() {
	s.mu.Lock()
	s.closed = true
	sessions := s.sessions
	s.sessions = nil
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, ss := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.closeSession(ss)
		}()
	}
	wg.Wait()
}

func (s *server) closeSession(ss *session) {
	ss.mu.Lock()
	if ss.cancel != nil {
		ss.cancel()
	}
	ss.mu.Unlock()
	ss.turnMu.Lock()
	defer ss.turnMu.Unlock()
	if err := ss.orch.Close(); err != nil {
		s.log.line("mm: close session: " + err.Error())
	}
	s.endSaving(ss.saved)
}

// promptText joins the prompt's text, a linked resource standing as its URI.
func promptText(blocks []acp.ContentBlock) string {
	var b strings.Builder
	for _, c := range blocks {
		switch {
		case c.Text != nil:
			b.WriteString(c.Text.Text)
		case c.ResourceLink != nil:
			b.WriteString(c.ResourceLink.Uri)
		}
	}
	return b.String()
}

func newSessionID() string {
	var b [12]byte
	rand.Read(b[:])
	return "mm-" + hex.EncodeToString(b[:])
}

// lineLog writes whole lines to the error stream, one writer at a time.
type lineLog struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lineLog) line(s string) {
	l.Write([]byte(strings.TrimRight(s, "\n") + "\n"))
}
