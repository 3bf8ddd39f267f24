package cli

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/mm-agent/mm/internal/proc"
)

// exitGrace is how long, after a signal that ends mm, the session has to
// close by itself — its turn cancelled, its asked agents and MCP servers
// told to stop, postAsk hooks run — before mm kills whatever is left and
// exits. A session closes in milliseconds unless a child ignores being
// told; with proc.ShutdownWait after it, mm is gone within the 3 seconds it
// promises.
const exitGrace = time.Second

// ending watches the signals that end mm. The first cancels the context
// every front end runs under, so that the session ends and closes the way
// it always does. If mm has not exited exitGrace later, or at a second
// signal, everything mm started is killed and reaped and mm exits. Either
// way its exit status is 128 plus the signal's number, as a shell reports
// a command a signal ended. The one exception is SIGINT in mm -p and
// mm --ask, which cancels their turn only (interrupts).
type ending struct {
	sigs   chan os.Signal
	cancel context.CancelFunc
	term   *term.State   // stdin's terminal as mm found it, or nil
	ready  chan struct{} // closed once the signals are watched

	mu  sync.Mutex
	got syscall.Signal // the first signal; 0 while none came
	// turn cancels the one turn of mm -p or mm --ask, which a first SIGINT
	// ends instead of mm (interrupts); post is how long its post hooks may
	// run after it.
	turn context.CancelFunc
	post time.Duration
}

// watchEndings starts watching sigs, for the life of mm; ctx is cancelled
// at the first. The handlers are set up in the background: the first
// signal.Notify starts the runtime's signal thread and waits for it, a
// third of a millisecond that overlaps mm's start rather than adding to
// it. Until they are (ready), a signal ends mm as it would any program,
// which is harmless while mm has started nothing: ready is awaited before
// mm starts what a signal must stop cleanly.
func watchEndings(sigs ...os.Signal) (context.Context, *ending) {
	ctx, cancel := context.WithCancel(context.Background())
	e := &ending{sigs: make(chan os.Signal, 2), cancel: cancel, ready: make(chan struct{})}
	go func() {
		if fd := int(os.Stdin.Fd()); term.IsTerminal(fd) {
			e.term, _ = term.GetState(fd)
		}
		signal.Notify(e.sigs, sigs...)
		close(e.ready)
		e.watch()
	}()
	return ctx, e
}

// wait returns once the signals are watched: before mm starts a session, a
// child or a server. A nil ending (a test's) has nothing to wait for.
func (e *ending) wait() {
	if e != nil {
		<-e.ready
	}
}

// also adds sigs to the signals that end mm.
func (e *ending) also(sigs ...os.Signal) { signal.Notify(e.sigs, sigs...) }

// interrupts makes SIGINT end the one turn of mm -p or mm --ask, run under
// the context it returns (ctx's child), rather than mm at once: the hooks
// reference has postGeneration and postAsk run after a Ctrl-C, bounded by
// their timeouts, whose sum is post. mm exits with 130 once they have run,
// or exitGrace after post at the latest; a second signal (another Ctrl-C,
// SIGTERM, SIGHUP) ends everything at once. SIGTERM and SIGHUP first end mm
// as they always do.
func (e *ending) interrupts(ctx context.Context, post time.Duration) context.Context {
	ctx, cancel := context.WithCancel(ctx)
	e.mu.Lock()
	e.turn, e.post = cancel, post
	e.mu.Unlock()
	signal.Notify(e.sigs, os.Interrupt)
	return ctx
}

// watch runs until mm exits: by the end of main, or by exitNow.
func (e *ending) watch() {
	var late <-chan time.Time
	for {
		select {
		case s := <-e.sigs:
			if !e.record(s) {
				e.exitNow() // a second signal: at once
			}
			if cancelTurn, post := e.interrupted(s); cancelTurn != nil {
				cancelTurn()
				late = time.After(exitGrace + post)
				continue
			}
			e.cancel()
			late = time.After(exitGrace)
		case <-late:
			// The front end is still closing, or cannot notice (a read
			// of the terminal).
			e.exitNow()
		}
	}
}

// interrupted returns what cancels the one turn, and how long its post
// hooks may run, when s is a SIGINT that ends a turn rather than mm.
func (e *ending) interrupted(s os.Signal) (context.CancelFunc, time.Duration) {
	if s != os.Interrupt {
		return nil, 0
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.turn, e.post
}

// record keeps s if it is the first signal, and says so.
func (e *ending) record(s os.Signal) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.got != 0 {
		return false
	}
	e.got = syscall.SIGTERM
	if n, ok := s.(syscall.Signal); ok {
		e.got = n
	}
	return true
}

// exitNow gives the terminal back as it was, kills and reaps everything
// mm started, and exits.
func (e *ending) exitNow() {
	if e.term != nil {
		_ = term.Restore(int(os.Stdin.Fd()), e.term)
	}
	proc.Shutdown()
	os.Exit(e.status(0))
}

// status is code, or 128 plus the number of the signal that ended mm.
func (e *ending) status(code int) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.got != 0 {
		return 128 + int(e.got)
	}
	return code
}
