package orchestrator

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/llm"
)

// TestTurnUsage: each model call is announced (ModelStarted), and the turn's
// end adds up what the server counted, using its generation time where it
// gives one.
func TestTurnUsage(t *testing.T) {
	sink := &recSink{}
	m := &fakeModel{replies: []llm.Reply{
		{ToolCalls: []llm.ToolCall{call("1", "nosuch", `{}`)}, Usage: llm.Usage{InputTokens: 300, OutputTokens: 20, Generation: time.Second}},
		{Content: "ok", Usage: llm.Usage{InputTokens: 330, OutputTokens: 60, Generation: time.Second}},
	}}
	s := newTestSession(t, nil, m, sink)
	if err := s.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	sink.mu.Lock()
	for _, ev := range sink.events {
		kinds = append(kinds, fmt.Sprintf("%T", ev))
	}
	sink.mu.Unlock()
	want := "[orchestrator.ModelStarted orchestrator.ToolEnded orchestrator.ModelStarted orchestrator.Text orchestrator.TurnEnded]"
	if got := fmt.Sprint(kinds); got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}
	u := sink.ended().Usage
	if want := (Usage{Calls: 2, Reported: 2, InputTokens: 630, OutputTokens: 80, Generation: 2 * time.Second}); u != want {
		t.Errorf("usage: got %+v, want %+v", u, want)
	}
	if got := u.TokensPerSecond(); got != 40 {
		t.Errorf("tokens per second: got %v, want 40", got)
	}
}

// TestAskEvents: a hand-off, even one that fails at once, is framed by
// AskStarted and AskEnded.
func TestAskEvents(t *testing.T) {
	sink := &recSink{}
	s := newTestSession(t, nil, &fakeModel{}, sink)
	if _, err := s.Ask(context.Background(), "nobody", "why?", false, ""); err == nil {
		t.Fatal("asking an unknown agent: no error")
	}
	sink.mu.Lock()
	defer sink.mu.Unlock()
	if len(sink.events) != 2 {
		t.Fatalf("events: %#v", sink.events)
	}
	if got, want := sink.events[0], (AskStarted{Agent: "nobody", Depth: 1, Via: "cli", Question: "why?"}); got != want {
		t.Errorf("start: got %#v, want %#v", got, want)
	}
	end, ok := sink.events[1].(AskEnded)
	if !ok || end.Agent != "nobody" || end.Err == nil || end.Err.Error() != `no agent "nobody" in mmConfigs (known: none: add mmConfigs to the configuration)` {
		t.Errorf("end: %#v", sink.events[1])
	}
}

func TestDepth(t *testing.T) {
	for agent, want := range map[string]int{"": 0, "expert": 1, "expert/checker": 2} {
		if got := Depth(agent); got != want {
			t.Errorf("Depth(%q) = %d, want %d", agent, got, want)
		}
	}
}
