package main

import (
	"context"
	"fmt"
	"os"

	"github.com/mm-agent/mm/frontend/acp"
	"github.com/mm-agent/mm/orchestrator"
)

// runACP serves the Agent Client Protocol on stdin and stdout: for editors,
// and for a parent mm that asked this agent.
func runACP(ctx context.Context, f flags, cwd string) int {
	cfg, ok := loadConfig(&f, cwd)
	if !ok {
		return 1
	}
	err := acp.Serve(ctx, os.Stdin, os.Stdout, os.Stderr, acp.Options{
		Session: orchestrator.Options{
			Config: cfg, Cwd: cwd, Environ: os.Environ(), Model: f.model, Yolo: f.yolo,
			Wasm: wasmRunner(cfg),
		},
		Version: version(),
	})
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(os.Stderr, "mm -acp: %v\n", err)
		return 1
	}
	return 0
}
