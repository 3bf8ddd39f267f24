package tui

import (
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// TestStatusWaits: the status line says what the turn waits on and for how
// long, as the line mode's spinner does, and the last turn's usage once
// the window is idle.
func TestStatusWaits(t *testing.T) {
	tw := newTestWindow(t, nil)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tw.now = func() time.Time { return now }
	tw.running = true
	steps := []struct {
		ev    orchestrator.Event
		after time.Duration
		want  string
	}{
		{orchestrator.ModelStarted{}, 1500 * time.Millisecond, " script/x.yaml · thinking… 1.5 s · Esc cancels"},
		{orchestrator.ToolStarted{ID: "1", Name: "bash", Subject: "make\x1b[2J"}, 400 * time.Millisecond, ` script/x.yaml · running bash: make\x1b[2J… 0.4 s · Esc cancels`},
		{orchestrator.ToolEnded{ID: "1", Name: "bash", Status: orchestrator.ToolCompleted}, 0, " script/x.yaml · running · Esc cancels"},
		{orchestrator.AskStarted{Agent: "expert", Depth: 1, Via: "command"}, 3200 * time.Millisecond, " script/x.yaml · asking expert… 3.2 s · Esc cancels"},
		{orchestrator.AskEnded{Agent: "expert", Depth: 1, Via: "command"}, 0, " script/x.yaml · running · Esc cancels"},
	}
	for i, s := range steps {
		tw.message(s.ev)
		now = now.Add(s.after)
		if got := tw.status(); got != s.want {
			t.Errorf("step %d (%T): status\n got %q\nwant %q", i, s.ev, got, s.want)
		}
	}
	tw.message(orchestrator.TurnEnded{Usage: orchestrator.Usage{Calls: 1, Reported: 1, InputTokens: 310, OutputTokens: 42, Generation: 512900 * time.Microsecond}})
	tw.running = false
	want := " script/x.yaml · idle · Enter sends · /help · Ctrl-D leaves · 310 tokens in · 42 out · 81.9 tokens/s · 1 model call"
	if got := tw.status(); got != want {
		t.Errorf("status after the turn\n got %q\nwant %q", got, want)
	}
}
