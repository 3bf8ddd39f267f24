//go:build !linux

package sandbox

import "runtime"

// Probe says there is no Landlock: it is Linux's.
func Probe() Support {
	return Support{Why: "mm's sandbox is Linux's Landlock, and this is " + runtime.GOOS}
}
