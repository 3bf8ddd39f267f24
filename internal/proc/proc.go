package proc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// ShutdownWait bounds how long Shutdown waits for the processes it killed to
// be reaped. SIGKILL cannot be refused, so only a process stuck in the
// kernel (a dead network mount) takes longer than a few milliseconds; mm
// must still exit well within the 3 seconds a supervisor or a person gives
// it after a signal.
const ShutdownWait = time.Second

// errNoGroup is killGroup's error for a group that does not exist (any
// longer), or a system without process groups.
var errNoGroup = errors.New("no such process group")

// std is the process's supervisor: there is one set of children, one
// watchdog, one subreaper per process.
var std = newSupervisor()

// supervisor tracks the process groups mm started and the descendants it
// adopted.
type supervisor struct {
	// starting is held for reading while a child starts and is registered,
	// for writing while the reaper sweeps: a sweep never mistakes a child
	// of ours, not yet registered, for one it may reap.
	starting sync.RWMutex

	mu       sync.Mutex
	groups   map[int]struct{} // groups started, not yet ended: their leaders' pids
	adopted  map[target]bool  // how the adopted descendants are killed, told to the watchdog
	dog      *watchdog        // nil until the first start, or when it could not start
	dogTried bool
	started  bool // a child was started: Shutdown has descendants to look for
	// supervising says Supervise was called: mm becomes the subreaper at
	// its first child.
	supervising bool
	subreaper   bool    // mm is its descendants' subreaper (Linux)
	reaper      *reaper // non-nil from the first adoption until Shutdown (Linux)

	shutdown  sync.Once
	finished  bool          // Shutdown has begun: Prepare starts nothing
	preparing atomic.Bool   // Prepare was called
	prepared  chan struct{} // closed once Prepare's work is over
}

func newSupervisor() *supervisor {
	return &supervisor{groups: map[int]struct{}{}, adopted: map[target]bool{}, prepared: make(chan struct{})}
}

// A target is what mm kills of a descendant: the process group id leads,
// or the process id alone.
type target struct {
	id    int
	group bool
}

// kill sends t SIGKILL; a target already gone is not an error.
func (t target) kill() error {
	if t.group {
		if err := killGroup(t.id); err != nil && !errors.Is(err, errNoGroup) {
			return err
		}
		return nil
	}
	return killProcess(t.id)
}

// SysProcAttr returns the attributes of a child of mm: the leader of a new
// process group, killed by the kernel should mm die first (Linux). Start
// sets them itself; a caller that starts a command some other way sets
// cmd.SysProcAttr to them.
func SysProcAttr() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{}
	prepare(a)
	return a
}

// prepare sets a's fields for a child of mm, keeping the others.
func prepare(a *syscall.SysProcAttr) {
	ownGroup(a)
	dieWithParent(a)
}

// Start starts cmd as a child of mm (see SysProcAttr) and tells the watchdog
// of its group, starting the watchdog first if this is mm's first child.
// End it with Wait.
func Start(cmd *exec.Cmd) error { return std.start(cmd, true) }

// StartSupervisor starts cmd as Start does, for a child that is itself an
// mm: it dies with mm (Pdeathsig), and it kills its own descendants when it
// dies, however, with a watchdog of its own. mm's watchdog is not needed
// for it, so a session that only asks other agents starts none.
func StartSupervisor(cmd *exec.Cmd) error { return std.start(cmd, false) }

// Wait waits for cmd, started by Start, then kills whatever is left of its
// process group — background jobs of a command that succeeded too — and
// tells the watchdog the group is over. It returns cmd.Wait's error.
func Wait(cmd *exec.Cmd) error { return std.wait(cmd) }

// KillGroup kills, with SIGKILL, the process group p leads: p and everything
// it started that did not leave the group. A group that is already gone is
// not an error; nor is a nil p. Where there are no process groups, or when
// the leader has left its group, p alone is killed.
func KillGroup(p *os.Process) error {
	if p == nil {
		return nil
	}
	err := killGroup(p.Pid)
	if err == nil {
		return nil
	}
	if !errors.Is(err, errNoGroup) {
		return fmt.Errorf("kill process group %d: %w", p.Pid, err)
	}
	if err := p.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("kill process %d: %w", p.Pid, err)
	}
	return nil
}

// Supervise makes mm the subreaper of its descendants (Linux): a process
// that leaves its group and is orphaned becomes mm's child, found after the
// command it escaped ends, told to the watchdog while it runs, reaped when
// it exits (by the reaper, which starts at the first such adoption), and
// killed by Shutdown. Call
// it once, at the start of main, and end with Shutdown; it takes effect
// when mm starts its first child (before it), so that a run that starts
// none pays nothing. Every child of a supervising process must be started
// by Start or be the leader of its own process group (SysProcAttr): the
// reaper leaves those to their own Wait.
func Supervise() {
	std.mu.Lock()
	defer std.mu.Unlock()
	std.supervising = true
}

