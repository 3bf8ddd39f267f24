package sessions_test

import (
	"github.com/mm-agent/mm/internal/orchestrator"
	"github.com/mm-agent/mm/internal/sessions"
)

// A Writer is what the orchestrator records a session with.
var _ orchestrator.Recorder = (*sessions.Writer)(nil)
