//go:build unix && !linux

package proc

import (
	"fmt"
	"os"
)

// table is the watchdog's table as mm holds it: a temporary file, removed
// at once, so that it is gone with the last process that holds it and no
// other process can open it. Only a process that opens it in the moment
// between its creation and its removal can write to it, and only a SIGKILL
// in that moment leaves it, ended, in the temporary folder; Linux has no
// such moment (watchdogtable_linux.go).
type table struct {
	f *os.File // the watchdog's fd 3
}

func newTable() (*table, error) {
	f, err := os.CreateTemp("", "mm-watchdog-*")
	if err != nil {
		return nil, fmt.Errorf("watchdog table: %w", err)
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, fmt.Errorf("watchdog table: %w", err)
	}
	t := &table{f: f}
	if err := t.store(0, kindEnd); err != nil {
		f.Close()
		return nil, err
	}
	if err := t.store(wordSize, blankID); err != nil {
		f.Close()
		return nil, err
	}
	return t, nil
}

// store writes w at off with one pwrite, which a SIGKILL cannot cut in two.
func (t *table) store(off int64, w word) error {
	if _, err := t.f.WriteAt(w[:], off); err != nil {
		return fmt.Errorf("watchdog table: %w", err)
	}
	return nil
}

// close closes mm's file (the tests' tables).
func (t *table) close() { t.f.Close() }
