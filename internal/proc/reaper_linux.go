package proc

import (
	"errors"
	"io/fs"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// reaper sweeps mm's children on every SIGCHLD: it reaps the adopted ones
// that exited and tells the watchdog the groups of those that run. It is
// started by the first sweep that finds an adopted descendant running: until
// then there is nothing for it to do — mm's own children are reaped by their
// Wait — and a run that adopts none never asks for SIGCHLD, whose handling
// cost the first hook up to 0.15 ms (docs/explanation/performance.md).
type reaper struct {
	sigs chan os.Signal
	quit chan struct{}
	done chan struct{}
}

func (s *supervisor) supervise() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.subreaper {
		return
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return
	}
	s.subreaper = true
}

// startReaper starts the reaper, once; the caller holds s.mu.
func (s *supervisor) startReaper() {
	if s.reaper != nil || s.finished {
		return
	}
	r := &reaper{sigs: make(chan os.Signal, 1), quit: make(chan struct{}), done: make(chan struct{})}
	s.reaper = r
	go s.reap(r)
}

// reap sweeps on every SIGCHLD until stopReaper. It asks for the signal
// itself, then sweeps once: a first signal.Notify waits for the runtime's
// signal thread to start, which the sweep that started it should not wait
// for, and an adopted child that exited before it would have no SIGCHLD
// left to tell of it.
func (s *supervisor) reap(r *reaper) {
	// Done is told before Stop: Stop waits for the runtime's signal
	// delivery to settle (about 0.1 ms), which Shutdown need not wait for.
	defer signal.Stop(r.sigs)
	defer close(r.done)
	signal.Notify(r.sigs, syscall.SIGCHLD)
	s.sweep()
	for {
		select {
		case <-r.sigs:
			s.sweep()
		case <-r.quit:
			return
		}
	}
}

func (s *supervisor) stopReaper() {
	s.mu.Lock()
	r := s.reaper
	s.reaper = nil
	s.mu.Unlock()
	if r == nil {
		return
	}
	close(r.quit)
	<-r.done
}

// sweep keeps the watchdog told of how to kill the adopted children that
// run, then reaps those that have exited; it does nothing unless mm
// supervises. A child that leads a process group in mm's session may be
// one of mm's own, started some other way than Start (whose Wait reaps
// it): it is left alone until Shutdown.
func (s *supervisor) sweep() {
	s.starting.Lock()
	defer s.starting.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.subreaper {
		return
	}
	self, pgrp := os.Getpid(), unix.Getpgrp()
	sid, _ := unix.Getsid(0)
	running := map[target]bool{}
	var exited []int
	adopting := false // an adopted descendant runs
	for _, pid := range adoptable() {
		if s.dog.isWatchdog(pid) {
			continue
		}
		st, ok := readStat(pid)
		if !ok || st.ppid != self {
			continue
		}
		if _, ours := s.groups[pid]; ours || (st.pgrp == pid && st.sid == sid) {
			continue
		}
		if st.state == 'Z' {
			exited = append(exited, pid)
			continue
		}
		if st.pgrp == pgrp && forkOfMM(pid) {
			continue
		}
		adopting = true
		if _, ours := s.groups[st.pgrp]; !ours {
			running[s.targetOf(pid, st, sid)] = true
		}
	}
	for t := range running {
		if !s.adopted[t] {
			s.dog.list(t)
		}
	}
	for t := range s.adopted {
		if !running[t] {
			s.dog.unlist(t)
		}
	}
	s.adopted = running
	// Reaped once no longer listed: a pid the watchdog may kill is never
	// one freed for another process.
	for _, pid := range exited {
		_, _ = unix.Wait4(pid, nil, unix.WNOHANG, nil)
	}
	if adopting {
		s.startReaper()
	}
}

// forkOfMM says whether child pid, in mm's own process group, is mm itself
// between a fork and an exec — the watchdog before it leaves the group, the
// Go runtime's probe of pidfd — rather than a descendant that joined mm's
// group: it still runs mm's executable. A descendant that joined mm's group
// and then ran mm's executable would be taken for one: it is killed by
// Shutdown, not by the watchdog.
func forkOfMM(pid int) bool {
	self, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return true
	}
	exe, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	return err != nil || exe == self
}

