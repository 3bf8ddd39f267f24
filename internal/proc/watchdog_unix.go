//go:build unix

package proc

import (
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
)

// What mm tells the watchdog: a group started, a group ended.
const (
	groupStarted = '+'
	groupEnded   = '-'
)

// slotWidth is the size of one slot of the watchdog's table: a group's id
// right-aligned in ten characters (any 32-bit pid) and a newline. A slot
// whose group ended is blank.
const slotWidth = 11

// watchdogScript is the watchdog: it sleeps until its stdin reaches end of
// file — mm, the only holder of the other end, has exited or died, however
// — then kills every group its table (fd 3) still lists. mm never writes to
// its stdin and never wakes it: what it tells is written to the table,
// which the watchdog reads once, at the end. It is in a group of its own (a
// Ctrl-C at the terminal does not reach it) and ignores the signals of a
// closed terminal, so that it outlives mm by the moment its work takes.
// Only shell builtins: it starts no process.
const watchdogScript = `trap '' INT HUP QUIT
while read -r _; do :; done
while read -r id; do
	case $id in ?*) kill -s KILL -- "-$id" ;; esac
done <&3 2>/dev/null
`

// watchdog is mm's end of the watchdog: the write end of its stdin and its
// table, which no child inherits (close-on-exec).
type watchdog struct {
	w, r    *os.File      // its stdin's ends: w is never written, its close at mm's end is the signal; r is closed once it runs
	table   *os.File      // the groups it kills at the end, one slot each
	started chan struct{} // closed once the watchdog runs, or could not start

	mu     sync.Mutex
	pid    int           // 0 until it runs
	slots  map[int]int64 // a listed group's slot, by its offset
	free   []int64       // the offsets of blank slots; the table holds len(slots)+len(free) slots
	broken bool          // it could not start, or the table could not be written
}

// newWatchdog makes the watchdog's pipe and table, or returns nil when there
// can be none: mm then runs without it. What mm tells it is in the table
// before run starts it.
func newWatchdog() *watchdog {
	table, err := newTable()
	if err != nil {
		return nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		table.Close()
		return nil
	}
	return &watchdog{w: w, r: r, table: table, started: make(chan struct{}), slots: map[int]int64{}}
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
	cmd.ExtraFiles = []*os.File{d.table}
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

// tell lists a group that started in a slot of the table, or blanks the
// slot of one that ended. Each is one write of a whole slot, which a SIGKILL
// cannot cut in two and which wakes nobody; the caller holds the
// supervisor's lock.
func (d *watchdog) tell(op byte, pgid int) {
	if d == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.broken {
		return
	}
	var slot [slotWidth]byte
	for i := range slot {
		slot[i] = ' '
	}
	slot[slotWidth-1] = '\n'
	var at int64
	switch op {
	case groupStarted:
		if _, listed := d.slots[pgid]; listed {
			return
		}
		id := strconv.Itoa(pgid)
		copy(slot[slotWidth-1-len(id):], id)
		if n := len(d.free); n > 0 {
			at, d.free = d.free[n-1], d.free[:n-1]
		} else {
			at = int64(len(d.slots)) * slotWidth // past the last slot: none is free
		}
		d.slots[pgid] = at
	case groupEnded:
		var listed bool
		if at, listed = d.slots[pgid]; !listed {
			return
		}
		delete(d.slots, pgid)
		d.free = append(d.free, at)
	}
	if _, err := d.table.WriteAt(slot[:], at); err != nil {
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
