package proc

// ReaperRunning says whether the reaper runs, for the tests.
func ReaperRunning() bool {
	std.mu.Lock()
	defer std.mu.Unlock()
	return std.reaper != nil
}

// WatchdogPid waits for the watchdog to run and returns its pid, 0 when
// there is none, for the tests: a watchdog still between its fork and its
// exec has mm's command line.
func WatchdogPid() int {
	std.mu.Lock()
	d := std.dog
	std.mu.Unlock()
	return d.runningPid()
}
