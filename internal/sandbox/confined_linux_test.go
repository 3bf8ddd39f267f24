package sandbox

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/mm-agent/mm/internal/proc"
	"github.com/mm-agent/mm/internal/sandbox/sandboxtest"
)

// TestMain runs the test binary again as on a kernel without Landlock when
// TestWithoutLandlock asks it to.
func TestMain(m *testing.M) {
	if os.Getenv("SANDBOX_TEST_WITHOUT_LANDLOCK") == "exec" {
		os.Setenv("SANDBOX_TEST_WITHOUT_LANDLOCK", "running")
		err := sandboxtest.ExecWithoutLandlock(os.Args[0], os.Args, os.Environ())
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// On a kernel without Landlock (a seccomp filter makes it look so), the
// probe says why, the policy says what it does not enforce, the command
// runs unconfined and the file tools' check still holds.
func TestWithoutLandlock(t *testing.T) {
	if os.Getenv("SANDBOX_TEST_WITHOUT_LANDLOCK") != "running" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWithoutLandlock$", "-test.v")
		cmd.Env = append(os.Environ(), "SANDBOX_TEST_WITHOUT_LANDLOCK=exec")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestWithoutLandlock") {
			t.Fatalf("without Landlock: %v\n%s", err, out)
		}
		return
	}
	s := Probe()
	want := Support{Why: "this kernel has no Landlock, or a container forbids it (landlock_create_ruleset: function not implemented)"}
	if s != want {
		t.Fatalf("Probe = %+v, want %+v", s, want)
	}
	pl := newPlace(t)
	p, err := Open(Spec{Mode: Workspace, Network: false, Cwd: pl.proj})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if got := p.Status(); got != "sandbox: workspace for write_file and edit_file only, network on" {
		t.Errorf("Status = %q", got)
	}
	if out, err := run(t, p, pl.proj, "echo x > $HOME/unconfined && echo ran"); err != nil || out != "ran\n" {
		t.Errorf("the command without Landlock: %v, %q", err, out)
	}
	if err := p.CheckWrite(pl.home + "/.bashrc"); err == nil {
		t.Errorf("CheckWrite let a write outside the workspace through")
	}
}

// needLandlock skips a test of the kernel's enforcement on a kernel that
// has none to test; TestWithoutLandlock covers that case.
func needLandlock(t *testing.T, abi int) Support {
	t.Helper()
	s := Probe()
	if s.ABI < abi {
		t.Skipf("this kernel's Landlock ABI is %d, the test needs %d: %s", s.ABI, abi, s.Why)
	}
	return s
}

// run runs a bash command confined by p, as the bash tool does, and
// returns its output and error.
func run(t *testing.T, p *Policy, dir, command string) (string, error) {
	t.Helper()
	var out strings.Builder
	cmd := exec.Command("bash", "-c", command)
	cmd.Dir = dir
	cmd.Env = p.Environ(os.Environ())
	cmd.Stdout, cmd.Stderr = &out, &out
	release, err := p.Start(cmd)
	if err != nil {
		t.Fatalf("start %q: %v", command, err)
	}
	err = proc.Wait(cmd)
	release()
	return out.String(), err
}

