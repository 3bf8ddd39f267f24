package orchestrator

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/mm-agent/mm/internal/hooks"
	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/llm/models"
	"github.com/mm-agent/mm/internal/mmconfigs"
)

// newModel is the client of the model ref, as the configuration's
// providers make it.
func (s *Session) newModel(ref string, env map[string]string) (llm.Model, error) {
	return models.New(ref, models.Options{
		Providers: providers(s.cfg.Providers),
		ConfigDir: s.cfg.Dir,
		Getenv:    func(k string) string { return env[k] },
		// A busy server's retries: the person sees each wait.
		Notify: func(line string) { s.sink.Emit(Notice{Kind: NoticeWarning, Text: line}) },
		Place:  s.place(),
		Trace:  s.trace,
	})
}

// modelError is the configuration error of the model ref, which cannot be
// made: err, naming the file that gave it.
func (s *Session) modelError(ref string, err error) error {
	return s.cfg.ModelError(ref, err, func(p string) string { return mmconfigs.DisplayPath(p, s.cwd) })
}

// resumedModel makes the model a resumed session last ran with the
// session's, unless the person chose one for this run (--model): mm
// --continue goes on as the session went. A model that cannot be made
// (its provider gone from the configuration) leaves the configuration's,
// with a warning.
func (s *Session) resumedModel(r *Resumed, env map[string]string) {
	if r == nil || r.Model == "" || r.Model == s.ref || s.modelChosen {
		return
	}
	if _, err := s.newModel(r.Model, env); err != nil {
		s.warnings = append(s.warnings, fmt.Sprintf("the session's model %s cannot be used (%v): going on with %s", r.Model, err, s.ref))
		return
	}
	s.ref = r.Model
}

// SwitchModel makes ref the session's model for the rest of the session
// (/model <provider>/<model>) and says so: a new client; a new window,
// which its server is asked for at the next request (window.go), the
// history's count by the old one forgotten; the hooks' input naming it;
// the session's file noting it at the next question, so that mm
// --continue goes on with it. The person chose it: a session /resume
// goes on with keeps it. It runs between turns.
func (s *Session) SwitchModel(ref string) (string, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" || !strings.Contains(ref, "/") {
		return "", errors.New("/model <provider>/<model>: name the model as model: does in agent.yaml, as in /model ollama/qwen3:8b")
	}
	was := s.ref
	if err := s.useModel(ref); err != nil {
		return "", fmt.Errorf("/model: %w: the session goes on with %s", err, was)
	}
	s.modelChosen = true
	if ref == was {
		return "model: " + ref + " (unchanged)", nil
	}
	return "model: " + ref + " (was " + was + "); its window is read at the next request", nil
}

// useModel makes ref the running model (SwitchModel, a resumed session's
// model).
func (s *Session) useModel(ref string) error {
	m, err := s.newModel(ref, envMap(s.environ))
	if err != nil {
		return err
	}
	s.model, s.ref = m, ref
	s.loadAsked = new(sync.Once)
	s.window = newWindow(s.cfg, ref)
	s.history.useWindow(s.window)
	s.history.usesModel(ref)
	s.hookOptions.Model = ref
	s.hooks = hooks.NewEngine(&s.cfg.Hooks, s.hookOptions)
	return nil
}
