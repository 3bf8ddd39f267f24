package orchestrator

import (
	"context"
	"fmt"

	"github.com/mm-agent/mm/internal/permissions"
)

// consent decides whether a call may run, once no hook denied it and no
// deny rule names it: "" when it may, else the output the model reads
// instead. allowed says a hook's allow or an allow rule covers the call;
// always are the rules an "always" answer adds (req.Always offers them).
func (s *Session) consent(ctx context.Context, req ConsentRequest, allowed bool, always []permissions.Rule) string {
	name := req.Tool
	if s.yolo {
		return ""
	}
	s.mu.Lock()
	never := s.never[name]
	s.mu.Unlock()
	switch {
	case never:
		return fmt.Sprintf("[refused: the person said never for %s in this session]", name)
	case allowed:
		return ""
	}
	ans := s.sink.Consent(ctx, req)
	switch ans {
	case AllowOnce:
		return ""
	case AllowAlways, AllowAlwaysSaved:
		if req.Always == nil {
			return "" // not offered: a front end's answer, taken as once
		}
		s.allowAlso(always)
		if ans == AllowAlwaysSaved && req.Always.SaveTo != "" {
			s.saveAllow(always)
		}
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
