//go:build unix

package sessions

import (
	"errors"
	"os"
	"syscall"
)

// lock takes f's exclusive lock without waiting; errBusy when another
// process holds it. The lock goes with the file's descriptor: closing the
// file (or the process ending) releases it.
func lock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return errBusy
		}
		return &os.PathError{Op: "lock", Path: f.Name(), Err: err}
	}
}
