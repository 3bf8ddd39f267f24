package orchestrator

import "fmt"

// StepsError is the end of a turn that made as many model calls as it may
// (maxSteps, or --max-turns) without an answer. A front end may tell it
// from another failure: -p's JSON result says error_max_turns, as Claude
// Code's does.
type StepsError struct {
	// Calls is the bound reached.
	Calls int
	// Flag says the bound is --max-turns's, not the configuration's.
	Flag bool
}

func (e *StepsError) Error() string {
	if e.Flag {
		return fmt.Sprintf("stopped after %d model calls in one turn (--max-turns %d): ask again to go on, or give a higher --max-turns", e.Calls, e.Calls)
	}
	return fmt.Sprintf("stopped after %d model calls in one turn (maxSteps %d): ask again to go on, or raise maxSteps in the configuration", e.Calls, e.Calls)
}

// maxSteps bounds the model calls of one turn: --max-turns, else the
// configuration's maxSteps.
func (s *Session) maxSteps() int {
	if s.maxTurns > 0 {
		return s.maxTurns
	}
	return s.cfg.MaxSteps
}

// stepsError is the error of a turn that reached maxSteps.
func (s *Session) stepsError() error {
	return &StepsError{Calls: s.maxSteps(), Flag: s.maxTurns > 0}
}
