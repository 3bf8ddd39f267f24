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
	"strings"
	"sync"
	"sync/atomic"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/mm-agent/mm/internal/acpconn"
	"github.com/mm-agent/mm/internal/proc"
	"github.com/mm-agent/mm/internal/regularfile"
	"github.com/mm-agent/mm/internal/textcut"
	"github.com/mm-agent/mm/internal/tracing"
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
	// go on with: the child is asked to load it (session/load) when it
	// can, and a new session is opened when it cannot (see NotLoaded).
	// "": a new session.
	Session string
}

// label names the agent in errors: "expert", or "expert" (ssh me@host).
func (o Options) label() string {
	if o.Host != "" {
		return fmt.Sprintf("%q (ssh %s)", o.Name, o.Host)
	}
	return fmt.Sprintf("%q", o.Name)
}

// Agent is a running child agent with one ACP session.
type Agent struct {
	name    string // the label: "expert", or "expert" (ssh me@host)
	grace   time.Duration
	startIn time.Duration
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
	// notACP is closed at the first line on the child's stdout that is not
	// JSON: a banner, a usage text. junk is that line's start.
	notACP     chan struct{}
	notACPOnce sync.Once
	junk       string
	// info is who answered initialize: "gemini-cli 0.9.0".
	info string
	done chan struct{} // closed once the process is reaped and the connection released

	promptMu sync.Mutex // one prompt at a time

	mu   sync.Mutex // guards turn
	turn *turn

	closeOnce sync.Once
}

