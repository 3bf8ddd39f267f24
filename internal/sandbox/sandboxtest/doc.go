// Package sandboxtest runs a program as on a kernel without Landlock, for
// the tests of the sandbox's fallback: a seccomp filter makes Landlock's
// three system calls fail with ENOSYS, as a kernel built without it, or a
// container's filter that forbids them, does.
package sandboxtest
