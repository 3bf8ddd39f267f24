package hooks

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
)

// MaxStdout is the most a hook may write on stdout: one more byte is a failure.
const MaxStdout = 1 << 20

// ErrStdoutTooLarge is the failure of a run that wrote more than MaxStdout
// bytes on stdout, with the reference's text; every runner returns it.
var ErrStdoutTooLarge = fmt.Errorf("stdout larger than %d bytes", MaxStdout)

// maxStderr is how much of a failed run's stderr its failure quotes.
const maxStderr = 300

// WasmRunner runs a wasm hook: the module of e with input on its stdin and
// MM_HOOK_EVENT=ev as its only environment, its folders mounted from cwd. It
// returns stdout (at most MaxStdout bytes) or a failure whose Error() is the
// reference's text ("exit code 2: …", "x.wasm cannot be loaded: …", "stdout
// larger than 1048576 bytes"). ctx carries the run's timeout and the turn's
// cancellation: when the run ends because ctx did, the error wraps ctx.Err()
// (context.DeadlineExceeded for a timeout), and the engine words it.
type WasmRunner interface {
	RunHook(ctx context.Context, e *Entry, ev Event, cwd string, input []byte) ([]byte, error)
}

// exec runs one entry on input and returns its stdout, or its failure.
// base is the chain's context: cancelling it is "cancelled", the entry's
// timeout running out is "timed out after …".
func (e *Engine) exec(base context.Context, ev Event, en *Entry, input []byte) ([]byte, *RunError) {
	timeout := en.timeout()
	ctx, cancel := context.WithTimeout(base, timeout)
	defer cancel()

	var out []byte
	var err error
	switch {
	case en.Wasm != "" && e.opts.Wasm == nil:
		return nil, failedf("%s cannot be loaded: this mm runs no wasm hooks", filepath.Base(en.Wasm))
	case en.Wasm != "":
		out, err = e.opts.Wasm.RunHook(ctx, en, ev, e.opts.Cwd, input)
		if err == nil && len(out) > MaxStdout {
			err = ErrStdoutTooLarge
		}
	default:
		out, err = e.runCommand(ctx, ev, en, input)
	}
	if err == nil {
		return out, nil
	}
	switch {
	case base.Err() != nil:
		return nil, cancelled()
	case en.Wasm != "" && errors.Is(err, context.DeadlineExceeded),
		en.Wasm == "" && ctx.Err() != nil:
		// A wasm module's first run may outlive ctx's deadline while it
		// compiles (the runner postpones its own): only its word counts.
		return nil, timedOut(timeout)
	}
	return nil, failed(err)
}
