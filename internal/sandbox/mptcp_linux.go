package sandbox

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock's TCP rules hold sockets of IPPROTO_TCP only: a program that
// asks for Multipath TCP (Go's listeners do, since Go 1.24) would connect
// and listen with the network off. With the network off, a seccomp filter
// on the confined thread answers such a socket with EPROTONOSUPPORT, so
// that programs fall back to TCP, which Landlock holds. A system call of
// another architecture (a 32-bit program's) is refused whole: its numbers
// are not the ones the filter reads.
func noMPTCP() error {
	if nativeArch == 0 {
		return nil
	}
	const (
		nrAt    = 0  // seccomp_data.nr
		archAt  = 4  // seccomp_data.arch
		protoAt = 32 // seccomp_data.args[2], its low half (little endian)
	)
	filter := []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: archAt},
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: nativeArch, Jt: 1, Jf: 0},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)},
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: nrAt},
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: unix.SYS_SOCKET, Jt: 0, Jf: 3},
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: protoAt},
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: unix.IPPROTO_MPTCP, Jt: 0, Jf: 1},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ERRNO | uint32(unix.EPROTONOSUPPORT)},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ALLOW},
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&prog))); errno != 0 {
		return fmt.Errorf("sandbox: refuse Multipath TCP sockets: %w", errno)
	}
	return nil
}
