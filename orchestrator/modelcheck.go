package orchestrator

import (
	"context"
	"time"

	"github.com/mm-agent/mm/llm"
	"github.com/mm-agent/mm/mmconfigs"
)

// serveCheckTimeout bounds how long mm check waits for a model server's
// list of models: a local server answers in milliseconds, one that is
// loading a model still answers this.
const serveCheckTimeout = 3 * time.Second

// CheckModel is what mm check says of a configuration's model: err is the
// error a session of it would start with (an unknown provider, a script
// that does not load), a configuration error; warning, when the model is
// sound, says its server does not answer or does not have it, and how to
// start or fetch it. A configuration without a model has nothing to check.
func CheckModel(ctx context.Context, cfg *mmconfigs.Config, getenv func(string) string) (warning string, err error) {
	if cfg.Model == "" {
		return "", nil
	}
	m, err := llm.New(cfg.Model, llm.Options{Providers: providers(cfg.Providers), ConfigDir: cfg.Dir, Getenv: getenv})
	if err != nil {
		return "", cfg.ModelError(cfg.Model, err, func(p string) string { return p })
	}
	ctx, cancel := context.WithTimeout(ctx, serveCheckTimeout)
	defer cancel()
	if err := llm.CheckServes(ctx, m); err != nil {
		return "model " + cfg.Model + ": " + err.Error(), nil
	}
	return "", nil
}

// HandOffAdvice is what mm check says to set on the server of cfg's model
// so that a hand-off does not cost the asking agent its prompt cache
// (llm.HandOffAdvice); "" for a configuration that asks no agent, or
// whose server needs nothing set.
func HandOffAdvice(ctx context.Context, cfg *mmconfigs.Config, getenv func(string) string) string {
	if cfg.Model == "" || len(cfg.Agents) == 0 {
		return ""
	}
	m, err := llm.New(cfg.Model, llm.Options{Providers: providers(cfg.Providers), ConfigDir: cfg.Dir, Getenv: getenv})
	if err != nil {
		return "" // CheckModel reports it
	}
	ctx, cancel := context.WithTimeout(ctx, serveCheckTimeout)
	defer cancel()
	return llm.HandOffAdvice(ctx, cfg.Model, m)
}
