//go:build linux

package cli

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/mm-agent/mm/internal/mustend"
)

// TestTerminalEndsOnSIGTERM: SIGTERM to the line mode waiting at its prompt
// on a terminal ends mm (exit status 143, as a shell reports it) and gives
// the terminal back as it was, though mm was reading it in raw mode.
func TestTerminalEndsOnSIGTERM(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "agent.yaml"), []byte("model: echo/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptm.Close()
	defer tty.Close()
	if err := pty.Setsize(ptm, &pty.Winsize{Rows: 40, Cols: 200}); err != nil {
		t.Fatal(err)
	}
	before, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(mmBin)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(dir, ".cache"), "MM_CONFIG=", "MM_MODEL=")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })
	screen := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(ptm)
		screen <- string(b)
	}()

	// At the prompt, the terminal is raw: readline reads it key by key.
	if !mustend.Eventually(mustend.WaitBound, func() bool {
		now, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
		return err == nil && now.Lflag&unix.ICANON == 0
	}) {
		t.Fatal("the line mode never put the terminal in raw mode")
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err = <-exited:
	case <-time.After(outliveWithin):
		t.Fatalf("mm still runs %v after SIGTERM", outliveWithin)
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 143 {
		t.Errorf("mm ended with %v, want exit status 143", err)
	}
	after, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if after.Lflag != before.Lflag || after.Iflag != before.Iflag || after.Oflag != before.Oflag {
		t.Errorf("terminal modes after mm: lflag %#x iflag %#x oflag %#x, want %#x %#x %#x as before",
			after.Lflag, after.Iflag, after.Oflag, before.Lflag, before.Iflag, before.Oflag)
	}
	tty.Close()
	ptm.Close()
	<-screen
}
