//go:build unix

package regularfile

import (
	"errors"
	"os"
	"syscall"
)

// oNonblock makes the open of a named pipe return at once.
const oNonblock = syscall.O_NONBLOCK

// setBlocking clears O_NONBLOCK on f, a regular file or a folder, which
// the runtime does not poll: its reads are plain blocking calls.
func setBlocking(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.SetNonblock(int(fd), false) }); err != nil {
		return err
	}
	if serr != nil {
		return &os.PathError{Op: "open", Path: f.Name(), Err: serr}
	}
	return nil
}

// noReader reports whether err is the refusal of a non-blocking open for
// writing of a named pipe that no one reads.
func noReader(err error) bool { return errors.Is(err, syscall.ENXIO) }