// The escapes a model tries, each refused by the kernel; what the
// workspace allows still works, and mm keeps all its rights.
func TestConfinedCommandEscapes(t *testing.T) {
	pl := newPlace(t)
	p := pl.policy(t, Workspace, true, needLandlock(t, 1))
	if err := os.Symlink(pl.home, filepath.Join(pl.proj, "planted")); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(pl.proj, "daemon.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	home := pl.home
	for _, tc := range []struct {
		name, command string
	}{
		{"a write to $HOME", "echo x > $HOME/.bashrc"},
		{"through a symlink planted in the project", "echo x > planted/.bashrc"},
		{"through /proc/self/root", "echo x > /proc/self/root" + home + "/.bashrc"},
		{"by a child that changes directory", "cd " + home + " && echo x > .bashrc"},
		{"a remove", "touch " + pl.base + "/keep; rm -f " + pl.base + "/keep.missing; mv " + pl.proj + " " + pl.base + "/moved"},
	} {
		out, err := run(t, p, pl.proj, tc.command)
		if err == nil || !strings.Contains(out, "Permission denied") {
			t.Errorf("%s: %q ran: %v, %q", tc.name, tc.command, err, out)
		}
		if _, err := os.Stat(home + "/.bashrc"); err == nil {
			t.Fatalf("%s: %s/.bashrc was written", tc.name, home)
		}
	}

	// A daemonised child, out of the command's group and session, is
	// confined still: it says what it managed through the fifo.
	// The command waits for the daemon to have left its group (ready.fifo):
	// the group is killed when the command ends.
	if err := syscall.Mkfifo(filepath.Join(pl.proj, "ready.fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, p, pl.proj, `setsid bash -c 'echo > ready.fifo; if echo x > $HOME/.bashrc 2>/dev/null; then echo escaped; else echo refused; fi > daemon.fifo' < /dev/null > /dev/null 2>&1 & read < ready.fifo`)
	if err != nil {
		t.Fatalf("start the daemon: %v, %q", err, out)
	}
	said, err := os.ReadFile(fifo)
	if err != nil || string(said) != "refused\n" {
		t.Errorf("the daemonised child said %q, %v; want refused", said, err)
	}

	for _, command := range []string{"echo x > f.txt && cat f.txt", "mkdir -p a/b && mv f.txt a/b/ && ln -s a/b/f.txt l && cat l",
		"echo x > $TMPDIR/t && echo y > $XDG_CACHE_HOME/c && cat $TMPDIR/t", "echo x > /dev/null; echo x 2>/dev/null >&2; echo ok >/dev/stderr"} {
		if out, err := run(t, p, pl.proj, command); err != nil {
			t.Errorf("%q in the workspace: %v, %q", command, err, out)
		}
	}
	if err := os.WriteFile(home+"/mm-itself", []byte("x"), 0o644); err != nil {
		t.Errorf("mm lost its own rights: %v", err)
	}
}

// A file tool's write runs on a confined thread: a link planted between
// the check and the write does not carry it out of the workspace.
func TestDoIsConfined(t *testing.T) {
	pl := newPlace(t)
	p := pl.policy(t, Workspace, true, needLandlock(t, 1))
	err := p.Do(func() error { return os.WriteFile(pl.home+"/.bashrc", []byte("x"), 0o644) })
	if !errors.Is(err, os.ErrPermission) {
		t.Errorf("a write outside from Do: %v, want permission denied", err)
	}
	if err := p.Do(func() error { return os.WriteFile(pl.proj+"/f", []byte("x"), 0o644) }); err != nil {
		t.Errorf("a write inside from Do: %v", err)
	}
	if err := os.WriteFile(pl.home+"/after", []byte("x"), 0o644); err != nil {
		t.Errorf("mm lost its rights after Do: %v", err)
	}
}

// With the network off, a command can neither connect to a listener of
// the test on 127.0.0.1 nor listen; with it on, it connects.
func TestNetworkOff(t *testing.T) {
	pl := newPlace(t)
	support := needLandlock(t, netABI)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	connect := fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d && echo connected", port)

	off := pl.policy(t, Off, false, support)
	out, err := run(t, off, pl.proj, connect)
	if err == nil || !strings.Contains(out, "Permission denied") {
		t.Errorf("network off: %v, %q", err, out)
	}
	if got := off.Explain(out); got != "[sandbox: the network is off: connecting and listening over TCP are not allowed]" {
		t.Errorf("Explain = %q", got)
	}
	// A port of its own: the kernel lets a bind to port 0 through.
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	freeAddr := free.Addr().String()
	free.Close()
	lnErr := off.Do(func() error {
		l, err := net.Listen("tcp", freeAddr)
		if err == nil {
			l.Close()
		}
		return err
	})
	if !errors.Is(lnErr, os.ErrPermission) {
		t.Errorf("listening with the network off: %v", lnErr)
	}
	// Landlock holds TCP alone: a Multipath TCP socket is refused before it
	// can connect, so that a program falls back to TCP.
	mptcpErr := off.Do(func() error {
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, unix.IPPROTO_MPTCP)
		if err == nil {
			unix.Close(fd)
		}
		return err
	})
	if !errors.Is(mptcpErr, unix.EPROTONOSUPPORT) {
		t.Errorf("a Multipath TCP socket with the network off: %v", mptcpErr)
	}
	// The first connection the listener accepts is the test's own: the
	// confined command's never reached it.
	mine, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer mine.Close()
	got, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	if got.RemoteAddr().String() != mine.LocalAddr().String() {
		t.Errorf("the listener accepted %s first, not the test's %s", got.RemoteAddr(), mine.LocalAddr())
	}
	got.Close()

	on := pl.policy(t, Workspace, true, support)
	if out, err := run(t, on, pl.proj, connect); err != nil || out != "connected\n" {
		t.Errorf("network on: %v, %q", err, out)
	}
}

// A confined command cannot signal a process it did not start.
func TestSignalsStayInside(t *testing.T) {
	pl := newPlace(t)
	p := pl.policy(t, Workspace, true, needLandlock(t, 6))
	victim := exec.Command("sleep", "600")
	if err := proc.Start(victim); err != nil {
		t.Fatal(err)
	}
	defer func() { proc.KillGroup(victim.Process); proc.Wait(victim) }()
	out, err := run(t, p, pl.proj, fmt.Sprintf("kill -TERM %d", victim.Process.Pid))
	if err == nil || !strings.Contains(out, "Operation not permitted") {
		t.Errorf("kill of a process outside: %v, %q", err, out)
	}
	if out, err := run(t, p, pl.proj, "sleep 600 & kill -TERM $! && wait $!; echo $?"); err != nil || out != "143\n" {
		t.Errorf("kill of its own child: %v, %q", err, out)
	}
}

// The note the model reads after a refused write is CheckWrite's sentence.
func TestExplain(t *testing.T) {
	pl := newPlace(t)
	p := pl.policy(t, Workspace, true, needLandlock(t, 1))
	out, _ := run(t, p, pl.proj, "echo x > ../x")
	want := "[sandbox: writing outside " + pl.proj + " is not allowed in workspace mode]"
	if got := p.Explain(out); got != want {
		t.Errorf("Explain(%q) = %q, want %q", out, got, want)
	}
	if got := p.Explain("no such file"); got != "" {
		t.Errorf("Explain of another failure = %q", got)
	}
}