// Prepare does, in the background, the one-off work of mm's first child:
// becoming the subreaper (when Supervise was called), the Go runtime's
// probe of pidfd (a fork of its own, at its first process start), and
// starting the watchdog. A caller that knows a child will come soon — a
// configuration with command hooks — calls it as early as it can, so that
// the child's start does not pay for them; a run that starts no child
// never calls it. It reports whether this call began the work: later calls
// do nothing.
func Prepare() bool {
	if !std.preparing.CompareAndSwap(false, true) {
		return false
	}
	go std.prepare()
	return true
}

// Ready does Prepare's work, if no call did, and returns once it is over:
// for a caller that starts its child from a thread of its own
// (internal/sandbox's confined one), which the watchdog and the runtime's
// probe must not share.
func Ready() {
	Prepare()
	<-std.prepared
}

// prepare is Prepare's work; Shutdown waits for it (prepared), so that no
// process it starts, the runtime's probe included, outlives Shutdown.
func (s *supervisor) prepare() {
	defer close(s.prepared)
	s.mu.Lock()
	if s.finished || s.dogTried {
		s.mu.Unlock()
		return
	}
	supervise := s.supervising && !s.started
	s.mu.Unlock()
	if supervise {
		s.supervise()
	}
	// The probe, by the one call that makes it without starting a
	// process; the watchdog's start then forks once, not twice. Its child
	// is the runtime's to reap: no sweep runs meanwhile.
	s.starting.RLock()
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		_ = p.Release()
	}
	s.starting.RUnlock()
	s.mu.Lock()
	if s.finished || s.dogTried {
		s.mu.Unlock()
		return
	}
	s.dogTried, s.started = true, true
	s.dog = newWatchdog()
	dog := s.dog
	s.mu.Unlock()
	dog.start()
}

// Shutdown kills every process group mm started and has not seen end, then
// kills and reaps every descendant mm still has (Linux: its children,
// adopted ones included, until none is left), waiting at most ShutdownWait.
// Call it once mm's session is closed, just before exiting; later calls do
// nothing.
func Shutdown() { std.shutdown.Do(std.finish) }

func (s *supervisor) start(cmd *exec.Cmd, watch bool) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	prepare(cmd.SysProcAttr)
	s.mu.Lock()
	supervise := s.supervising && !s.started
	s.mu.Unlock()
	if supervise {
		s.supervise() // before the first child, which may leave orphans
	}
	s.mu.Lock()
	s.started = true
	first := watch && !s.dogTried
	if first {
		// With the first child: its group is told to the watchdog's pipe
		// before the child runs, and read when the watchdog does, which
		// starts once the child has.
		s.dogTried = true
		s.dog = newWatchdog()
	}
	dog := s.dog
	s.mu.Unlock()
	if first {
		defer dog.run()
	}

	s.starting.RLock()
	defer s.starting.RUnlock()
	if err := cmd.Start(); err != nil {
		return err
	}
	pid := cmd.Process.Pid
	s.mu.Lock()
	s.groups[pid] = struct{}{}
	s.dog.list(target{pid, true})
	s.mu.Unlock()
	return nil
}

func (s *supervisor) wait(cmd *exec.Cmd) error {
	err := cmd.Wait()
	if cmd.Process == nil {
		return err
	}
	_ = KillGroup(cmd.Process)
	pid := cmd.Process.Pid
	s.mu.Lock()
	if _, ok := s.groups[pid]; ok {
		delete(s.groups, pid)
		s.dog.unlist(target{pid, true})
	}
	s.mu.Unlock()
	// What escaped the group and lost its parent is mm's now, with no
	// SIGCHLD to tell of it: look now, so that the watchdog knows of it
	// before Wait returns. Leaving it to the reaper (on the leader's
	// SIGCHLD) saved 0.2 ms, but a SIGKILL in that moment let an escaped
	// job outlive mm (TestWatchdog caught it).
	s.sweep()
	return err
}

// finish is Shutdown's work.
func (s *supervisor) finish() {
	s.mu.Lock()
	s.finished = true
	s.mu.Unlock()
	if s.preparing.Load() {
		<-s.prepared
	}
	s.mu.Lock()
	dog, started := s.dog, s.started
	groups := make([]int, 0, len(s.groups))
	for g := range s.groups {
		groups = append(groups, g)
	}
	// Adopted processes are killed under the lock, which the sweep holds
	// to reap: a pid is never one the sweep has reaped and freed for reuse.
	for t := range s.adopted {
		_ = t.kill()
	}
	s.mu.Unlock()
	if !started {
		// No child was ever started, so mm has no descendant to adopt
		// and no reaper (it starts at the first adoption): a turn that
		// started nothing pays nothing at its end either.
		return
	}
	// Every group the watchdog knows of, then the watchdog, killed before
	// the reaper is stopped and reaped after, so that its death overlaps
	// that work. With it gone the look for other descendants below is one
	// system call when nothing else is left.
	for _, g := range groups {
		_ = killGroup(g)
	}
	dog.kill()
	s.stopReaper()
	dog.reap()
	s.killDescendants(ShutdownWait)
}