// targetOf is how mm kills child pid, which st describes, once it was
// adopted: with its group when a descendant of mm made the group — it leads
// it, or it is in a session a descendant of mm made, every member of which
// descends from that one — and alone otherwise. In mm's own session a
// group mm did not start may be the shell's that ran mm, a job of that
// shell's, or mm's own with the rest of a pipeline (a | mm): a descendant
// that joined it (setpgid) is killed, the group is not. The caller holds
// s.mu.
func (s *supervisor) targetOf(pid int, st stat, sid int) target {
	_, ours := s.groups[st.pgrp]
	if ours || st.pgrp == pid || (st.sid != sid && st.pgrp > 1) {
		return target{st.pgrp, true}
	}
	return target{pid, false}
}

// killDescendants kills every child mm has, with its group where targetOf
// says so, and reaps it, over and over — a killed child's own children
// become mm's — until none is left or wait has passed.
func (s *supervisor) killDescendants(wait time.Duration) {
	if !hasChildren() {
		return
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGCHLD)
	defer signal.Stop(sigs)
	timer := time.NewTimer(wait)
	defer timer.Stop()
	sid, _ := unix.Getsid(0)
	for {
		kids := Children()
		if len(kids) == 0 {
			return
		}
		s.mu.Lock()
		for _, pid := range kids {
			if st, ok := readStat(pid); ok {
				_ = s.targetOf(pid, st, sid).kill()
			}
			_ = unix.Kill(pid, unix.SIGKILL)
		}
		s.mu.Unlock()
		reaped := false
		for _, pid := range kids {
			if wpid, _ := unix.Wait4(pid, nil, unix.WNOHANG, nil); wpid == pid {
				reaped = true
			}
		}
		if reaped {
			continue
		}
		select {
		case <-sigs:
		case <-timer.C:
			return
		}
	}
}

// hasChildren says whether this process has a child, running or exited,
// with one system call (Children reads a file a thread).
func hasChildren() bool {
	var info unix.Siginfo
	err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
	return err != unix.ECHILD
}

// adoptable returns the children of this process's main thread: the
// kernel gives an orphan to the first live thread of its subreaper, the
// main thread, which lives as long as mm. One file to read after every
// command, where Children reads one a thread; Children where the kernel
// has no such file.
func adoptable() []int {
	pids, err := threadChildren(strconv.Itoa(os.Getpid()))
	if err != nil {
		return Children()
	}
	return pids
}

// Children returns the pids of this process's children, as the kernel lists
// them in /proc/self/task/*/children (a child's parent is a thread), or from
// every process's stat where the kernel has no such file
// (CONFIG_PROC_CHILDREN unset).
func Children() []int {
	self := os.Getpid()
	if _, err := os.Stat("/proc/self/task/" + strconv.Itoa(self) + "/children"); errors.Is(err, fs.ErrNotExist) {
		return childrenByStat(self)
	}
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil
	}
	var pids []int
	for _, t := range tasks {
		// A thread that has just exited has no file any more: it has no
		// children either.
		if kids, err := threadChildren(t.Name()); err == nil {
			pids = append(pids, kids...)
		}
	}
	return pids
}

// threadChildren reads the children of one of this process's threads.
func threadChildren(tid string) ([]int, error) {
	b, err := readProc("/proc/self/task/" + tid + "/children")
	if err != nil {
		return nil, err
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids, nil
}

func childrenByStat(self int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := readStat(pid); ok && st.ppid == self {
			pids = append(pids, pid)
		}
	}
	return pids
}

// stat is what mm reads of a process in /proc/<pid>/stat.
type stat struct {
	state           byte // R, S, D, Z, …
	ppid, pgrp, sid int
}

// readStat reads it; false when the process is gone.
func readStat(pid int) (stat, bool) {
	b, err := readProc("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return stat{}, false
	}
	// "pid (comm) state ppid pgrp session …": comm may hold anything,
	// parentheses too, so the fields start after the last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return stat{}, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 4 || len(f[0]) != 1 {
		return stat{}, false
	}
	var st stat
	st.state = f[0][0]
	for j, p := range []*int{&st.ppid, &st.pgrp, &st.sid} {
		n, err := strconv.Atoi(f[j+1])
		if err != nil {
			return stat{}, false
		}
		*p = n
	}
	return st, true
}

// readProc reads a small /proc file with a few system calls: os.ReadFile
// would register it with the poller first, and mm reads these after every
// command and at every exit.
func readProc(path string) ([]byte, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	buf := make([]byte, 0, 512)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := unix.Read(fd, buf[len(buf):cap(buf)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}
