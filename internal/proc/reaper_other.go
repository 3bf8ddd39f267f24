//go:build !linux

package proc

import "time"

// reaper needs Linux's child subreaper; elsewhere an orphan goes to init.
type reaper struct{}

func (s *supervisor) supervise() {}

func (s *supervisor) stopReaper() {}

func (s *supervisor) sweep() {}

// killDescendants has no list of children to go by: Shutdown kills the
// groups mm started, and that is all it can do.
func (s *supervisor) killDescendants(time.Duration) {}

// Children returns nil: only Linux lists a process's children.
func Children() []int { return nil }
