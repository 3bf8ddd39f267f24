//go:build linux || darwin

package wasm

import (
	"math"
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// memoryAllocator returns the allocator that backs each instance's linear memory with a private
// anonymous mapping reserved up to the memory's maximum. Growing the memory
// then never copies it, its pages are zero without being cleared and take
// room only once touched, and the end of the run gives it all back to the
// system at once rather than leaving a large slice to the garbage
// collector.
func memoryAllocator() experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(mmapMemory)
}

func mmapMemory(capacity, maxBytes uint64) experimental.LinearMemory {
	if maxBytes == 0 || maxBytes > math.MaxInt {
		return &heapMemory{max: maxBytes}
	}
	buf, err := syscall.Mmap(-1, 0, int(maxBytes), syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		return &heapMemory{max: maxBytes}
	}
	return &mappedMemory{buf: buf}
}

// mappedMemory is a linear memory in a mapping of its maximum size.
type mappedMemory struct {
	buf []byte
}

func (m *mappedMemory) Reallocate(size uint64) []byte {
	if m.buf == nil || size > uint64(len(m.buf)) {
		return nil
	}
	return m.buf[:size:size]
}

func (m *mappedMemory) Free() {
	if m.buf != nil {
		syscall.Munmap(m.buf)
		m.buf = nil
	}
}
