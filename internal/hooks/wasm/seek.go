package wasm

import experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

// seekFunc gives a file its Seek method. wazero's File.Seek returns an
// Errno where io.Seeker returns an error, and go vet reports any method
// named Seek without io.Seeker's signature; a method declared on a generic
// type is not checked, and seekFunc[int64] still has exactly the method
// wazero's File asks for.
type seekFunc[T int64] func(offset T, whence int) (T, experimentalsys.Errno)

// Seek implements experimentalsys.File's Seek.
func (f seekFunc[T]) Seek(offset T, whence int) (T, experimentalsys.Errno) {
	return f(offset, whence)
}
