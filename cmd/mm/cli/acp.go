package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/mm-agent/mm/internal/acpconn"
	"github.com/mm-agent/mm/internal/frontend/acp"
	"github.com/mm-agent/mm/internal/hooks/wasm"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// runACP serves the Agent Client Protocol on stdin and stdout: for editors,
// and for a parent mm that asked this agent. With --config or $MM_CONFIG
// every session has that configuration; without, each session has the
// agent.yaml of its own cwd (session/new's), as an editor started from any
// folder expects.
func runACP(ctx context.Context, s *streams, f flags, cwd string) int {
	fixed := f.config != "" || s.Getenv("MM_CONFIG") != ""
	acpconn.WarmAgent()
	dir, err := f.chain.sessionDir(cwd)
	if err != nil {
		fmt.Fprintf(s.ErrOut, "mm -acp: %v\n", err)
		return 1
	}
	opts := acp.Options{
		Session: sessionOptions(&f, s, nil, ""),
		Version: version(),
		Store:   newACPStore(s.Getenv, !f.noSave && s.Getenv("MM_NO_SAVE") != "1"),
		Cwd:     dir,
	}
	if fixed {
		cfg, ok := loadConfig(&f, s, cwd)
		if !ok {
			return 1
		}
		opts.Session.Config = cfg
		withWasm(&opts.Session, wasmRuntime(cfg))
	} else {
		opts.Configure = (&sessionConfigs{getenv: s.Getenv, wasm: map[string]*wasm.Runtime{},
			system: func(c *mmconfigs.Config) error { return f.habits.applySystem(c, cwd) }}).configure
	}
	err = acp.Serve(ctx, s.In, s.Out, s.ErrOut, opts)
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(s.ErrOut, "mm -acp: %v\n", err)
		return 1
	}
	return 0
}

// sessionConfigs loads each ACP session's configuration from its cwd.
type sessionConfigs struct {
	// getenv supplies $MM_MODEL, the default model.
	getenv func(string) string
	// system gives a configuration the system prompt of the command
	// line's flags (--system-prompt, …).
	system func(*mmconfigs.Config) error

	mu sync.Mutex
	// wasm is the wasm runtime of each configuration file with wasm hooks
	// or tools, by absolute path: sessions in one folder share one, as the
	// sessions of mm -acp --config do.
	wasm map[string]*wasm.Runtime
}

// configure sets o.Config to the agent.yaml in o.Cwd, else the person's
// own, or to the defaults when there is none.
func (sc *sessionConfigs) configure(o *orchestrator.Options) error {
	path := mmconfigs.Find("", "", o.Cwd, sc.getenv)
	if path == "" {
		o.Config = mmconfigs.Default(o.Cwd, sc.getenv)
		return sc.system(o.Config)
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(o.Cwd, path)
	}
	// A config error (*mmconfigs.Error) fails session/new as
	// "[config error: <path>:<line>: <message>]", the line mm prints.
	cfg, err := mmconfigs.Load(path, o.Cwd, sc.getenv)
	if err != nil {
		return err
	}
	if err := compileSchemas(cfg); err != nil {
		return err
	}
	if err := sc.system(cfg); err != nil {
		return err
	}
	o.Config = cfg
	sc.mu.Lock()
	defer sc.mu.Unlock()
	w, seen := sc.wasm[cfg.Abs]
	if !seen {
		w = wasmRuntime(cfg)
		sc.wasm[cfg.Abs] = w
	}
	withWasm(o, w)
	return nil
}
