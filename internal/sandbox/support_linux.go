package sandbox

import (
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// Probe asks the kernel which Landlock ABI it has.
func Probe() Support {
	v, err := ll.LandlockGetABIVersion()
	if err != nil {
		return Support{Why: why("landlock_create_ruleset: " + err.Error())}
	}
	return Support{ABI: v}
}
