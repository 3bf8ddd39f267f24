package orchestrator

import (
	"reflect"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
)

// TestTurnQuestion: the model reads the turn's question with its contexts
// at the index the history keeps it at, and nowhere else — not in an
// earlier question of the same text; a summary moves the index, or
// removes the question with what it summarised.
func TestTurnQuestion(t *testing.T) {
	user := func(s string) llm.Message { return llm.Message{Role: llm.RoleUser, Content: s} }
	answer := func(s string) llm.Message { return llm.Message{Role: llm.RoleAssistant, Content: s} }
	q := turnQuestion{at: 2, kept: "why?", read: "why?\n\n[context]"}
	tests := []struct {
		name       string
		q          turnQuestion
		summarised int // messages a summary replaced first; 0: none
		hist       []llm.Message
		want       []string
	}{
		{name: "read at its index", q: q, hist: []llm.Message{user("why?"), answer("because"), user("why?")},
			want: []string{"why?", "because", "why?\n\n[context]"}},
		{name: "no contexts: as kept", q: turnQuestion{at: 0, kept: "why?", read: "why?"}, hist: []llm.Message{user("why?")},
			want: []string{"why?"}},
		{name: "outside a turn", q: turnQuestion{at: -1}, hist: []llm.Message{user("why?")}, want: []string{"why?"}},
		{name: "another message at its index: left", q: q, hist: []llm.Message{user("why?"), answer("because"), answer("why?")},
			want: []string{"why?", "because", "why?"}},
		{name: "moved by a summary", q: q, summarised: 2, hist: []llm.Message{user(compressedNote), answer("summary"), user("why?")},
			want: []string{compressedNote, "summary", "why?\n\n[context]"}},
		{name: "summarised away", q: q, summarised: 3, hist: []llm.Message{user(compressedNote), answer("summary"), user("why?")},
			want: []string{compressedNote, "summary", "why?"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := tt.q
			if tt.summarised > 0 {
				q.summarised(tt.summarised)
			}
			msgs := append([]llm.Message(nil), tt.hist...)
			q.asRead(msgs)
			var got []string
			for _, m := range msgs {
				got = append(got, m.Content)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("read %q, want %q", got, tt.want)
			}
		})
	}
}
