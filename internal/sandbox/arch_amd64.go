//go:build linux

package sandbox

import "golang.org/x/sys/unix"

// nativeArch is the seccomp architecture of mm's own system calls.
const nativeArch = unix.AUDIT_ARCH_X86_64
