//go:build unix

package proc_test

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/mm-agent/mm/internal/mustend"
	"github.com/mm-agent/mm/internal/proc"
)

// gone says whether process pid has ended: it no longer exists, or it is a
// zombie waiting for its parent.
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}

// killed says whether process pid has ended or will: a SIGKILL is pending
// for it (Linux's /proc/<pid>/status), which nothing can stop. A kill sent
// just before a test looks may not have been taken yet: gone alone would
// call such a process alive.
func killed(pid int) bool {
	if gone(pid) {
		return true
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		name, mask, _ := strings.Cut(line, ":")
		if name != "SigPnd" && name != "ShdPnd" {
			continue
		}
		if m, err := strconv.ParseUint(strings.TrimSpace(mask), 16, 64); err == nil && m&(1<<(syscall.SIGKILL-1)) != 0 {
			return true
		}
	}
	return false
}

// startShell starts sh -c script with proc.Start and returns it with the
// first line it prints (a pid); the process and its group are killed when
// the test ends.
func startShell(t *testing.T, script string) (*exec.Cmd, int) {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = t.TempDir()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := proc.Start(cmd); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	pid, perr := strconv.Atoi(strings.TrimSpace(line))
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if perr == nil {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	if err != nil || perr != nil {
		t.Fatalf("read the pid: %q, %v", line, err)
	}
	return cmd, pid
}

func TestStartOwnGroup(t *testing.T) {
	cmd, _ := startShell(t, `echo $$; exec sleep 100`)
	pgid, err := syscall.Getpgid(cmd.Process.Pid)
	if err != nil || pgid != cmd.Process.Pid {
		t.Errorf("process group %d (%v), want its own, %d", pgid, err, cmd.Process.Pid)
	}
	if a := proc.SysProcAttr(); !a.Setpgid {
		t.Errorf("SysProcAttr %+v: not a group of its own", a)
	}
}

func TestKillGroup(t *testing.T) {
	tests := []struct {
		name string
		// end brings the command to the state KillGroup finds it in.
		end func(t *testing.T, cmd *exec.Cmd)
	}{
		{"running", func(*testing.T, *exec.Cmd) {}},
		{"its leader exited, not reaped", func(t *testing.T, cmd *exec.Cmd) {
			syscall.Kill(cmd.Process.Pid, syscall.SIGKILL)
			mustend.WaitFor(t, "the leader to die", func() bool { return gone(cmd.Process.Pid) })
		}},
		{"its leader reaped", func(t *testing.T, cmd *exec.Cmd) {
			syscall.Kill(cmd.Process.Pid, syscall.SIGKILL)
			cmd.Wait()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd, job := startShell(t, `sleep 100 & echo $!; wait`)
			tt.end(t, cmd)
			if err := proc.KillGroup(cmd.Process); err != nil {
				t.Errorf("KillGroup: %v", err)
			}
			if !mustend.Eventually(mustend.WaitBound, func() bool { return gone(job) }) {
				t.Errorf("the background job %d still runs", job)
			}
			if err := proc.KillGroup(cmd.Process); err != nil {
				t.Errorf("KillGroup of a group already gone: %v", err)
			}
			proc.Wait(cmd)
		})
	}
	if err := proc.KillGroup(nil); err != nil {
		t.Errorf("KillGroup(nil): %v", err)
	}
}

// TestWaitKillsWhatIsLeft: a command that succeeded leaves nothing behind,
// not even a job that let go of its pipes.
func TestWaitKillsWhatIsLeft(t *testing.T) {
	cmd, job := startShell(t, `sleep 100 </dev/null >/dev/null 2>&1 & echo $!`)
	if err := proc.Wait(cmd); err != nil {
		t.Fatalf("Wait: %v", err)
	}
	if !mustend.Eventually(mustend.WaitBound, func() bool { return gone(job) }) {
		t.Errorf("the background job %d outlived its command", job)
	}
}

func TestExitStatus(t *testing.T) {
	tests := []struct {
		script string
		want   int
	}{
		{"exit 3", 3},
		{"kill -KILL $$", 137},
		{"kill -TERM $$", 143},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			err := exec.Command("sh", "-c", tt.script).Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("Run: %v", err)
			}
			if got := proc.ExitStatus(ee); got != tt.want {
				t.Errorf("ExitStatus = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestWatchdogScript: at the end of its input, the watchdog kills the
// groups its table lists and the processes it lists, alone, and no other.
func TestWatchdogScript(t *testing.T) {
	start := func(attr *syscall.SysProcAttr) *exec.Cmd {
		cmd := exec.Command("sleep", "100")
		cmd.SysProcAttr = attr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd
	}
	group := func() *exec.Cmd { return start(&syscall.SysProcAttr{Setpgid: true}) }
	ended, running, bystander := group(), group(), group()
	alone := start(&syscall.SysProcAttr{Setpgid: true, Pgid: bystander.Process.Pid})
	table := proc.WatchdogTable([]int{ended.Process.Pid, running.Process.Pid}, []int{alone.Process.Pid}, []int{ended.Process.Pid})
	defer table.Close()
	dog := exec.Command("/bin/sh", "-c", proc.WatchdogScript, "mm-watchdog")
	dog.Stdin = strings.NewReader("")
	dog.ExtraFiles = []*os.File{table}
	if out, err := dog.CombinedOutput(); err != nil || len(out) > 0 {
		t.Fatalf("the watchdog: %v %q", err, out)
	}
	for _, c := range []struct {
		what string
		cmd  *exec.Cmd
	}{{"the group listed", running}, {"the process listed", alone}} {
		if err := c.cmd.Wait(); err == nil || err.Error() != "signal: killed" {
			t.Errorf("%s: %v, want signal: killed", c.what, err)
		}
	}
	for _, c := range []struct {
		what string
		cmd  *exec.Cmd
	}{{"the group unlisted", ended}, {"the group of the process listed", bystander}} {
		if killed(c.cmd.Process.Pid) {
			t.Errorf("%s was killed", c.what)
		}
	}
}

// TestWatchdogTakesOnlyMMsLines: the watchdog kills only what a line in the
// form mm writes lists, an id over 1 of at most seven digits that is not
// its own, up to the table's end; its kill is a function here, which
// prints what it would kill. With self, the table lists the watchdog's
// own pid as a group and as a process.
func TestWatchdogTakesOnlyMMsLines(t *testing.T) {
	const stub = `kill() { printf '%s\n' "$*"; }
if [ -n "$SELF" ]; then printf '  group %7d\nprocess %7d\n' $$ $$ >self; exec 3<self; fi
`
	tests := []struct {
		name, table, want string
		self              bool
	}{
		{"a group", "  group    1234\n", "-s KILL -- -1234\n", false},
		{"a process", "process    1234\n", "-s KILL -- 1234\n", false},
		{"both, then the end", "  group      42\nprocess       7\n     end       \n  group      43\n",
			"-s KILL -- -42\n-s KILL -- 7\n", false},
		{"a slot blanked", "               \n  group      42\n", "-s KILL -- -42\n", false},
		{"an id whose kind is not yet written", "           1234\n", "", false},
		{"an id written into the end", "     end    1234\n  group      42\n", "", false},
		{"1: init", "  group       1\nprocess       1\n", "", false},
		{"-1: every process", "  group      -1\nprocess      -1\n", "", false},
		{"0: its own group", "  group       0\nprocess       0\n", "", false},
		{"its own id", "", "", true},
		{"$$", "  group      $$\nprocess      $$\n", "", false},
		{"leading zeros", "  group    0012\n", "", false},
		{"eight digits", "  group 12345678\n", "", false},
		{"not a number", "  group    12a4\nprocess   12 34\n  group   +1234\n  group    0x12\n", "", false},
		{"another kind", "  GROUP    1234\n    pgid    1234\n", "", false},
		{"the form before issue 37", "      1234\n", "", false},
		{"nothing", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			table, err := os.CreateTemp(t.TempDir(), "table")
			if err != nil {
				t.Fatal(err)
			}
			defer table.Close()
			if _, err := table.WriteAt([]byte(tt.table), 0); err != nil {
				t.Fatal(err)
			}
			dog := exec.Command("/bin/sh", "-c", stub+proc.WatchdogScript, "mm-watchdog")
			dog.Dir = t.TempDir()
			dog.Stdin = strings.NewReader("")
			dog.ExtraFiles = []*os.File{table}
			if tt.self {
				dog.Env = append(os.Environ(), "SELF=1")
			}
			out, err := dog.Output()
			if err != nil {
				t.Fatalf("the watchdog: %v", err)
			}
			if string(out) != tt.want {
				t.Errorf("the watchdog kills %q, want %q", out, tt.want)
			}
		})
	}
}
