//go:build !(linux || darwin)

package wasm

import "github.com/tetratelabs/wazero/experimental"

// memoryAllocator returns nil: wazero's own allocator (Go slices) on this
// system.
func memoryAllocator() experimental.MemoryAllocator { return nil }
