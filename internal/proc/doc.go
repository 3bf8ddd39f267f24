// Package proc starts mm's child processes and sees to it that none of them,
// nor anything they start, outlives mm, whatever ends it.
//
// Every child is the leader of a process group of its own, so that it and
// everything it starts are killed at once; on Linux the kernel also kills it
// should mm die first (Pdeathsig). Wait kills what is left of the group once
// the child has exited, even after a success. A watchdog, a small /bin/sh
// started with the first child, sleeps until mm is gone, then kills every
// group that mm's table for it (a file they share) still lists: when mm
// dies without a chance to do it, by SIGKILL too. Supervise makes mm
// the subreaper of its descendants (Linux), so that a process that left its
// group is still mm's: reaped when it exits, reported to the watchdog, and
// killed by Shutdown.
//
// The state here is the process's own — its children, its watchdog — as the
// kernel's notions of parent, subreaper and death are; the package keeps one
// supervisor per process behind a mutex. Every operating-system-specific
// piece of mm's process handling lives here, in _linux, _unix and _other
// files.
package proc
