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
// groups its table lists as started and not ended, and no other.
func TestWatchdogScript(t *testing.T) {
	group := func() *exec.Cmd {
		cmd := exec.Command("sleep", "100")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd
	}
	ended, running := group(), group()
	table := proc.WatchdogTable([]int{ended.Process.Pid, running.Process.Pid}, []int{ended.Process.Pid})
	defer table.Close()
	dog := exec.Command("/bin/sh", "-c", proc.WatchdogScript, "mm-watchdog")
	dog.Stdin = strings.NewReader("")
	dog.ExtraFiles = []*os.File{table}
	if out, err := dog.CombinedOutput(); err != nil || len(out) > 0 {
		t.Fatalf("the watchdog: %v %q", err, out)
	}
	if err := running.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("the group still started: %v, want killed", err)
	}
	if gone(ended.Process.Pid) {
		t.Errorf("the group that ended was killed")
	}
}
