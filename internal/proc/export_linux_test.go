package proc

// ReaperRunning says whether the reaper runs, for the tests.
func ReaperRunning() bool {
	std.mu.Lock()
	defer std.mu.Unlock()
	return std.reaper != nil
}
