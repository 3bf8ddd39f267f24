package agentproc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/mm-agent/mm/internal/acpconn"
	"github.com/mm-agent/mm/internal/proc"
	"github.com/mm-agent/mm/internal/regularfile"
	"github.com/mm-agent/mm/internal/textcut"
)

// DefaultGrace is how long a cancelled prompt, or a child told to stop, may
// take before its process group is killed.
const DefaultGrace = 2 * time.Second

// Options say which child to start and how.
type Options struct {
	// Name is the agent's name in mmConfigs, for errors.
	Name string
	// Bin is the mm binary to run.
	Bin string
	// Config is the asked agent's configuration file, absolute.
	Config string
	// Cwd is the session's working directory: the child's, and its ACP
	// session's cwd.
	Cwd string
	// Environ is the child's complete environment.
	Environ []string
	// Grace is how long a cancelled prompt or a closing child may take to
	// stop before it is killed; 0 means DefaultGrace.
	Grace time.Duration
	// Session is the ACP session id of an earlier session of this agent to
	// go on with: the child is asked to load it (session/load) when it
	// can, and a new session is opened when it cannot (see NotLoaded).
	// "": a new session.
	Session string
}

// Agent is a running child agent with one ACP session.
type Agent struct {
	name    string
	grace   time.Duration
	cmd     *exec.Cmd
	stdin   *os.File // our end of the child's stdin
	in      watchedWriter
	stdout  *os.File // our end of the child's stdout
	stderr  *textcut.Head
	conn    *acp.ClientSideConnection
	session acp.SessionId
	// notLoaded says why the earlier session asked for was not loaded.
	notLoaded string

	exited chan struct{} // closed once the process has been reaped
	done   chan struct{} // closed once the process is reaped and the connection released

	promptMu sync.Mutex // one prompt at a time

	mu   sync.Mutex // guards turn
	turn *turn

	closeOnce sync.Once
}

// Start starts the child, and opens an ACP session in opts.Cwd. ctx bounds
// the start only; the child lives until Close, or until it dies.
func Start(ctx context.Context, opts Options) (*Agent, error) {
	grace := opts.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	cmd := exec.Command(opts.Bin, "-acp", "--config", opts.Config)
	cmd.Dir = opts.Cwd
	cmd.Env = opts.Environ
	stderr := textcut.NewHead(stderrQuote) // a chatty child cannot grow the parent's memory
	cmd.Stderr = stderr
	// Something the child started may keep its stderr open after it died.
	cmd.WaitDelay = grace

	// Our own pipes, not exec's: exec would close them in Wait, possibly
	// before the connection has read the child's last messages.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start agent %q: %w", opts.Name, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("start agent %q: %w", opts.Name, err)
	}
	cmd.Stdin = inR
	cmd.Stdout = outW
	err = proc.StartSupervisor(cmd) // its own process group; an mm cleans up after itself
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("start agent %q: %w", opts.Name, err)
	}

	a := &Agent{
		name:   opts.Name,
		grace:  grace,
		cmd:    cmd,
		stdin:  inW,
		stdout: outR,
		stderr: stderr,
		exited: make(chan struct{}),
		done:   make(chan struct{}),
	}
	out := acpconn.NewWriter(inW)
	a.in.w = out
	// Nothing is read before the connection is set up: its reader would
	// race with SetLogger.
	ready := make(chan struct{})
	in := acpconn.NewReader(acpconn.Gated(outR, ready), out, a.notify, nil)
	a.conn = acp.NewClientSideConnection(client{a}, &a.in, in)
	a.conn.SetLogger(slog.New(slog.DiscardHandler))
	close(ready)
	go a.wait()

	if err := a.open(ctx, opts.Cwd, acp.SessionId(opts.Session)); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// SessionID is the agent's ACP session id, given by its session/new or
// the one it loaded: the asking session records it, so that a resumed
// one can load it.
func (a *Agent) SessionID() string { return string(a.session) }

// NotLoaded says why the earlier session of Options.Session was not
// loaded, so that the child started afresh without its history: "" when
// it was loaded, or when none was asked for.
func (a *Agent) NotLoaded() string { return a.notLoaded }

