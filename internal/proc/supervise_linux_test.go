package proc_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/mm-agent/mm/internal/mustend"
	"github.com/mm-agent/mm/internal/proc"
	"github.com/mm-agent/mm/internal/proc/proctest"
)

// TestMain runs the test binary as a supervising process for the tests
// below when PROC_TEST_HELPER is set: one that calls Supervise, as mm's main
// does, and obeys one line at a time on stdin.
func TestMain(m *testing.M) {
	if g := os.Getenv("PROC_TEST_JOIN"); g != "" {
		joinGroup(g)
		return
	}
	if os.Getenv("PROC_TEST_HELPER") == "1" {
		helper(os.Stdin, os.Stdout)
		return
	}
	os.Exit(m.Run())
}

// helper obeys:
//
//	wait <script>   start sh -c script, print its first line, wait for it
//	start <script>  start sh -c script, print its first line
//	children        print its children's command lines but its watchdog's,
//	                tab-separated (a zombie's reads <defunct>)
//	shutdown        Shutdown, then print its children
//	prepare         Prepare, then print "ok"
//	watchdog        print its watchdog's pid, or "none"
//	reaper          print whether its reaper runs: "running" or "none"
func helper(r io.Reader, w io.Writer) {
	proc.Supervise()
	in := bufio.NewScanner(r)
	for in.Scan() {
		verb, script, _ := strings.Cut(in.Text(), " ")
		switch verb {
		case "wait", "start":
			cmd := exec.Command("sh", "-c", script)
			out, _ := cmd.StdoutPipe()
			if err := proc.Start(cmd); err != nil {
				fmt.Fprintln(w, "error:", err)
				continue
			}
			line, _ := bufio.NewReader(out).ReadString('\n')
			if verb == "wait" {
				proc.Wait(cmd)
			}
			fmt.Fprint(w, line)
		case "prepare":
			proc.Prepare()
			fmt.Fprintln(w, "ok")
		case "watchdog":
			dog := "none"
			for _, pid := range proc.Children() {
				b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
				if slices.Contains(strings.Split(string(b), "\x00"), "mm-watchdog") {
					dog = strconv.Itoa(pid)
				}
			}
			fmt.Fprintln(w, dog)
		case "reaper":
			if proc.ReaperRunning() {
				fmt.Fprintln(w, "running")
			} else {
				fmt.Fprintln(w, "none")
			}
		case "shutdown":
			proc.Shutdown()
			fallthrough
		case "children":
			var kids []string
			dog := proc.WatchdogPid()
			for _, pid := range proc.Children() {
				b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
				cmdline := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
				switch {
				case pid == dog || slices.Contains(cmdline, "mm-watchdog"):
				case len(b) == 0:
					kids = append(kids, "<defunct>")
				default:
					kids = append(kids, strings.Join(cmdline, " "))
				}
			}
			fmt.Fprintln(w, strings.Join(kids, "\t"))
		}
	}
}

// joinGroup moves this process into process group pgid (setpgid), then
// becomes a shell that prints its pid and becomes sleep 1000: a descendant
// of a hook that joins a group of mm's session it was not started in. It
// prints once it runs another program than the supervising process's.
func joinGroup(pgid string) {
	g, err := strconv.Atoi(pgid)
	if err == nil {
		err = syscall.Setpgid(0, g)
	}
	if err == nil {
		err = syscall.Exec("/bin/sh", []string{"sh", "-c", "echo $$; exec sleep 1000"}, os.Environ())
	}
	fmt.Println("error: join", pgid+":", err)
	os.Exit(1)
}

// supervisor is a helper process, working in its own folder, leading a
// process group of its own as mm does when a shell starts it.
type supervisor struct {
	t   *testing.T
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	dir string
}

func startSupervisor(t *testing.T) *supervisor {
	t.Helper()
	s := &supervisor{t: t, dir: t.TempDir()}
	t.Cleanup(func() { proctest.KillWorkingIn(s.dir) })
	s.cmd = exec.Command(os.Args[0], "-test.run=^$")
	s.cmd.Dir = s.dir
	s.cmd.Env = append(os.Environ(), "PROC_TEST_HELPER=1")
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	s.in, _ = s.cmd.StdinPipe()
	out, _ := s.cmd.StdoutPipe()
	s.out = bufio.NewReader(out)
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.cmd.Process.Kill(); s.cmd.Wait() })
	return s
}

