//go:build unix

package proc

import "os"

// WatchdogScript is the watchdog's script, for the tests.
const WatchdogScript = watchdogScript

// WatchdogTable is the table of a watchdog told that the groups of started
// started, then that those of ended ended, for the tests.
func WatchdogTable(started, ended []int) *os.File {
	d := newWatchdog()
	d.r.Close()
	d.w.Close()
	for _, g := range started {
		d.tell(groupStarted, g)
	}
	for _, g := range ended {
		d.tell(groupEnded, g)
	}
	return d.table
}