// open does the ACP handshake: initialize, then session/load of the
// earlier session when there is one and the child loads sessions, else
// session/new. The history a load replays is not shown: no prompt is
// under way, so its updates are dropped as they arrive, all before the
// load's response.
func (a *Agent) open(ctx context.Context, cwd string, earlier acp.SessionId) error {
	init, err := a.conn.Initialize(ctx, acp.InitializeRequest{
		ProtocolVersion: acp.ProtocolVersionNumber,
		ClientInfo:      &acp.Implementation{Name: "mm", Version: ""},
	})
	if err == nil && earlier != "" {
		if !init.AgentCapabilities.LoadSession {
			a.notLoaded = "it does not load sessions (no loadSession in its initialize)"
		} else if _, err = a.conn.LoadSession(ctx, acp.LoadSessionRequest{SessionId: earlier, Cwd: cwd, McpServers: []acp.McpServer{}}); err == nil {
			a.session = earlier
			return nil
		} else if ctx.Err() == nil {
			if cause, died := a.cause(err); !died {
				a.notLoaded, err = cause, nil
			}
		}
	}
	if err == nil {
		var s acp.NewSessionResponse
		s, err = a.conn.NewSession(ctx, acp.NewSessionRequest{Cwd: cwd, McpServers: []acp.McpServer{}})
		a.session = s.SessionId
	}
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("start agent %q: %w", a.name, ctx.Err())
	}
	cause, _ := a.cause(err)
	return fmt.Errorf("start agent %q: %s", a.name, cause)
}

// wait reaps the child, then releases the connection.
func (a *Agent) wait() {
	_ = proc.Wait(a.cmd)
	close(a.exited)
	// The connection ends on its own when the child's stdout reaches end of
	// file; something the child started may still hold it open.
	t := time.NewTimer(a.grace)
	select {
	case <-a.conn.Done():
	case <-t.C:
	}
	t.Stop()
	a.stdout.Close()
	<-a.conn.Done()
	close(a.done)
}

// Done is closed once the child has exited: it crashed, was killed after a
// cancelled prompt, or was closed. A later Prompt fails; start a new Agent.
func (a *Agent) Done() <-chan struct{} { return a.exited }

// Prompt sends text as one prompt and reports what the child does to h
// until it has answered. A stop reason other than end_turn, a JSON-RPC error
// or the child's death is an error naming the agent. When ctx ends first,
// the child is asked to cancel (session/cancel) and is killed if it has not
// stopped within the grace; the error then wraps ctx.Err().
//
// Prompts are sent one at a time; h is not called once Prompt has returned.
func (a *Agent) Prompt(ctx context.Context, text string, h Handler) error {
	a.promptMu.Lock()
	defer a.promptMu.Unlock()
	select {
	case <-a.exited:
		return a.exitError()
	default:
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("agent %q: %w", a.name, err)
	}

	req := acp.PromptRequest{SessionId: a.session, Prompt: []acp.ContentBlock{acp.TextBlock(text)}}
	if err := a.checkSize(req); err != nil {
		return err
	}

	turnCtx, endTurn := context.WithCancel(ctx)
	t := newTurn(turnCtx, h)
	a.mu.Lock()
	a.turn = t
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		a.turn = nil
		a.mu.Unlock()
		endTurn()
		t.abandon()
		<-t.shown
		t.perms.Wait()
	}()

	// The request gets its own context: cancelling it would only make the
	// connection give up waiting, while the child must be told to stop.
	callCtx, stopCall := context.WithCancel(context.WithoutCancel(ctx))
	defer stopCall()
	type result struct {
		resp acp.PromptResponse
		err  error
	}
	res := make(chan result, 1)
	go func() {
		resp, err := a.conn.Prompt(callCtx, req)
		res <- result{resp, err}
	}()

	select {
	case r := <-res:
		t.finish()
		return a.promptError(r.resp, r.err)
	case <-ctx.Done():
	}
	_ = a.conn.Cancel(context.WithoutCancel(ctx), acp.CancelNotification{SessionId: a.session})
	timer := time.NewTimer(a.grace)
	defer timer.Stop()
	select {
	case <-res:
		t.finish() // the child's last updates, sent as it stopped
	case <-timer.C:
		_ = proc.KillGroup(a.cmd.Process)
		stopCall()
		t.abandon() // the connection's reader may wait for room to queue
		<-res
	}
	return fmt.Errorf("agent %q: %w", a.name, ctx.Err())
}

