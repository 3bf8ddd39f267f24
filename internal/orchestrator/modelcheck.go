package orchestrator

import (
	"context"
	"time"

	"github.com/mm-agent/mm/internal/llm/models"
	"github.com/mm-agent/mm/internal/llm/openai"
	"github.com/mm-agent/mm/internal/mmconfigs"
)

// serveCheckTimeout bounds how long mm check waits for a model server's
// list of models: a local server answers in milliseconds, one that is
// loading a model still answers this.
const serveCheckTimeout = 3 * time.Second

// CheckModel is what mm check says of the model a session of o runs
// (Options.Running: --model's, else the file's): err is the error the
// session would start with (an unknown provider, a script that does not
// load), a configuration error; warning, when the model is sound, says its
// server does not answer or does not have it, and how to start or fetch
// it. A configuration without a model (in the file, $MM_MODEL or --model)
// is the error a session of it starts with.
func CheckModel(ctx context.Context, o Options, getenv func(string) string) (warning string, err error) {
	cfg, ref := o.Config, o.Running().Model
	if ref == "" {
		return "", noModelError(cfg)
	}
	m, err := models.New(ref, models.Options{Providers: providers(cfg.Providers), ConfigDir: cfg.Dir, Getenv: getenv})
	if err != nil {
		return "", cfg.ModelError(ref, err, func(p string) string { return p })
	}
	ctx, cancel := context.WithTimeout(ctx, serveCheckTimeout)
	defer cancel()
	if err := openai.CheckServes(ctx, m); err != nil {
		return "model " + ref + ": " + err.Error(), nil
	}
	return "", nil
}

// HandOffAdvice is what mm check says to set on the server of the model a
// session of o runs so that a hand-off does not cost the asking agent its
// prompt cache (openai.HandOffAdvice); "" for a configuration that asks no
// agent, or whose server needs nothing set.
func HandOffAdvice(ctx context.Context, o Options, getenv func(string) string) string {
	cfg, ref := o.Config, o.Running().Model
	if ref == "" || len(cfg.Agents) == 0 {
		return ""
	}
	m, err := models.New(ref, models.Options{Providers: providers(cfg.Providers), ConfigDir: cfg.Dir, Getenv: getenv})
	if err != nil {
		return "" // CheckModel reports it
	}
	ctx, cancel := context.WithTimeout(ctx, serveCheckTimeout)
	defer cancel()
	return openai.HandOffAdvice(ctx, ref, m)
}

// noModelError is the error of a session of cfg run with no model: on a
// first start (no file), where to begin.
func noModelError(cfg *mmconfigs.Config) *ConfigError {
	if cfg.Path == "" {
		return &ConfigError{Path: "(no configuration file)", Msg: "model: none given — mm init writes an agent.yaml for the model server it finds; or try mm without a server: mm --model echo/any"}
	}
	return &ConfigError{Path: cfg.Path, Msg: "model: none given — set model: <provider>/<model> in the file, $MM_MODEL or --model"}
}
