package frontend

import (
	"errors"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/orchestrator"
)

func TestProgressWaiting(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	steps := []struct {
		ev   orchestrator.Event
		at   int // ms after t0 when the event arrives
		want string
	}{
		{orchestrator.ModelStarted{Loading: true}, 0, "loading the model… 0.0 s"},
		{orchestrator.Text{Text: "Let me look."}, 1200, ""},
		{orchestrator.ToolStarted{ID: "1", Name: "bash", Subject: "ls"}, 1300, "running bash: ls… 0.0 s"},
		{orchestrator.ToolEnded{ID: "1", Name: "bash", Status: orchestrator.ToolCompleted}, 1500, ""},
		{orchestrator.Compressing{}, 1500, "compressing the conversation… 0.0 s"},
		{orchestrator.Compressing{}, 1600, "compressing the conversation… 0.0 s"},
		{orchestrator.Compressed{Before: 3300, After: 1900}, 1700, ""},
		{orchestrator.ModelStarted{}, 1700, "thinking… 0.0 s"},
		{orchestrator.AskStarted{Agent: "expert", Depth: 1, Via: "tool"}, 2000, "asking expert… 0.0 s"},
		{orchestrator.ToolStarted{ID: "2", Name: "ask_agent", Subject: "expert"}, 2100, "asking expert… 0.1 s"},
		{orchestrator.ToolStarted{Agent: "expert", ID: "9", Name: "ask_agent", Subject: "checker"}, 2200, "[expert] asking checker… 0.0 s"},
		{orchestrator.Text{Agent: "expert/checker", Text: "fine"}, 2300, "[expert] asking checker… 0.1 s"},
		{orchestrator.ToolEnded{Agent: "expert", ID: "9", Name: "ask_agent"}, 2400, "asking expert… 0.4 s"},
		{orchestrator.AskEnded{Agent: "expert", Depth: 1, Via: "tool", Err: errors.New("x")}, 5200, ""},
		{orchestrator.ToolEnded{ID: "2", Name: "ask_agent"}, 5200, ""},
		{orchestrator.ModelStarted{}, 5300, "thinking… 0.0 s"},
		{orchestrator.TurnEnded{Usage: orchestrator.Usage{Calls: 3, Reported: 3, InputTokens: 900, OutputTokens: 80, Generation: 2 * time.Second}}, 6000, ""},
	}
	var p Progress
	for i, s := range steps {
		p.Observe(s.ev, at(s.at))
		if got := p.Waiting(at(s.at)); got != s.want {
			t.Errorf("step %d (%T): got %q, want %q", i, s.ev, got, s.want)
		}
	}
	if got, want := p.Waiting(at(9000)), ""; got != want {
		t.Errorf("after the turn: %q", got)
	}
	want := "last turn: 900 tokens in · 80 out · 40.0 tokens/s · 3 model calls\nthis session: 900 tokens in · 80 out · 40.0 tokens/s · 3 model calls"
	if got := p.UsageReport(); got != want {
		t.Errorf("usage:\n got %q\nwant %q", got, want)
	}
}

func TestUsageLine(t *testing.T) {
	for _, tt := range []struct {
		u    orchestrator.Usage
		want string
	}{
		{orchestrator.Usage{}, "no model call"},
		{orchestrator.Usage{Calls: 1}, "no token counts from the server · 1 model call"},
		{orchestrator.Usage{Calls: 2, Reported: 2, InputTokens: 310, OutputTokens: 42, Generation: 512900 * time.Microsecond}, "310 tokens in · 42 out · 81.9 tokens/s · 2 model calls"},
	} {
		if got := UsageLine(tt.u); got != tt.want {
			t.Errorf("UsageLine(%+v) = %q, want %q", tt.u, got, tt.want)
		}
	}
}
