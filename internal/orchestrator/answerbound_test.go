package orchestrator

import (
	"context"
	"strings"
	"testing"
)

// endlessA2A answers without end, until its question is cancelled.
type endlessA2A struct{ stopped chan struct{} }

func (e *endlessA2A) connect(A2AOptions) (A2AAgent, error) { return e, nil }

func (e *endlessA2A) Prompt(ctx context.Context, _ string, onText func(string)) error {
	piece := strings.Repeat("x", 1<<10)
	for ctx.Err() == nil {
		onText(piece)
	}
	close(e.stopped)
	return ctx.Err()
}

func (e *endlessA2A) ContextID() string                        { return "" }
func (e *endlessA2A) Describe(context.Context) (string, error) { return "", nil }
func (e *endlessA2A) Close() error                             { return nil }

// TestAnswerBoundOverA2A: an agent over A2A that never stops answering is
// stopped once its answer passes the hard bound, the hand-off ending with
// one line; the person was shown the answer up to the bound, and mm kept
// only its first bytes.
func TestAnswerBoundOverA2A(t *testing.T) {
	cfg := a2aConfig(t)
	e := &endlessA2A{stopped: make(chan struct{})}
	sink := &recSink{}
	s, err := New(context.Background(), Options{Config: cfg, Cwd: cfg.Dir, Environ: a2aEnviron, Sink: sink, ConnectA2A: e.connect})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.answerKeep, s.answerHard = 4<<10, 64<<10
	_, err = s.Ask(context.Background(), "reviewer", "go on", false, "")
	want := "reviewer's answer passed 64 KiB, the most mm shows of one answer: mm ended the hand-off"
	if err == nil || err.Error() != want {
		t.Fatalf("Ask error %v, want %s", err, want)
	}
	<-e.stopped // the agent's question was cancelled
	shown := 0
	sink.mu.Lock()
	for _, ev := range sink.events {
		if tx, ok := ev.(Text); ok && tx.Agent == "reviewer" {
			shown += len(tx.Text)
		}
	}
	sink.mu.Unlock()
	if shown != 64<<10 {
		t.Errorf("%d bytes shown, want the 64 KiB up to the bound", shown)
	}
}
