package wasm

// heapMemory is a linear memory in a Go slice: the fallback when no
// mapping can be made.
type heapMemory struct {
	buf []byte
	max uint64
}

func (m *heapMemory) Reallocate(size uint64) []byte {
	if size > m.max {
		return nil
	}
	if size > uint64(cap(m.buf)) {
		buf := make([]byte, size, max(size, 2*uint64(cap(m.buf))))
		copy(buf, m.buf)
		m.buf = buf
	}
	m.buf = m.buf[:size]
	return m.buf
}

func (m *heapMemory) Free() { m.buf = nil }
