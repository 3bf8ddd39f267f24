//go:build !unix

package proc

// watchdog does nothing where there are no process groups to kill.
type watchdog struct{}

func newWatchdog() *watchdog { return nil }

func (d *watchdog) run() {}

func (d *watchdog) start() {}

func (d *watchdog) list(target) {}

func (d *watchdog) unlist(target) {}

func (d *watchdog) isWatchdog(int) bool { return false }

func (d *watchdog) kill() {}

func (d *watchdog) reap() {}
