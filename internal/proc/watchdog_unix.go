//go:build unix

package proc

import (
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
)

// The watchdog's table is a file of slots, one a target, each a line of
// two words that mm stores whole, one at a time: the kind, then the id
// ("  group    1234", "process    5678"). A slot whose kind is blank is
// skipped, whatever its id, and the first slot of kind end ends the table:
// each change is ordered so that a SIGKILL between two stores leaves a
// table that lists only what mm listed (see list and unlist).
const (
	wordSize = 8
	slotSize = 2 * wordSize
	// tableSlots bounds the table: a target past it is not listed. The
	// table is sealed at that size on Linux (watchdogtable_linux.go); only
	// the pages its slots reach are allocated.
	tableSlots = 1 << 16
	// maxID is the widest id a word holds: seven digits, as every pid is
	// (Linux's limit is 4194304, the BSDs' and macOS's 99999).
	maxID = 9_999_999
)

// A word is one half of a slot.
type word [wordSize]byte

var (
	kindGroup   = word([]byte("  group "))
	kindProcess = word([]byte("process "))
	kindEnd     = word([]byte("     end"))
	blankKind   = word([]byte("        "))
	blankID     = word([]byte("       \n"))
)

// idWord is id right-aligned in a word with its newline; false when it does
// not fit, or names no process of mm's (1 is init).
func idWord(id int) (word, bool) {
	if id <= 1 || id > maxID {
		return word{}, false
	}
	w := blankID
	s := strconv.Itoa(id)
	copy(w[wordSize-1-len(s):], s)
	return w, true
}

// watchdogScript is the watchdog: it sleeps until its stdin reaches end of
// file — mm, the only holder of the other end, has exited or died, however
// — then kills every target its table (fd 3) still lists, up to its end.
// mm never writes to its stdin and never wakes it: what it tells is written
// to the table, which the watchdog reads once, at the end. No other process
// can write to the table (newTable), and the script takes a line only in
// the form mm writes, an id of at most seven digits, over 1, not its own:
// never -1 (every process), 0 (its own group) or 1 (init). It is in a group
// of its own (a Ctrl-C at the terminal does not reach it) and ignores the
// signals of a closed terminal, so that it outlives mm by the moment its
// work takes. Only shell builtins: it starts no process.
const watchdogScript = `trap '' INT HUP QUIT
while read -r _; do :; done
while read -r kind id; do
	case $kind in end) break ;; group | process) ;; *) continue ;; esac
	case $id in '' | 0* | *[!0-9]* | ????????*) continue ;; esac
	[ "$id" -gt 1 ] && [ "$id" -ne $$ ] || continue
	if [ "$kind" = group ]; then kill -s KILL -- "-$id"; else kill -s KILL -- "$id"; fi
done <&3 2>/dev/null
`

// watchdog is mm's end of the watchdog: the write end of its stdin and its
// table, which no child inherits (close-on-exec).
type watchdog struct {
	w, r    *os.File      // its stdin's ends: w is never written, its close at mm's end is the signal; r is closed once it runs
	table   *table        // what it kills at the end, one slot a target
	started chan struct{} // closed once the watchdog runs, or could not start

	mu     sync.Mutex
	pid    int              // 0 until it runs
	slots  map[target]int64 // a listed target's slot, by its offset
	free   []int64          // the offsets of blank slots; the end is at slot len(slots)+len(free)
	broken bool             // it could not start, or the table could not be written
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
		table.close()
		return nil
	}
	return &watchdog{w: w, r: r, table: table, started: make(chan struct{}), slots: map[target]int64{}}
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
	cmd.ExtraFiles = []*os.File{d.table.f}
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

// list writes t into a free slot of the table, or into the end, which
// moves on first; a target listed already, or one that does not fit, is
// left as it is. Each store is one word, which a SIGKILL cannot cut in two,
// and wakes nobody; the caller holds the supervisor's lock.
func (d *watchdog) list(t target) {
	if d == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, listed := d.slots[t]; listed || d.broken {
		return
	}
	id, ok := idWord(t.id)
	if !ok {
		return
	}
	var at int64
	if n := len(d.free); n > 0 {
		at, d.free = d.free[n-1], d.free[:n-1]
	} else {
		n := int64(len(d.slots)) // no slot is free: the end is the next
		if n+1 >= tableSlots {
			return
		}
		at = n * slotSize
		d.store(at+slotSize+wordSize, blankID)
		d.store(at+slotSize, kindEnd)
	}
	// The id first: until its kind is written the slot is skipped (a
	// blank one) or ends the table (the old end).
	kind := kindProcess
	if t.group {
		kind = kindGroup
	}
	d.store(at+wordSize, id)
	d.store(at, kind)
	d.slots[t] = at
}

// unlist blanks the slot of t, kind first, so that its id no longer counts
// from the first store on.
func (d *watchdog) unlist(t target) {
	if d == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	at, listed := d.slots[t]
	if !listed || d.broken {
		return
	}
	delete(d.slots, t)
	d.free = append(d.free, at)
	d.store(at, blankKind)
	d.store(at+wordSize, blankID)
}

// store writes w at off, or marks the table broken; the caller holds d.mu.
func (d *watchdog) store(off int64, w word) {
	if d.broken {
		return
	}
	if err := d.table.store(off, w); err != nil {
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
