package orchestrator

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/mmconfigs"
)

// TestSwitchModel: /model makes another model the session's: a new window
// (nothing known of its server yet), the hooks naming it, the recorder
// told; a model that cannot be made leaves the session's as it was.
func TestSwitchModel(t *testing.T) {
	cfg := mmconfigs.Default(t.TempDir(), func(string) string { return "" })
	cfg.Model = "echo/a"
	rec := &memRecorder{}
	s, err := New(context.Background(), Options{Config: cfg, Cwd: cfg.Dir, Sink: &recSink{}, Recorder: rec})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	old := s.window
	old.settle(1000)
	say, err := s.SwitchModel("echo/b")
	if err != nil || say != "model: echo/b (was echo/a); its window is read at the next request" {
		t.Fatalf("SwitchModel: %q, %v", say, err)
	}
	if s.Model() != "echo/b" || s.window == old || s.window.size != 0 || s.history.window != s.window || s.hookOptions.Model != "echo/b" {
		t.Errorf("after the switch: model %s, a new window %v (size %d), the history's %v, hooks' model %s",
			s.Model(), s.window != old, s.window.size, s.history.window == s.window, s.hookOptions.Model)
	}
	if !slices.Equal(rec.models, []string{"echo/a", "echo/b"}) {
		t.Errorf("the recorder was told %q", rec.models)
	}
	if _, err := s.SwitchModel("nowhere/x"); err == nil || !strings.HasPrefix(err.Error(), `/model: model "nowhere/x": unknown provider "nowhere"`) || s.Model() != "echo/b" {
		t.Errorf("an unknown provider: %v; model %s", err, s.Model())
	}
	if _, err := s.SwitchModel("qwen3"); err == nil || s.Model() != "echo/b" {
		t.Errorf("no provider: %v; model %s", err, s.Model())
	}
}

// TestResumedModel: a resumed session goes on with the model it last ran
// with, unless the person chose one for this run (--model, /model).
func TestResumedModel(t *testing.T) {
	cfg := mmconfigs.Default(t.TempDir(), func(string) string { return "" })
	cfg.Model = "echo/config"
	resumed := &Resumed{Model: "echo/used"}
	for _, tc := range []struct {
		name, flag, want string
	}{
		{"the session's", "", "echo/used"},
		{"--model's", "echo/flag", "echo/flag"},
	} {
		s, err := New(context.Background(), Options{Config: cfg, Cwd: cfg.Dir, Sink: &recSink{}, Model: tc.flag, Resume: resumed})
		if err != nil {
			t.Fatal(err)
		}
		if s.Model() != tc.want {
			t.Errorf("%s: model %s, want %s", tc.name, s.Model(), tc.want)
		}
		s.Close()
	}
	// /resume: the session's model, unless /model chose one.
	s := newTestSession(t, cfg, nil, &recSink{})
	s.model, _ = s.newModel("echo/test", nil)
	s.store = &oneStore{saved: &Resumed{Model: "echo/used"}}
	say, err := s.ResumeSaved("1m8rp")
	if err != nil || s.Model() != "echo/used" || !strings.HasSuffix(say, "\nmodel: echo/used, the one the session used (was echo/test; /model switches)") {
		t.Errorf("/resume: %q, %v, model %s", say, err, s.Model())
	}
	s.SwitchModel("echo/mine")
	if say, _ := s.ResumeSaved("1m8rp"); s.Model() != "echo/mine" || strings.Contains(say, "model:") {
		t.Errorf("/resume after /model: %q, model %s", say, s.Model())
	}
}
