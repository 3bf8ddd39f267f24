package agentproc

import (
	"context"
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
	"github.com/mm-agent/mm/internal/textcut"
)

// process is one run of an asked agent's child: the process in its own
// group, its pipes, and the ACP connection to it. An Agent starts one on
// its first prompt, and another when that one died or was stopped.
type process struct {
	label   string // "expert", or "expert" (ssh me@host)
	grace   time.Duration
	startIn time.Duration
	cmd     *exec.Cmd
	stdin   *os.File // our end of the child's stdin
	in      watchedWriter
	stdout  *os.File // our end of the child's stdout
	stderr  *textcut.Head
	conn    *acp.ClientSideConnection

	// Set by the handshake, read-only after it.
	session acp.SessionId
	// notLoaded says why the earlier session asked for was not loaded.
	notLoaded string
	// info is who answered initialize: "gemini-cli 0.9.0".
	info string

	exited chan struct{} // closed once the process has been reaped
	done   chan struct{} // closed once it is reaped and the connection released

	mu sync.Mutex // guards what follows, which the connection's reader reads
	// active is the prompt under way, nil between prompts.
	active *activePrompt
	// notACP is set at the first line on the child's stdout that is not
	// JSON (a banner, a usage text); junk is that line's start.
	notACP bool
	junk   string
	// stopStart ends the handshake under way, nil when none is.
	stopStart context.CancelCauseFunc
}

// startProcess starts the child and opens its ACP session, loading
// earlier when it is not "". ctx bounds the start only.
func startProcess(ctx context.Context, opts Options, earlier string) (*process, error) {
	p, err := launch(opts)
	if err != nil {
		return nil, err
	}
	if err := p.handshake(ctx, opts.Cwd, true, acp.SessionId(earlier)); err != nil {
		p.close()
		return nil, err
	}
	return p, nil
}

// launch starts the child process and the ACP connection to it.
func launch(opts Options) (*process, error) {
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

	p := &process{
		label:   label,
		grace:   grace,
		startIn: startIn,
		cmd:     cmd,
		stdin:   inW,
		stdout:  outR,
		stderr:  stderr,
		exited:  make(chan struct{}),
		done:    make(chan struct{}),
	}
	out := acpconn.NewWriter(inW)
	p.in.w = out
	// Nothing is read before the connection is set up: its reader would
	// race with SetLogger.
	ready := make(chan struct{})
	in := acpconn.NewReader(acpconn.Gated(outR, ready), out, p.notify, nil)
	in.OnNotJSON(p.sawJunk)
	p.conn = acp.NewClientSideConnection(client{p}, &p.in, in)
	p.conn.SetLogger(slog.New(slog.DiscardHandler))
	close(ready)
	go p.wait()
	return p, nil
}

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

// wait reaps the child, then releases the connection.
func (p *process) wait() {
	_ = proc.Wait(p.cmd)
	close(p.exited)
	// The connection ends on its own when the child's stdout reaches end of
	// file; something the child started may still hold it open.
	within(p.conn.Done(), p.grace)
	p.stdout.Close()
	<-p.conn.Done()
	close(p.done)
}

// hasExited reports whether the child has exited (and been reaped).
func (p *process) hasExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// close stops the child: its stdin is closed, which ends an mm child, and
// after the grace its whole process group is killed, so that nothing it
// started outlives it. It returns once the process is reaped and the
// connection released.
func (p *process) close() {
	p.stdin.Close()
	p.stopWithin(p.grace)
	<-p.done
}

// stopWithin gives the child grace to exit, then kills its whole process
// group (what it started too), and waits until it has been reaped.
func (p *process) stopWithin(grace time.Duration) {
	within(p.exited, grace)
	_ = proc.KillGroup(p.cmd.Process)
	<-p.exited
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

// stderrTail is ": <the child's stderr so far>", or "" when it wrote none.
func (p *process) stderrTail() string {
	if q := quote(p.stderr.String()); q != "" {
		return ": " + q
	}
	return ""
}

// cause says why a request failed: the child's death ("exited (…)", died
// set), or its JSON-RPC error.
func (p *process) cause(err error) (cause string, died bool) {
	gone := p.in.failed.Load()
	select {
	case <-p.conn.Done():
		gone = true
	default:
	}
	if gone {
		// The child closed its output or its input: it is exiting, or
		// should be.
		p.stopWithin(p.grace)
		return p.exitCause(), true
	}
	var re *acp.RequestError
	if errors.As(err, &re) {
		return rpcMessage(re), false
	}
	return err.Error(), false
}

// exitError is the error of a prompt to a child that has already exited.
func (p *process) exitError() error {
	return fmt.Errorf("agent %s %s", p.label, p.exitCause())
}

// exitCause describes the child's end: "exited (exit status 2): <stderr>".
// Only valid once p.exited is closed.
func (p *process) exitCause() string {
	state := "unknown status"
	if ps := p.cmd.ProcessState; ps != nil {
		state = ps.String()
	}
	s := "exited (" + state + ")"
	return s + p.stderrTail()
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

func (ww *watchedWriter) Write(b []byte) (int, error) {
	n, err := ww.w.Write(b)
	if err != nil {
		ww.failed.Store(true)
	}
	return n, err
}