// do sends one line and returns the answer.
func (s *supervisor) do(line string) string {
	s.t.Helper()
	fmt.Fprintln(s.in, line)
	answer, err := s.out.ReadString('\n')
	if err != nil {
		s.t.Fatalf("%s: %v", line, err)
	}
	return strings.TrimSuffix(answer, "\n")
}

// pid runs a verb whose script prints a pid, and returns it.
func (s *supervisor) pid(line string) int {
	s.t.Helper()
	answer := s.do(line)
	pid, err := strconv.Atoi(answer)
	if err != nil {
		s.t.Fatalf("%s: %q, want a pid", line, answer)
	}
	return pid
}

// children are the helper's children but its watchdog.
func (s *supervisor) children() []string {
	if kids := s.do("children"); kids != "" {
		return strings.Split(kids, "\t")
	}
	return nil
}

// watchdog waits for the helper's watchdog to run, and returns its pid.
func (s *supervisor) watchdog() int {
	s.t.Helper()
	var dog int
	mustend.WaitFor(s.t, "the watchdog to run", func() bool {
		dog, _ = strconv.Atoi(s.do("watchdog"))
		return dog > 0
	})
	return dog
}

// escape is a script that leaves a job in a session of its own, prints its
// pid once it has left, and exits; the job runs job.
func escape(job string) string {
	return `mkfifo escaped; setsid sh -c 'echo $$ > escaped; exec ` + job + `' </dev/null >/dev/null 2>&1 & read pid < escaped; echo $pid`
}

// TestShutdownReapsAdopted: a job that escaped its command's group and
// session is the supervising process's: Shutdown kills and reaps it, and
// leaves no child at all.
func TestShutdownReapsAdopted(t *testing.T) {
	s := startSupervisor(t)
	job := s.pid("wait " + escape("sleep 1000"))
	if kids := s.children(); len(kids) != 1 || !strings.Contains(kids[0], "sleep 1000") {
		t.Fatalf("children %q, want the escaped job", kids)
	}
	if kids := s.do("shutdown"); kids != "" {
		t.Errorf("children after Shutdown: %q", kids)
	}
	if !gone(job) {
		t.Errorf("the escaped job %d still runs", job)
	}
}

// TestReaperStartsAtTheFirstAdoption: a supervising process asks for
// SIGCHLD only once it has adopted a descendant: its own children are
// reaped by their Wait, and a run that adopts none pays nothing for the
// reaper (docs/explanation/performance.md).
func TestReaperStartsAtTheFirstAdoption(t *testing.T) {
	s := startSupervisor(t)
	s.do("prepare")
	s.pid("wait echo $$")
	s.pid("wait sleep 0.01; echo $$")
	if got := s.do("reaper"); got != "none" {
		t.Fatalf("reaper %s after commands that left nothing behind, want none", got)
	}
	s.pid("wait " + escape("sleep 1000"))
	if got := s.do("reaper"); got != "running" {
		t.Errorf("reaper %s after a job escaped, want running", got)
	}
	if kids := s.do("shutdown"); kids != "" {
		t.Errorf("children after Shutdown: %q", kids)
	}
	if got := s.do("reaper"); got != "none" {
		t.Errorf("reaper %s after Shutdown, want none", got)
	}
}

