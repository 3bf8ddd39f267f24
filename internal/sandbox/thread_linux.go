package sandbox

import (
	"fmt"
	"os/exec"
	"runtime"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"

	"github.com/mm-agent/mm/internal/proc"
)

// ruleset is the Landlock ruleset of p: read and run anything, write only
// in p's folders and the devices, and — when the network is off — neither
// connect nor listen over TCP; signals and abstract sockets reach only the
// processes confined with it. fd is -1 when there is nothing the kernel
// can enforce.
func (p *Policy) ruleset() (fd int, flags uint32, err error) {
	var cfg landlock.Config
	var rules []landlock.Rule
	if p.mode != Off && p.support.Files() {
		cfg.HandledAccessFS = landlock.V11.HandledAccessFS
		cfg.Scoped = landlock.ScopedSet(ll.ScopeAbstractUnixSocket | ll.ScopeSignal)
		rules = append(rules,
			landlock.RODirs("/"),
			landlock.RWDirs(p.write...).WithRefer().IgnoreIfMissing(),
			landlock.RWFiles(devices...).IgnoreIfMissing())
	}
	if !p.network && p.support.Net() {
		cfg.HandledAccessNet = landlock.AccessNetSet(ll.AccessNetBindTCP | ll.AccessNetConnectTCP)
	}
	if cfg.HandledAccessFS == 0 && cfg.HandledAccessNet == 0 {
		return -1, 0, nil
	}
	fd, flags, err = cfg.BestEffort().NewRulesetFD(rules...)
	if err != nil {
		return -1, 0, fmt.Errorf("sandbox: make the Landlock ruleset: %w", err)
	}
	return fd, flags, nil
}

// onConfinedThread runs f on an OS thread of its own, confined by p, and
// returns its error. The thread ends with f (it is never unlocked), so no
// other goroutine ever runs confined. f must not return while a process
// it forked still runs: the kernel's parent-death signal (internal/proc)
// follows the thread that forked.
func (p *Policy) onConfinedThread(f func() error) error {
	if !p.Confines() {
		return f()
	}
	fd, flags, err := p.ruleset()
	if err != nil {
		return err
	}
	if fd < 0 {
		return f()
	}
	done := make(chan error, 1)
	go func() {
		defer unix.Close(fd)
		runtime.LockOSThread() // never unlocked: the thread dies with this goroutine
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			done <- fmt.Errorf("sandbox: set no_new_privs: %w", err)
			return
		}
		if err := ll.LandlockRestrictSelf(fd, flags); err != nil {
			done <- fmt.Errorf("sandbox: enforce the Landlock ruleset: %w", err)
			return
		}
		if !p.network && p.support.Net() {
			if err := noMPTCP(); err != nil {
				done <- err
				return
			}
		}
		done <- f()
	}()
	return <-done
}

// Do runs f, which touches files, on a thread confined by p: a write f
// makes outside p's folders is refused by the kernel, whatever links were
// planted between a check and the write.
func (p *Policy) Do(f func() error) error { return p.onConfinedThread(f) }

// Start starts cmd as proc.Start does, confined by p: the command and all
// it starts. Call release once proc.Wait returned for cmd; until then a
// thread of mm's stays parked for it.
func (p *Policy) Start(cmd *exec.Cmd) (release func(), err error) {
	if !p.Confines() {
		return func() {}, proc.Start(cmd)
	}
	// The watchdog and the runtime's first fork must not start confined.
	proc.Ready()
	started := make(chan error, 1)
	waited := make(chan struct{})
	go func() {
		err := p.onConfinedThread(func() error {
			err := proc.Start(cmd)
			started <- err
			if err == nil {
				<-waited
			}
			return nil
		})
		if err != nil { // the thread could not be confined: nothing started
			started <- err
		}
	}()
	if err := <-started; err != nil {
		return func() {}, err
	}
	return func() { close(waited) }, nil
}
