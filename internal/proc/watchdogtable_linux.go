package proc

import (
	"os"

	"golang.org/x/sys/unix"
)

// newTable makes the watchdog's table: a file in memory, gone with the last
// process that holds it.
func newTable() (*os.File, error) {
	fd, err := unix.MemfdCreate("mm-watchdog", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), "mm-watchdog"), nil
}
