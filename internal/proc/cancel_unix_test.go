//go:build unix

package proc_test

import (
	"errors"
	"os"
	"os/exec"
	"testing"

	"github.com/mm-agent/mm/internal/mustend"
	"github.com/mm-agent/mm/internal/proc"
)

// TestCancelGroup: the Cancel of a command that runs kills it and returns
// nil, so that its Wait reports the cancellation; that of a command
// already reaped returns os.ErrProcessDone, so that its Wait does not
// report the cancellation of a command that had finished.
func TestCancelGroup(t *testing.T) {
	t.Run("running", func(t *testing.T) {
		cmd := exec.Command("sleep", "60")
		if err := proc.Start(cmd); err != nil {
			t.Fatal(err)
		}
		if err := proc.CancelGroup(cmd)(); err != nil {
			t.Errorf("Cancel of a running command: %v, want nil", err)
		}
		var err error
		mustend.Within(t, mustend.WaitBound, "the killed command's Wait", func() { err = proc.Wait(cmd) })
		if err == nil || err.Error() != "signal: killed" {
			t.Errorf("Wait of the cancelled command: %v, want signal: killed", err)
		}
	})
	t.Run("reaped", func(t *testing.T) {
		cmd := exec.Command("true")
		if err := proc.Start(cmd); err != nil {
			t.Fatal(err)
		}
		// What exec.Cmd's Wait does first: the command is reaped; the
		// context may end before the rest of Wait.
		if _, err := cmd.Process.Wait(); err != nil {
			t.Fatal(err)
		}
		if err := proc.CancelGroup(cmd)(); !errors.Is(err, os.ErrProcessDone) {
			t.Errorf("Cancel of a command reaped: %v, want %v", err, os.ErrProcessDone)
		}
		proc.Wait(cmd) // its group off the watchdog's table; the command is reaped already
	})
}
