//go:build unix

package proc

// WatchdogScript is the watchdog's script, for the tests.
const WatchdogScript = watchdogScript