// TestReaperReapsAdopted: an adopted job that exits is reaped at once, not
// left a zombie until mm exits.
func TestReaperReapsAdopted(t *testing.T) {
	s := startSupervisor(t)
	if err := syscall.Mkfifo(s.dir+"/go", 0o600); err != nil {
		t.Fatal(err)
	}
	s.pid("wait " + escape(`sh -c "read x < go"`))
	// The job stops waiting, and exits.
	// (Read-write: the open never blocks, whether the job reads or not.)
	fifo, err := os.OpenFile(s.dir+"/go", os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer fifo.Close()
	if _, err := fifo.WriteString("\n"); err != nil {
		t.Fatal(err)
	}
	if !mustend.Eventually(mustend.WaitBound, func() bool { return len(s.children()) == 0 }) {
		t.Errorf("children %q, want none: the exited job is not reaped", s.children())
	}
}

// TestWatchdog: when the supervising process is killed outright, the
// watchdog kills the groups it started — what is left of them once the
// kernel has killed its children — and the groups it adopted.
func TestWatchdog(t *testing.T) {
	s := startSupervisor(t)
	escaped := s.pid("wait " + escape("sleep 1000"))
	job := s.pid("start sleep 1001 & echo $!; wait")
	s.cmd.Process.Kill()
	s.cmd.Wait()
	for _, pid := range []int{escaped, job} {
		if !mustend.Eventually(mustend.WaitBound, func() bool { return gone(pid) }) {
			t.Errorf("process %d outlived the supervisor", pid)
		}
	}
}

// TestPrepare: Prepare starts the watchdog in the background before any
// child, the first child then finds it running, and Shutdown ends it.
func TestPrepare(t *testing.T) {
	s := startSupervisor(t)
	if got := s.do("watchdog"); got != "none" {
		t.Fatalf("a watchdog (%s) before Prepare and any child", got)
	}
	s.do("prepare")
	var dog int
	if !mustend.Eventually(mustend.WaitBound, func() bool {
		dog, _ = strconv.Atoi(s.do("watchdog"))
		return dog > 0
	}) {
		t.Fatal("no watchdog after Prepare")
	}
	s.pid("wait echo $$")
	if got := s.do("watchdog"); got != strconv.Itoa(dog) {
		t.Errorf("the watchdog after the first child: %s, want %d, started by Prepare", got, dog)
	}
	if kids := s.do("shutdown"); kids != "" {
		t.Errorf("children after Shutdown: %q", kids)
	}
	if !gone(dog) {
		t.Errorf("the watchdog %d still runs after Shutdown", dog)
	}
}

// TestPrepareThenShutdown: a Shutdown right after Prepare leaves no
// watchdog behind, whichever of the two gets there first.
func TestPrepareThenShutdown(t *testing.T) {
	for range 20 {
		s := startSupervisor(t)
		s.do("prepare")
		if kids := s.do("shutdown"); kids != "" {
			t.Fatalf("children after Shutdown: %q", kids)
		}
		if got := s.do("watchdog"); got != "none" {
			t.Fatalf("a watchdog (%s) after Shutdown", got)
		}
	}
}

// join is a script that leaves a job, orphaned, in process group pgid,
// prints its pid once it has joined, and exits; the job runs sleep 1000.
func join(pgid int) string {
	return `mkfifo joined; (PROC_TEST_JOIN=` + strconv.Itoa(pgid) + ` '` + os.Args[0] +
		`' </dev/null >joined &); read pid < joined; echo $pid`
}

// startInGroup starts sleep 1000 in process group pgid (0: a group of its
// own) of the test's session, and returns its pid; it is killed when the
// test ends.
func startInGroup(t *testing.T, pgid int) int {
	t.Helper()
	cmd := exec.Command("sleep", "1000")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pgid: pgid}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd.Process.Pid
}