// checkSize refuses a prompt the child would refuse: one over the limit of
// one ACP message once encoded (quotes and control characters grow).
func (a *Agent) checkSize(req acp.PromptRequest) error {
	const envelope = 100 // {"jsonrpc":"2.0","id":…,"method":"session/prompt","params":…}
	if len(req.Prompt[0].Text.Text) < acpconn.MaxMessage/8 {
		return nil // cannot grow past the limit
	}
	b, err := json.Marshal(req)
	if err != nil {
		return fmt.Errorf("agent %q: encode the prompt: %w", a.name, err)
	}
	if n := len(b) + envelope; n > acpconn.MaxMessage {
		return fmt.Errorf("agent %q: the message is %s once encoded, over the limit of %s for one message: send a shorter question or conversation (a preAsk hook can cut the transcript)",
			a.name, regularfile.FormatSize(int64(n)), regularfile.FormatSize(acpconn.MaxMessage))
	}
	return nil
}

// promptError turns the end of a prompt into nil or an error.
func (a *Agent) promptError(resp acp.PromptResponse, err error) error {
	if err != nil {
		cause, died := a.cause(err)
		if died {
			return fmt.Errorf("agent %q %s", a.name, cause)
		}
		return fmt.Errorf("agent %q: %s", a.name, cause)
	}
	if resp.StopReason != acp.StopReasonEndTurn {
		return fmt.Errorf("agent %q ended its turn early (stop reason %q)", a.name, resp.StopReason)
	}
	return nil
}

// cause says why a request failed: the child's death ("exited (…)", died
// set), or its JSON-RPC error.
func (a *Agent) cause(err error) (cause string, died bool) {
	gone := a.in.failed.Load()
	select {
	case <-a.conn.Done():
		gone = true
	default:
	}
	if gone {
		// The child closed its output or its input: it is exiting, or
		// should be.
		t := time.NewTimer(a.grace)
		select {
		case <-a.exited:
		case <-t.C:
			_ = proc.KillGroup(a.cmd.Process)
			<-a.exited
		}
		t.Stop()
		return a.exitCause(), true
	}
	var re *acp.RequestError
	if errors.As(err, &re) {
		return rpcMessage(re), false
	}
	return err.Error(), false
}

// exitError is the error of a prompt to a child that has already exited.
func (a *Agent) exitError() error {
	return fmt.Errorf("agent %q %s", a.name, a.exitCause())
}

// exitCause describes the child's end: "exited (exit status 2): <stderr>".
// Only valid once a.exited is closed.
func (a *Agent) exitCause() string {
	state := "unknown status"
	if ps := a.cmd.ProcessState; ps != nil {
		state = ps.String()
	}
	s := "exited (" + state + ")"
	if q := quote(a.stderr.String()); q != "" {
		s += ": " + q
	}
	return s
}

// rpcMessage is the text of a JSON-RPC error: its message, and the detail
// the SDK puts in data.error when the message is a generic one.
func rpcMessage(re *acp.RequestError) string {
	msg := re.Message
	if data, ok := re.Data.(map[string]any); ok {
		for _, k := range []string{"error", "details"} {
			if d, ok := data[k].(string); ok && d != "" && d != msg {
				return msg + ": " + d
			}
		}
	}
	return msg
}

// watchedWriter remembers that a write failed: the child no longer reads
// its stdin, so a request that failed to go out tells of its end.
type watchedWriter struct {
	w      io.Writer
	failed atomic.Bool
}

func (ww *watchedWriter) Write(p []byte) (int, error) {
	n, err := ww.w.Write(p)
	if err != nil {
		ww.failed.Store(true)
	}
	return n, err
}

// Close stops the child: its stdin is closed, which ends an mm child, and
// after a short grace its whole process group is killed, so that nothing
// it started outlives it. The process is reaped before Close returns.
func (a *Agent) Close() error {
	a.closeOnce.Do(func() {
		a.stdin.Close()
		t := time.NewTimer(a.grace)
		select {
		case <-a.exited:
		case <-t.C:
		}
		t.Stop()
		_ = proc.KillGroup(a.cmd.Process)
		<-a.done
	})
	return nil
}
