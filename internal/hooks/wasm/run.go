package wasm

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"github.com/mm-agent/mm/internal/hooks"
	"path/filepath"
	goruntime "runtime"
	"sort"
	"strings"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/sys"
)

// Spec is one run of a module.
type Spec struct {
	// Module is the module file's path.
	Module string
	// Args follow the program name, which is always the module's file name.
	Args []string
	// Env is the module's whole environment: nothing else is passed.
	Env map[string]string
	// Stdin is what the module reads on its standard input.
	Stdin []byte
	// Cwd is the folder that Read and Write are in.
	Cwd string
	// Read and Write are relative folders of Cwd the module sees under
	// their own name ("logs" is "logs/…" and "/logs/…" inside), read-only
	// and read-write. Nothing else of the host's files is visible.
	Read, Write []string
	// MaxStdout is the most the module may write on stdout; 0 is
	// hooks.MaxStdout, a hook's limit.
	MaxStdout int
}

// Run runs the module of s in a fresh instance and returns its stdout (at
// most s.MaxStdout bytes). A failure is a *LoadError, a *FolderError, an
// *ExitError, a *CrashError, hooks.ErrStdoutTooLarge (for hooks' limit) or
// a *StdoutError (for another); when ctx ends first, the
// module is stopped — computing or sleeping — and Run returns ctx.Err().
//
// The module's compilation, on its first run, is not counted against ctx's
// deadline: the run gets its whole time once the module is ready (ctx's
// cancellation still ends the wait). The wait for a turn, when
// Options.MaxInstances runs are going, is counted.
func (r *Runtime) Run(ctx context.Context, s Spec) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m, waited, err := r.acquire(ctx, s.Module)
	if err != nil {
		return nil, err
	}
	defer r.release(m)
	if waited > time.Millisecond {
		// The module's first run waited for its compilation: the run gets
		// its whole time after it, and still stops if ctx is cancelled.
		var done func()
		ctx, done = postpone(ctx, waited)
		defer done()
	}

	// At most MaxInstances run at once; the wait for a turn counts against
	// the run's time, unlike the wait for the compilation above.
	if err := r.slots.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	defer r.slots.Release(1)

	mounts, err := mount(s.Cwd, s.Read, s.Write)
	if err != nil {
		return nil, err
	}
	defer mounts.close()

	// The run's own context also ends when stdout overflows.
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	limit := s.MaxStdout
	if limit <= 0 {
		limit = hooks.MaxStdout
	}
	stdout := &stdoutBuffer{stop: stop, limit: limit}
	stderr := &stderrHead{}
	file := filepath.Base(s.Module)

	cfg := wazero.NewModuleConfig().
		WithName(""). // anonymous: instances of one module may run at once
		WithArgs(append([]string{file}, s.Args...)...).
		WithStdin(bytes.NewReader(s.Stdin)).
		WithStdout(stdout).
		WithStderr(stderr).
		WithSysWalltime().
		WithSysNanotime().
		WithNanosleep(sleeper(runCtx)).
		WithOsyield(goruntime.Gosched).
		WithRandSource(rand.Reader).
		WithFSConfig(mounts.config)
	keys := make([]string, 0, len(s.Env))
	for k := range s.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		cfg = cfg.WithEnv(k, s.Env[k])
	}

	r.running.Add(1)
	mod, err := m.rt.InstantiateModule(experimental.WithMemoryAllocator(runCtx, memoryAllocator()), m.code, cfg)
	if mod != nil {
		mod.Close(context.Background())
	}
	r.running.Add(-1)
	if stdout.over {
		if limit != hooks.MaxStdout {
			return nil, &StdoutError{Limit: limit}
		}
		return nil, hooks.ErrStdoutTooLarge
	}
	if err == nil {
		return stdout.buf, nil
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var exit *sys.ExitError
	switch {
	case errors.As(err, &exit):
		if exit.ExitCode() == 0 {
			return stdout.buf, nil
		}
		return nil, &ExitError{Code: exit.ExitCode(), Stderr: quote(stderr.buf)}
	case strings.Contains(err.Error(), "function[_start] failed"):
		return nil, &CrashError{Trap: trapText(err), Stderr: quote(stderr.buf)}
	}
	return nil, &LoadError{File: file, Reason: trapText(err)}
}

// postpone returns a context like ctx whose deadline, if any, is later by
// d. It is cancelled when ctx is cancelled, but not when ctx's own deadline
// passes.
func postpone(ctx context.Context, d time.Duration) (context.Context, func()) {
	deadline, ok := ctx.Deadline()
	if !ok {
		return ctx, func() {}
	}
	later, cancel := context.WithDeadline(context.WithoutCancel(ctx), deadline.Add(d))
	stop := context.AfterFunc(ctx, func() {
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			cancel()
		}
	})
	return later, func() {
		stop()
		cancel()
	}
}

// sleeper is the module's sleep: the real one, cut short when the run ends.
// A guest sleep is a call into mm that the runtime's own watch of the
// context cannot interrupt; once it returns, the runtime stops the module.
func sleeper(ctx context.Context) sys.Nanosleep {
	return func(ns int64) {
		if ns <= 0 {
			return
		}
		t := time.NewTimer(time.Duration(ns))
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
		}
	}
}
