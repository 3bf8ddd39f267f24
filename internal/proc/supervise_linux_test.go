package proc_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/mm-agent/mm/internal/mustend"
	"github.com/mm-agent/mm/internal/proc"
	"github.com/mm-agent/mm/internal/proc/proctest"
)

// TestMain runs the test binary as a supervising process for the tests
// below when PROC_TEST_HELPER is set: one that calls Supervise, as mm's main
// does, and obeys one line at a time on stdin.
func TestMain(m *testing.M) {
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
			for _, pid := range proc.Children() {
				b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
				cmdline := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
				switch {
				case slices.Contains(cmdline, "mm-watchdog"):
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

// supervisor is a helper process, working in its own folder.
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
