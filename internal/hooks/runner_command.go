package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/mm-agent/mm/internal/proc"
	"github.com/mm-agent/mm/internal/textcut"
	"github.com/mm-agent/mm/internal/tracing"
)

// pipeGrace is how long a run waits, once its command has exited or been
// killed, for whatever else holds its stdout or stderr (a background child
// it left behind) before closing the pipes and killing its process group.
const pipeGrace = 500 * time.Millisecond

// runCommand runs a command hook: sh -c in the session's directory, in a
// process group of its own so that a timeout or a cancellation kills
// everything it started, and once it is over, whatever it left behind. It
// returns stdout, or an error whose text is the failure (ctx's errors are
// worded by the caller).
func (e *Engine) runCommand(ctx context.Context, ev Event, en *Entry, input []byte) ([]byte, error) {
	// Overflowing stdout stops the run at once rather than reading on.
	ctx, stop := context.WithCancel(ctx)
	defer stop()

	env := e.opts.Environ
	if env == nil {
		env = os.Environ()
	}
	// The full slice expression makes append copy: chains share Environ.
	env = append(env[:len(env):len(env)], "MM_HOOK_EVENT="+string(ev), "MM_CONFIG_DIR="+en.ConfigDir)
	env = tracing.Environ(ctx, env) // the hook run's span, for a hook that traces too

	stdout := &cappedBuffer{max: MaxStdout, overflow: stop}
	stderr := textcut.NewHead(maxStderr) // a chatty stderr never blocks the command
	cmd := exec.CommandContext(ctx, shPath(), "-c", en.Command)
	cmd.Args[0] = "sh" // the hook's $0, wherever sh is
	cmd.Dir = e.opts.Cwd
	cmd.Env = env
	cmd.Stdin = bytes.NewReader(input)
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	cmd.Cancel = proc.CancelGroup(cmd)
	cmd.WaitDelay = pipeGrace

	if err := proc.Start(cmd); err != nil {
		// exec blames sh for a working directory that is missing.
		var pe *fs.PathError
		if _, serr := os.Stat(cmd.Dir); cmd.Dir != "" && errors.As(serr, &pe) {
			return nil, fmt.Errorf("cannot start sh -c in %s: %v", cmd.Dir, pe.Err)
		}
		return nil, fmt.Errorf("cannot start sh -c: %v", err)
	}
	// Whatever the command left running in its group is killed, after a
	// success too: nothing a hook starts outlives its run.
	err := proc.Wait(cmd)
	var ee *exec.ExitError
	switch {
	case stdout.over:
		return nil, ErrStdoutTooLarge
	case err == nil, errors.Is(err, exec.ErrWaitDelay):
		// ErrWaitDelay: the command succeeded, a child it left kept the
		// pipes open; what it wrote before exiting is its reply.
		return stdout.buf, nil
	case errors.As(err, &ee):
		msg := fmt.Sprintf("exit status %d", proc.ExitStatus(ee))
		if s := strings.TrimRightFunc(stderr.String(), unicode.IsSpace); s != "" {
			msg += ": " + s
		}
		return nil, errors.New(msg)
	}
	return nil, err
}

// shPath is the sh on mm's PATH, looked up once: exec.Command looks it up
// again at every call, a stat for each PATH entry before sh's. Prepare
// looks it up in the background. "sh" when it is not found, so that the
// run's start reports exec's own error.
var shPath = sync.OnceValue(func() string {
	p, err := exec.LookPath("sh")
	if err != nil {
		return "sh"
	}
	return p
})

// cappedBuffer keeps a command's stdout up to max bytes; one more byte
// marks it over and calls overflow, and the copy stops.
type cappedBuffer struct {
	buf      []byte
	max      int
	over     bool
	overflow func()
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if len(c.buf)+len(p) > c.max {
		c.over = true
		c.overflow()
		return 0, ErrStdoutTooLarge
	}
	c.buf = append(c.buf, p...)
	return len(p), nil
}
