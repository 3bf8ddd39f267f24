//go:build linux

// Package proctest lets a test see what the processes it starts leave
// behind: the test process becomes their subreaper, so that every orphan
// among their descendants becomes its child instead of init's, running or
// exited (a zombie nobody reaped).
package proctest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/mm-agent/mm/internal/proc"
)

// Orphans are the processes a test adopted: the test process's children
// but those it had when it began to adopt — its own, such as the watchdog
// of an earlier test that ran mm's code in this process.
type Orphans struct {
	own []int
}

// Process is one adopted process.
type Process struct {
	Pid int
	// Exited says it is a zombie: it ended, and whoever should have reaped
	// it did not.
	Exited  bool
	Cmdline string
}

func (p Process) String() string {
	if p.Exited {
		return fmt.Sprintf("%d (exited, not reaped) %s", p.Pid, p.Cmdline)
	}
	return fmt.Sprintf("%d %s", p.Pid, p.Cmdline)
}

// Adopt makes the test process the subreaper of whatever the processes it
// starts leave behind, until the test ends; then every adopted process is
// killed and reaped, whether the test passed or not. The whole test process
// adopts: not for a test that runs in parallel with others.
func Adopt(t testing.TB) *Orphans {
	t.Helper()
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		t.Skipf("cannot become a child subreaper: %v", err)
	}
	o := &Orphans{own: proc.Children()}
	t.Cleanup(func() {
		_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
		o.reapAll()
	})
	return o
}

// Left returns the adopted processes, running or exited, except the given
// pids (the test's own children).
func (o *Orphans) Left(except ...int) []Process {
	var left []Process
	for _, pid := range proc.Children() {
		if slices.Contains(except, pid) || slices.Contains(o.own, pid) {
			continue
		}
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		left = append(left, Process{
			Pid:     pid,
			Exited:  exited(pid),
			Cmdline: strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " ")),
		})
	}
	return left
}

// Running returns those of Left that still run.
func (o *Orphans) Running(except ...int) []Process {
	var run []Process
	for _, p := range o.Left(except...) {
		if !p.Exited {
			run = append(run, p)
		}
	}
	return run
}

// exited says whether child pid has ended, without reaping it.
func exited(pid int) bool {
	var info unix.Siginfo
	err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
	return err == nil && info.Signo != 0
}

// reapAll kills every adopted process and its group, and reaps them, over
// and over (a killed orphan's children are adopted in turn), for a bounded
// number of rounds.
func (o *Orphans) reapAll() {
	for range 100 {
		kids := slices.DeleteFunc(proc.Children(), func(pid int) bool { return slices.Contains(o.own, pid) })
		if len(kids) == 0 {
			return
		}
		for _, pid := range kids {
			_ = unix.Kill(-pid, unix.SIGKILL)
			_ = unix.Kill(pid, unix.SIGKILL)
			_, _ = unix.Wait4(pid, nil, 0, nil)
		}
	}
}

// WorkingIn returns the running processes, other than this one, whose
// working folder is dir or below it: everything a test started in dir, and
// what those started, unless it moved.
func WorkingIn(dir string) []Process {
	entries, _ := os.ReadDir("/proc")
	var found []Process
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		if err != nil || (cwd != dir && !strings.HasPrefix(cwd, dir+"/")) {
			continue
		}
		b, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		found = append(found, Process{Pid: pid, Cmdline: strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))})
	}
	return found
}

// KillWorkingIn kills every process WorkingIn finds, with its group: what a
// failed test would leave behind.
func KillWorkingIn(dir string) {
	for _, p := range WorkingIn(dir) {
		_ = unix.Kill(-p.Pid, unix.SIGKILL)
		_ = unix.Kill(p.Pid, unix.SIGKILL)
	}
}
