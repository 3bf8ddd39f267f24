package orchestrator

import "github.com/mm-agent/mm/internal/hooks"

// HookEngine is the engine that runs the session's hooks, with the
// environment (MM_BIN, MM_CONFIG), model reference (--model over model:)
// and depth New gave it: mm hooks run runs one event's chain on it,
// exactly as a turn would.
func (s *Session) HookEngine() *hooks.Engine { return s.hooks }
