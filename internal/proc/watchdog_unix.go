//go:build unix

package proc

import (
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// What mm tells the watchdog, one line each: "+ <pgid>" when a group starts,
// "- <pgid>" when it has ended.
const (
	groupStarted = '+'
	groupEnded   = '-'
)

// watchdogWriteWait bounds one write to the watchdog. It reads as fast as mm
// writes, a few bytes per child; only a stopped or wedged watchdog makes mm
// wait, and then mm goes on without it rather than hold up a hook.
const watchdogWriteWait = 100 * time.Millisecond

// watchdogScript is the watchdog: it keeps the groups it is told of until
// its stdin reaches end of file — mm, the only holder of the other end, has
// exited or died, however — then kills every group still there. It is in a
// group of its own (a Ctrl-C at the terminal does not reach it) and ignores
// the signals of a closed terminal, so that it outlives mm by the moment its
// work takes. Only shell builtins: it starts no process.
const watchdogScript = `trap '' INT HUP QUIT
live=' '
while read -r op id; do
	case $op in
	+) live="$live$id " ;;
	-) case $live in *" $id "*) live="${live%%" $id "*} ${live#*" $id "}" ;; esac ;;
	esac
done
for id in $live; do kill -s KILL -- "-$id"; done 2>/dev/null
`

// watchdog is mm's end of the watchdog: the write end of its stdin, which no
// child inherits (close-on-exec).
type watchdog struct {
	w, r    *os.File      // its pipe's ends; r is closed once it runs
	started chan struct{} // closed once the watchdog runs, or could not start

	mu     sync.Mutex
	pid    int  // 0 until it runs
	broken bool // it could not start, or a write failed: it is gone or stuck
}

// newWatchdog makes the watchdog's pipe, or returns nil when there can be
// none: mm then runs without it. What mm tells it waits in the pipe until
// run starts it.
func newWatchdog() *watchdog {
	r, w, err := os.Pipe()
	if err != nil {
		return nil
	}
	return &watchdog{w: w, r: r, started: make(chan struct{})}
}

// run starts the watchdog in the background once the first child has
// started, where Prepare did not start it, so that the child's start does
// not wait on the watchdog's (a fork holds syscall.ForkLock until the new
// program runs).
func (d *watchdog) run() {
	if d != nil {
		go d.start()
	}
}

// start runs the watchdog on the read end of its pipe and returns once it
// runs; Prepare calls it from its own goroutine, already in the background.
// Its arguments name it and mm in ps: "mm-watchdog <pid>".
func (d *watchdog) start() {
	if d == nil {
		return
	}
	defer close(d.started)
	cmd := exec.Command("/bin/sh", "-c", watchdogScript, "mm-watchdog", strconv.Itoa(os.Getpid()))
	cmd.Stdin = d.r
	cmd.Env = []string{}
	// Its own group, and no parent-death signal: it must outlive mm.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err := cmd.Start()
	d.r.Close()
	d.mu.Lock()
	defer d.mu.Unlock()
	if err != nil {
		d.broken = true
		d.w.Close()
		return
	}
	d.pid = cmd.Process.Pid
}

// kill kills the watchdog, once it runs: at Shutdown, when mm has killed
// what it was told of. It is killed rather than told to end (its pipe
// closed) because a process killed is reaped soonest. Reap it then.
func (d *watchdog) kill() {
	if pid := d.runningPid(); pid != 0 {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// reap waits for the watchdog kill has killed.
func (d *watchdog) reap() {
	pid := d.runningPid()
	if pid == 0 {
		return
	}
	for {
		_, err := syscall.Wait4(pid, nil, 0, nil)
		if err != syscall.EINTR {
			return
		}
	}
}

// runningPid waits for the watchdog's start and returns its pid, 0 when it
// could not start or there is none.
func (d *watchdog) runningPid() int {
	if d == nil {
		return 0
	}
	<-d.started
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.pid
}

// tell writes one line; the caller holds the supervisor's lock.
func (d *watchdog) tell(op byte, pgid int) {
	if d == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.broken {
		return
	}
	line := strconv.AppendInt([]byte{op, ' '}, int64(pgid), 10)
	line = append(line, '\n')
	_ = d.w.SetWriteDeadline(time.Now().Add(watchdogWriteWait))
	if _, err := d.w.Write(line); err != nil {
		d.broken = true
	}
}

// isWatchdog says whether pid is the watchdog's.
func (d *watchdog) isWatchdog(pid int) bool {
	if d == nil {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.pid == pid
}
