package orchestrator

import (
	"slices"

	"github.com/mm-agent/mm/llm"
)

// turnQuestion is the question of the turn under way twice: as the history
// keeps it (the rewritten question, @path and $skill lines expanded) and as
// the model reads it (then each context a preGeneration hook added). A
// context is for the turn's model calls, the tool loop's included, and is
// gone from the next turn's requests (docs/reference/hooks.md).
type turnQuestion struct {
	kept, read string
}

// readWith sets the turn's question: the history keeps kept, every model
// call of the turn reads read. It returns what ends it, for the turn to
// call when its last model call is over.
func (s *Session) readWith(kept, read string) (end func()) {
	s.mu.Lock()
	s.question = turnQuestion{kept: kept, read: read}
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		s.question = turnQuestion{}
		s.mu.Unlock()
	}
}

// asRead puts the turn's question, as the model reads it, in place of the
// one the history keeps, in msgs (a copy of the history, or of a part of
// it). It is the latest user message of that text: the turn's question is
// the latest question, and what follows it in the turn (assistant messages,
// tool outputs, a structuredOutput retry) is not the question's text. A
// compression may have summarised it away: then nothing is replaced. The
// caller holds s.mu.
func (s *Session) asRead(msgs []llm.Message) {
	q := s.question
	if q.read == q.kept {
		return
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == llm.RoleUser && msgs[i].Content == q.kept {
			msgs[i].Content = q.read
			return
		}
	}
}

// contextTokens is the estimate of what the turn's contexts add to a
// request. The caller holds s.mu.
func (s *Session) contextTokens() int {
	q := s.question
	return estimateMessage(llm.Message{Content: q.read}) - estimateMessage(llm.Message{Content: q.kept})
}

// turnContextTokens is contextTokens, for a caller not holding s.mu.
func (s *Session) turnContextTokens() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.contextTokens()
}

// asSent is a copy of msgs with the turn's question as the model read it.
func (s *Session) asSent(msgs []llm.Message) []llm.Message {
	out := slices.Clone(msgs)
	s.mu.Lock()
	s.asRead(out)
	s.mu.Unlock()
	return out
}
