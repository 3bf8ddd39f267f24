//go:build !(linux || darwin)

package wasm

import "github.com/tetratelabs/wazero/experimental"

// memoryAllocator is wazero's own (Go slices) on this system.
var memoryAllocator experimental.MemoryAllocator
