//go:build linux && !amd64 && !arm64

package sandbox

// nativeArch is 0 where the filter of mptcp_linux.go is not written yet:
// Multipath TCP sockets are not refused there (docs/explanation/sandbox.md).
const nativeArch = 0