// Start starts the child, and opens an ACP session in opts.Cwd. ctx bounds
// the start only; the child lives until Close, or until it dies.
func Start(ctx context.Context, opts Options) (*Agent, error) {
	a, err := launch(opts)
	if err != nil {
		return nil, err
	}
	if err := a.open(ctx, opts.Cwd, true, acp.SessionId(opts.Session)); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// Probe starts the child, asks it initialize, and stops it: mm check. It
// returns who answered ("gemini-cli 0.9.0", "" when it does not say).
func Probe(ctx context.Context, opts Options) (string, error) {
	a, err := launch(opts)
	if err != nil {
		return "", err
	}
	defer a.Close()
	if err := a.open(ctx, opts.Cwd, false, ""); err != nil {
		return "", err
	}
	return a.info, nil
}

// launch starts the child process and the ACP connection to it.
func launch(opts Options) (*Agent, error) {
	grace := opts.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	startIn := opts.StartTimeout
	if startIn <= 0 {
		startIn = DefaultStartTimeout
	}
	label := opts.label()
	argv := opts.Command
	if len(argv) == 0 {
		argv = []string{opts.Bin, "-acp", "--config", opts.Config}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = opts.Cwd
	if opts.Dir != "" {
		cmd.Dir = opts.Dir
	}
	cmd.Env = opts.Environ
	stderr := textcut.NewHead(stderrQuote) // a chatty child cannot grow the parent's memory
	cmd.Stderr = stderr
	// Something the child started may keep its stderr open after it died.
	cmd.WaitDelay = grace

	// Our own pipes, not exec's: exec would close them in Wait, possibly
	// before the connection has read the child's last messages.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start agent %s: %w", label, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("start agent %s: %w", label, err)
	}
	cmd.Stdin = inR
	cmd.Stdout = outW
	if len(opts.Command) == 0 || opts.IsMM {
		err = proc.StartSupervisor(cmd) // its own process group; an mm cleans up after itself
	} else {
		// Any other agent, or ssh: its own process group, watched by mm's
		// watchdog, since nothing says it cleans up after itself.
		err = proc.Start(cmd)
	}
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("start agent %s: %s", label, startError(argv[0], err))
	}
	// While the child starts: what it will answer is decoded faster then.
	acpconn.WarmClient()

	a := &Agent{
		name:    label,
		grace:   grace,
		startIn: startIn,
		cmd:     cmd,
		stdin:   inW,
		stdout:  outR,
		stderr:  stderr,
		exited:  make(chan struct{}),
		done:    make(chan struct{}),
		notACP:  make(chan struct{}),
	}
	out := acpconn.NewWriter(inW)
	a.in.w = out
	// Nothing is read before the connection is set up: its reader would
	// race with SetLogger.
	ready := make(chan struct{})
	in := acpconn.NewReader(acpconn.Gated(outR, ready), out, a.notify, nil)
	in.OnNotJSON(a.sawJunk)
	a.conn = acp.NewClientSideConnection(client{a}, &a.in, in)
	a.conn.SetLogger(slog.New(slog.DiscardHandler))
	close(ready)
	go a.wait()
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

// startError says why a program did not start, in one line.
func startError(program string, err error) string {
	var ee *exec.Error
	if errors.As(err, &ee) && errors.Is(ee.Err, exec.ErrNotFound) {
		return fmt.Sprintf("command %q not found in $PATH", program)
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Sprintf("command %q: %v", program, pe.Err)
	}
	return err.Error()
}

// junkQuote is how much of a line that is not JSON a start error quotes.
const junkQuote = 80

// sawJunk is told of a line on the child's stdout that is not JSON.
func (a *Agent) sawJunk(line []byte) {
	a.notACPOnce.Do(func() {
		a.junk = textcut.Ellipsis(quote(string(line)), junkQuote)
		close(a.notACP)
	})
}

// Why a start failed, as the start's context's cause.
var (
	errStartTimeout = errors.New("start timed out")
	errNotACP       = errors.New("not ACP")
)

// open does the ACP handshake within the start timeout: initialize, then
// (withSession) session/load of the earlier session when there is one and
// the child loads sessions, else session/new. The history a load replays
// is not shown: no prompt is under way, so its updates are dropped as
// they arrive, all before the load's response. A child that writes
// something other than JSON-RPC on stdout fails at once.
func (a *Agent) open(ctx context.Context, cwd string, withSession bool, earlier acp.SessionId) error {
	sctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	timer := time.AfterFunc(a.startIn, func() { cancel(errStartTimeout) })
	defer timer.Stop()
	go func() {
		select {
		case <-a.notACP:
			cancel(errNotACP)
		case <-sctx.Done():
		}
	}()

	step := "initialize"
	ir, err := a.conn.Initialize(sctx, acp.InitializeRequest{
		ProtocolVersion: acp.ProtocolVersionNumber,
		ClientInfo:      &acp.Implementation{Name: acpconn.AskingClient, Version: ""},
	})
	if err == nil {
		if i := ir.AgentInfo; i != nil {
			a.info = strings.TrimSpace(i.Name + " " + i.Version)
		}
	}
	if err == nil && withSession && earlier != "" {
		if !ir.AgentCapabilities.LoadSession {
			a.notLoaded = "it does not load sessions (no loadSession in its initialize)"
		} else {
			step = "session/load"
			_, err = a.conn.LoadSession(sctx, acp.LoadSessionRequest{SessionId: earlier, Cwd: cwd, McpServers: []acp.McpServer{}})
			if err == nil {
				a.session = earlier
				return nil
			}
			// Refused (an unknown id, a failed load): a new session, said
			// by NotLoaded. Not when the start timed out, was not ACP, was
			// cancelled, or the child died.
			if sctx.Err() == nil {
				if cause, died := a.cause(err); !died {
					a.notLoaded, err = cause, nil
				}
			}
		}
	}
	if err == nil && withSession {
		step = "session/new"
		var s acp.NewSessionResponse
		s, err = a.conn.NewSession(sctx, acp.NewSessionRequest{Cwd: cwd, McpServers: []acp.McpServer{}})
		a.session = s.SessionId
	}
	if err == nil {
		return nil
	}
	why := context.Cause(sctx)
	if why == nil && a.in.failed.Load() {
		// It is gone before it read initialize: what it wrote on stdout
		// is read to its end first, a banner included.
		within(a.done, 2*a.grace)
	}
	select {
	case <-a.notACP:
		// Also when it exited right after its banner, before the start
		// was cancelled for it: the banner says more than the exit.
		why = errNotACP
	default:
	}
	switch why {
	case errNotACP:
		// A program that printed its usage is often about to write why on
		// stderr and exit: it is given the grace to, then stopped, so that
		// all it wrote on stderr is there to quote.
		a.stopWithin(a.grace)
	case errStartTimeout:
		// Stopped now, so that all it wrote on stderr is there to quote.
		_ = proc.KillGroup(a.cmd.Process)
		<-a.exited
	}
	switch why {
	case errNotACP:
		return fmt.Errorf("start agent %s: it does not speak ACP: its output began %q%s", a.name, a.junk, a.stderrTail())
	case errStartTimeout:
		return fmt.Errorf("start agent %s: no answer to %s within %s%s", a.name, step, a.startIn, a.stderrTail())
	}
	if ctx.Err() != nil {
		return fmt.Errorf("start agent %s: %w", a.name, ctx.Err())
	}
	cause, _ := a.cause(err)
	return fmt.Errorf("start agent %s: %s", a.name, cause)
}

// stderrTail is ": <the child's stderr so far>", or "" when it wrote none.
func (a *Agent) stderrTail() string {
	if q := quote(a.stderr.String()); q != "" {
		return ": " + q
	}
	return ""
}

// wait reaps the child, then releases the connection.
func (a *Agent) wait() {
	_ = proc.Wait(a.cmd)
	close(a.exited)
	// The connection ends on its own when the child's stdout reaches end of
	// file; something the child started may still hold it open.
	within(a.conn.Done(), a.grace)
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
		return fmt.Errorf("agent %s: %w", a.name, err)
	}

	// The hand-off's span goes in _meta: the child may have been started
	// for an earlier one, or over ssh, which passes no TRACEPARENT.
	req := acp.PromptRequest{SessionId: a.session, Prompt: []acp.ContentBlock{acp.TextBlock(text)}, Meta: tracing.Meta(ctx)}
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

	var why error
	select {
	case r := <-res:
		t.finish()
		select {
		case <-t.failed: // it went on without the answer it asked for
			return t.failErr
		default:
		}
		return a.promptError(r.resp, r.err)
	case <-ctx.Done():
		why = fmt.Errorf("agent %s: %w", a.name, ctx.Err())
	case <-t.failed:
		why = t.failErr
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
	return why
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
		return fmt.Errorf("agent %s: encode the prompt: %w", a.name, err)
	}
	if n := len(b) + envelope; n > acpconn.MaxMessage {
		return fmt.Errorf("agent %s: the message is %s once encoded, over the limit of %s for one message: send a shorter question or conversation (a preAsk hook can cut the transcript)",
			a.name, regularfile.FormatSize(int64(n)), regularfile.FormatSize(acpconn.MaxMessage))
	}
	return nil
}

