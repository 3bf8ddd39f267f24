// Command mm is an agent CLI for local models whose centre is the ask
// hand-off: one agent asks another named agent a question, through hook
// chains the user controls.
//
// This package holds the cobra commands and flags only; behaviour lives in
// orchestrator and the front ends.
package main

import (
	"os"
	"syscall"

	"github.com/mm-agent/mm/internal/proc"
)

func main() {
	// Nothing mm starts outlives it: it adopts what its children leave
	// behind, and kills and reaps it all before exiting.
	proc.Supervise()
	ctx, end := watchEndings(syscall.SIGTERM, syscall.SIGHUP)
	code := end.status(run(ctx, end, os.Args[1:]))
	proc.Shutdown()
	os.Exit(code)
}
