package line

import (
	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// conversationSource is a session that can show its conversation again
// (*orchestrator.Session): a resumed one shows itself.
type conversationSource interface {
	Conversation() []orchestrator.Event
}

// RecentTurns is how many of a resumed session's turns the line mode shows
// in full; /history shows them all.
const RecentTurns = 3

// showConversation writes what frontend.Shown gives of s's conversation,
// when s can show it.
func (r *renderer) showConversation(s any, last int) {
	c, ok := s.(conversationSource)
	if !ok {
		return
	}
	for _, ev := range frontend.Shown(c.Conversation(), last) {
		r.Emit(ev)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closeLine()
	r.segment, r.wrote = "", false
}