// promptError turns the end of a prompt into nil or an error.
func (a *Agent) promptError(resp acp.PromptResponse, err error) error {
	if err != nil {
		cause, died := a.cause(err)
		if died {
			return fmt.Errorf("agent %s %s", a.name, cause)
		}
		return fmt.Errorf("agent %s: %s", a.name, cause)
	}
	if resp.StopReason != acp.StopReasonEndTurn {
		return fmt.Errorf("agent %s ended its turn early (stop reason %q)", a.name, resp.StopReason)
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
		a.stopWithin(a.grace)
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
	return fmt.Errorf("agent %s %s", a.name, a.exitCause())
}

// exitCause describes the child's end: "exited (exit status 2): <stderr>".
// Only valid once a.exited is closed.
func (a *Agent) exitCause() string {
	state := "unknown status"
	if ps := a.cmd.ProcessState; ps != nil {
		state = ps.String()
	}
	s := "exited (" + state + ")"
	return s + a.stderrTail()
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
		a.stopWithin(a.grace)
		<-a.done
	})
	return nil
}

// within waits for ch to be closed, for d at the most; it reports whether
// ch was closed.
func within(ch <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}

// stopWithin gives the child grace to exit, then kills its whole process
// group (what it started too), and waits until it has been reaped.
func (a *Agent) stopWithin(grace time.Duration) {
	within(a.exited, grace)
	_ = proc.KillGroup(a.cmd.Process)
	<-a.exited
}
