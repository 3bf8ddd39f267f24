//go:build unix

package wasm

import "syscall"

// The open flags the os package does not name.
const (
	oDirectory = syscall.O_DIRECTORY
	oNoFollow  = syscall.O_NOFOLLOW
)
