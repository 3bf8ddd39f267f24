//go:build unix

package proc

import "os"

// WatchdogScript is the watchdog's script, for the tests.
const WatchdogScript = watchdogScript

// WatchdogTable is the table of a watchdog told that the groups of groups
// and the processes of processes started, then that the groups of ended
// ended, for the tests.
func WatchdogTable(groups, processes, ended []int) *os.File {
	d := newWatchdog()
	d.r.Close()
	d.w.Close()
	for _, g := range groups {
		d.list(target{g, true})
	}
	for _, p := range processes {
		d.list(target{p, false})
	}
	for _, g := range ended {
		d.unlist(target{g, true})
	}
	return d.table.f
}
