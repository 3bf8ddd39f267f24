package orchestrator

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/mm-agent/mm/internal/handoff"
	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/mmconfigs"
)

// TestAskErrorsAreTypes: an ask to an unknown agent and an ask too deep end
// in errors a caller tells apart with errors.As, worded as before.
func TestAskErrorsAreTypes(t *testing.T) {
	t.Run("unknown agent", func(t *testing.T) {
		s := newTestSession(t, nil, &fakeModel{}, &recSink{})
		_, err := s.Ask(context.Background(), "nobody", "why?", false, "")
		var ue *handoff.UnknownAgentError
		if !errors.As(err, &ue) || ue.Name != "nobody" {
			t.Fatalf("Ask = %v, want an UnknownAgentError for nobody", err)
		}
		if want := `no agent "nobody" in mmConfigs (known: none: add mmConfigs to the configuration)`; err.Error() != want {
			t.Errorf("error %q, want %q", err, want)
		}
	})
	t.Run("too deep", func(t *testing.T) {
		dir := t.TempDir()
		cfg := mmconfigs.Default(dir, func(string) string { return "" })
		cfg.Agents = map[string]mmconfigs.Agent{"expert": fileAgent(filepath.Join(dir, "expert.yaml"))}
		s := newTestSession(t, cfg, &fakeModel{}, &recSink{})
		s.maxDepth = 0
		_, err := s.Ask(context.Background(), "expert", "why?", false, "")
		var de *handoff.DepthError
		if !errors.As(err, &de) || de.Name != "expert" || de.Depth != 1 || de.Max != 0 {
			t.Fatalf("Ask = %v, want a DepthError for expert at depth 1", err)
		}
		if want := "ask refused: expert would run at depth 1, beyond maxAskDepth 0"; err.Error() != want {
			t.Errorf("error %q, want %q", err, want)
		}
	})
}

// stuckModel answers once its context ends, with the context's error.
type stuckModel struct{}

func (stuckModel) Stream(ctx context.Context, _ llm.Request, _ func(string)) (llm.Reply, error) {
	<-ctx.Done()
	return llm.Reply{}, ctx.Err()
}

// TestCancelledUnwrapsToContextCanceled: a turn cut short ends in an error
// that reads "cancelled" and that errors.Is finds context.Canceled in.
func TestCancelledUnwrapsToContextCanceled(t *testing.T) {
	sink := &recSink{}
	s := newTestSession(t, nil, stuckModel{}, sink)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := s.Prompt(ctx, "hello")
	if !errors.Is(err, context.Canceled) || err.Error() != "cancelled" {
		t.Fatalf("Prompt = %v, want \"cancelled\" wrapping context.Canceled", err)
	}
	if !errors.Is(errCancelled, context.Canceled) || errCancelled.Error() != "cancelled" {
		t.Errorf("errCancelled = %v, want \"cancelled\" wrapping context.Canceled", errCancelled)
	}
}
