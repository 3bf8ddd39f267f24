package orchestrator

import (
	"context"
	"testing"

	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/ollamatest"
)

// TestRealOllamaFirstCallLoads: on a real Ollama, the session's first
// call goes to a model the server has not loaded yet, and ModelStarted
// says so (the spinner shows "loading the model" instead of "thinking");
// the next call's does not.
func TestRealOllamaFirstCallLoads(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real Ollama")
	}
	srv := ollamatest.Start(t)
	srv.Create(t, ollamatest.Model{Name: "tiny", NumCtx: 1024, NumPredict: 8})
	cfg := windowConfig(t, 0)
	cfg.Model = "ollama/tiny"
	cfg.Providers = map[string]mmconfigs.Provider{"ollama": {BaseURL: srv.URL + "/v1"}}
	sink := &recSink{}
	s, err := New(context.Background(), Options{Config: cfg, Cwd: cfg.Dir, Sink: sink})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, q := range []string{"hi", "again"} {
		if err := s.Prompt(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	var got []bool
	sink.mu.Lock()
	for _, e := range sink.events {
		if m, ok := e.(ModelStarted); ok {
			got = append(got, m.Loading)
		}
	}
	sink.mu.Unlock()
	if len(got) != 2 || !got[0] || got[1] {
		t.Errorf("ModelStarted.Loading of the two calls: %v, want [true false]", got)
	}
}
