package mcptools

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mm-agent/mm/internal/proc"
	"github.com/mm-agent/mm/internal/tools"
)

// Timings of an MCP server's process.
const (
	// mcpGrace is how long a server has to exit once its stdin is closed
	// before its process group is killed; also how long its pipes may stay
	// open once it has exited (a process that left its group holds them).
	mcpGrace = 2 * time.Second
	// mcpReapWait bounds the wait for a killed process to be reaped.
	mcpReapWait = 5 * time.Second
	// stderrKeep is how much of a server's stderr is kept, from its end,
	// to explain a failure; stderrQuote is how much of it an error quotes.
	stderrKeep  = 4096
	stderrQuote = 300
)

// serverProc is the process of an MCP server over stdio, in its own process
// group. Once it exits, whatever is left of its group is killed.
type serverProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *os.File // read end; the SDK reads the server's messages from it
	stderr tailBuffer

	done    chan struct{} // closed once the process is reaped
	waitErr error         // Wait's error, set before done is closed
}

// startProc starts the server's command in env.Cwd with env.Environ plus
// the server's own variables.
func startProc(srv tools.MCPServer, env tools.Env) (*serverProc, error) {
	cmd := exec.Command(srv.Command, srv.Args...)
	cmd.Dir = env.Cwd
	cmd.Env = serverEnviron(env.Environ, srv.Env)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	// Our own pipes for stdout and stderr, not os/exec's: Wait then
	// returns as soon as the server exits, whoever else holds them.
	outR, outW, err := os.Pipe()
	if err != nil {
		stdin.Close()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		stdin.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	err = proc.Start(cmd)
	outW.Close()
	errW.Close()
	if err != nil {
		stdin.Close()
		outR.Close()
		errR.Close()
		return nil, err
	}
	p := &serverProc{cmd: cmd, stdin: stdin, stdout: outR, done: make(chan struct{})}
	drained := make(chan struct{})
	go func() {
		io.Copy(&p.stderr, errR)
		close(drained)
	}()
	go func() {
		p.waitErr = proc.Wait(cmd) // kills what the server left behind
		// Read its stderr to the end, so that an error can quote its
		// last words; a process that left the group may hold the pipe.
		t := time.NewTimer(mcpGrace)
		select {
		case <-drained:
		case <-t.C:
		}
		t.Stop()
		errR.Close()
		close(p.done)
		// Give the SDK time to read the server's last messages, then make
		// sure no leftover writer keeps stdout open.
		time.Sleep(mcpGrace)
		outR.Close()
	}()
	return p, nil
}

// serverEnviron is base (or mm's own environment when base is nil) plus
// extra, which wins over base.
func serverEnviron(base []string, extra map[string]string) []string {
	if len(extra) == 0 {
		return base
	}
	if base == nil {
		base = os.Environ()
	}
	env := slices.Clone(base)
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		env = append(env, k+"="+extra[k])
	}
	return env
}

// exited returns why the process exited, or nil while it runs.
func (p *serverProc) exited() error {
	select {
	case <-p.done:
	default:
		return nil
	}
	var msg string
	var exitErr *exec.ExitError
	switch {
	case p.waitErr == nil:
		msg = "exited"
	case errors.As(p.waitErr, &exitErr):
		msg = fmt.Sprintf("exited (%v)", exitErr)
	default:
		msg = fmt.Sprintf("exited (%v)", p.waitErr)
	}
	if s := p.stderr.quote(); s != "" {
		msg += "; stderr: " + s
	}
	return errors.New(msg)
}

// waitExit waits at most d for the process to exit, and returns exited().
func (p *serverProc) waitExit(d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.done:
	case <-t.C:
	}
	return p.exited()
}

// stop waits at most grace for the process to exit by itself (its stdin
// is closed by then), then kills its process group.
func (p *serverProc) stop(grace time.Duration) error {
	p.stdin.Close()
	if p.waitExit(grace) != nil {
		return nil
	}
	if err := proc.KillGroup(p.cmd.Process); err != nil {
		return err
	}
	if p.waitExit(mcpReapWait) == nil {
		return fmt.Errorf("process %d still runs after SIGKILL", p.cmd.Process.Pid)
	}
	return nil
}

// tailBuffer keeps the last stderrKeep bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - stderrKeep; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

// quote returns the last stderrQuote bytes kept, on one line.
func (b *tailBuffer) quote() string {
	b.mu.Lock()
	s := string(b.buf)
	b.mu.Unlock()
	s = strings.Join(strings.Fields(strings.ToValidUTF8(s, "")), " ")
	if len(s) > stderrQuote {
		s = strings.ToValidUTF8("…"+s[len(s)-stderrQuote:], "")
	}
	return s
}
