//go:build !unix

package wasm

// The open flags the os package does not name, unknown on this system.
const (
	oDirectory = 0
	oNoFollow  = 0
)
