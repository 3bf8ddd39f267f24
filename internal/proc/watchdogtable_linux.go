package proc

import (
	"encoding/binary"
	"fmt"
	"os"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// table is the watchdog's table as mm holds it: a file in memory, gone with
// the last process that holds it, which mm writes through a mapping of its
// own.
type table struct {
	f   *os.File // the watchdog's fd 3
	mem []byte   // the file, mapped shared and writable
}

// newTable makes the table at its full size, mapped, ending at its first
// slot, then sealed: no write, no writable mapping and no change of size
// from then on (Linux 5.1), through any file — /proc/<watchdog>/fd/3
// reopened, chmod or not, included — while mm's mapping, made before the
// seal, stays writable. Where the kernel cannot seal so, there is no table,
// and mm runs without a watchdog rather than with one any process of the
// person could make kill.
func newTable() (*table, error) {
	fd, err := unix.MemfdCreate("mm-watchdog", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil, fmt.Errorf("watchdog table: %w", err)
	}
	t := &table{f: os.NewFile(uintptr(fd), "mm-watchdog")}
	if err := t.seal(fd); err != nil {
		t.close()
		return nil, fmt.Errorf("watchdog table: %w", err)
	}
	return t, nil
}

func (t *table) seal(fd int) error {
	const size = tableSlots * slotSize
	if err := unix.Ftruncate(fd, size); err != nil {
		return err
	}
	mem, err := unix.Mmap(fd, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		return err
	}
	t.mem = mem
	// The end before the seal: the table is whole from the start.
	t.store(wordSize, blankID)
	t.store(0, kindEnd)
	_, err = unix.FcntlInt(uintptr(fd), unix.F_ADD_SEALS,
		unix.F_SEAL_FUTURE_WRITE|unix.F_SEAL_GROW|unix.F_SEAL_SHRINK|unix.F_SEAL_SEAL)
	return err
}

// store writes w at off with one aligned 8-byte store: another process
// sees it whole or not at all, even should mm be killed in between.
func (t *table) store(off int64, w word) error {
	p := (*uint64)(unsafe.Pointer(&t.mem[off]))
	atomic.StoreUint64(p, binary.NativeEndian.Uint64(w[:]))
	return nil
}

// close unmaps the table and closes mm's file (the tests' tables).
func (t *table) close() {
	if t.mem != nil {
		_ = unix.Munmap(t.mem)
		t.mem = nil
	}
	t.f.Close()
}
