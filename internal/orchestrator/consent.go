package orchestrator

import (
	"context"
	"fmt"
)

// consent decides whether a call may run without a hook's verdict: "" when
// it may, else the output the model reads instead.
func (s *Session) consent(ctx context.Context, req ConsentRequest, hookAllowed bool) string {
	name := req.Tool
	if s.yolo {
		return ""
	}
	s.mu.Lock()
	never, always := s.never[name], s.always[name]
	s.mu.Unlock()
	switch {
	case never:
		return fmt.Sprintf("[refused: the person said never for %s in this session]", name)
	case hookAllowed || always:
		return ""
	}
	ans := s.sink.Consent(ctx, req)
	switch ans {
	case AllowOnce:
		return ""
	case AllowAlways:
		s.mu.Lock()
		s.always[name] = true
		s.mu.Unlock()
		return ""
	case RejectAlways:
		s.mu.Lock()
		s.never[name] = true
		s.mu.Unlock()
		return fmt.Sprintf("[refused: the person said never for %s in this session]", name)
	case RejectOnce:
		return "[refused: the person did not allow this call]"
	}
	if ctx.Err() != nil {
		return cancelledBeforeRun
	}
	if s.depth > 0 {
		// Hooks' allow is ignored in an asked agent: only yolo helps.
		return fmt.Sprintf("[refused: nobody can approve %s here: the person of the agent that asked could not be asked; set yolo: true in this agent's configuration to run its tools unasked]", name)
	}
	return fmt.Sprintf("[refused: nobody can approve %s here: run with --yolo, set yolo: true, or let a preToolCall hook allow it]", name)
}