// TestKillsOnlyWhatItStarted: a hook's descendant that joins a process
// group the supervising process did not start — the group of the shell
// that ran it, with a job of that shell's, or its own, with the rest of a
// pipeline (a | mm) — and is orphaned, is killed alone, however the
// supervising process ends: by Shutdown, or by SIGKILL (then its watchdog
// kills it). The group's other members live on.
func TestKillsOnlyWhatItStarted(t *testing.T) {
	groups := []struct {
		name string
		// group starts the group to join beside s, and returns its id and
		// the members that must live on.
		group func(t *testing.T, s *supervisor) (int, []int)
	}{
		{"the shell's, with a job", func(t *testing.T, s *supervisor) (int, []int) {
			shell := startInGroup(t, 0)
			return shell, []int{shell, startInGroup(t, shell)}
		}},
		{"its own, with a pipeline", func(t *testing.T, s *supervisor) (int, []int) {
			return s.cmd.Process.Pid, []int{startInGroup(t, s.cmd.Process.Pid)}
		}},
	}
	endings := []struct {
		name string
		end  func(t *testing.T, s *supervisor)
	}{
		{"Shutdown", func(t *testing.T, s *supervisor) {
			if kids := s.do("shutdown"); kids != "" {
				t.Errorf("children after Shutdown: %q", kids)
			}
		}},
		{"SIGKILL", func(t *testing.T, s *supervisor) {
			dog := s.watchdog()
			s.cmd.Process.Kill()
			s.cmd.Wait()
			mustend.WaitFor(t, "the watchdog to end", func() bool { return gone(dog) })
		}},
	}
	for _, g := range groups {
		for _, e := range endings {
			t.Run(g.name+"/"+e.name, func(t *testing.T) {
				s := startSupervisor(t)
				pgid, bystanders := g.group(t, s)
				joined := s.pid("wait " + join(pgid))
				if got, err := syscall.Getpgid(joined); err != nil || got != pgid {
					t.Fatalf("the job %d is in group %d (%v), want %d", joined, got, err, pgid)
				}
				e.end(t, s)
				if !mustend.Eventually(mustend.WaitBound, func() bool { return gone(joined) }) {
					t.Errorf("the job %d that joined group %d outlived the supervisor", joined, pgid)
				}
				for _, pid := range bystanders {
					if killed(pid) {
						t.Errorf("%d, of group %d, was killed", pid, pgid)
					}
				}
			})
		}
	}
}

// TestWatchdogTableIsMMsOnly: another process of the same user cannot
// change the watchdog's table through /proc/<watchdog>/fd/3, by any way a
// file can be written to, so that the watchdog kills only what the
// supervising process listed.
func TestWatchdogTableIsMMsOnly(t *testing.T) {
	s := startSupervisor(t)
	s.pid("wait echo $$")
	path := "/proc/" + strconv.Itoa(s.watchdog()) + "/fd/3"
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	line := []byte("  group       1\n")
	attacks := []struct {
		name   string
		attack func(fd int) error
		want   error
	}{
		{"write", func(fd int) error { _, err := unix.Write(fd, line); return err }, unix.EPERM},
		{"pwrite", func(fd int) error { _, err := unix.Pwrite(fd, line, 0); return err }, unix.EPERM},
		{"truncate", func(fd int) error { return unix.Ftruncate(fd, 0) }, unix.EPERM},
		{"grow", func(fd int) error { return unix.Ftruncate(fd, int64(len(before))+4096) }, unix.EPERM},
		{"punch a hole", func(fd int) error {
			return unix.Fallocate(fd, unix.FALLOC_FL_PUNCH_HOLE|unix.FALLOC_FL_KEEP_SIZE, 0, 4096)
		}, unix.EPERM},
		{"map it writable", func(fd int) error {
			_, err := unix.Mmap(fd, 0, 4096, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
			return err
		}, unix.EPERM},
		{"map it, then make it writable", func(fd int) error {
			mem, err := unix.Mmap(fd, 0, 4096, unix.PROT_READ, unix.MAP_SHARED)
			if err != nil {
				return err
			}
			defer unix.Munmap(mem)
			return unix.Mprotect(mem, unix.PROT_READ|unix.PROT_WRITE)
		}, unix.EACCES},
		{"chmod, then write", func(int) error {
			if err := os.Chmod(path, 0o666); err != nil {
				return err
			}
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = f.Write(line)
			return err
		}, unix.EPERM},
	}
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			fd, err := unix.Open(path, unix.O_RDWR|unix.O_CLOEXEC, 0)
			if err != nil {
				t.Fatalf("open %s: %v", path, err)
			}
			defer unix.Close(fd)
			if err := a.attack(fd); !errors.Is(err, a.want) {
				t.Errorf("%v, want %v", err, a.want)
			}
		})
	}
	if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, before) {
		t.Errorf("the table changed (%v)", err)
	}
}
