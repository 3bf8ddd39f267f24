// Package cli is mm's command line: the cobra commands and flags of mm.
// Behaviour lives in orchestrator and the front ends.
package cli

import (
	"os"
	"syscall"

	"github.com/mm-agent/mm/internal/proc"
)

// Main runs mm with the process's arguments, and exits with its status.
func Main() {
	// Nothing mm starts outlives it: it adopts what its children leave
	// behind, and kills and reaps it all before exiting.
	proc.Supervise()
	ctx, end := watchEndings(syscall.SIGTERM, syscall.SIGHUP)
	code := end.status(runWith(ctx, end, systemStreams(), os.Args[1:]))
	proc.Shutdown()
	os.Exit(code)
}
