//go:build unix && !linux

package proc

import "os"

// newTable makes the watchdog's table: a temporary file, removed at once,
// so that it is gone with the last process that holds it. Only a SIGKILL
// between the two leaves it, empty, in the temporary folder; Linux has no
// such moment (watchdogtable_linux.go).
func newTable() (*os.File, error) {
	f, err := os.CreateTemp("", "mm-watchdog-*")
	if err != nil {
		return nil, err
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
