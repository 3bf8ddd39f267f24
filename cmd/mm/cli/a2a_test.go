package cli

import (
	"testing"

	"github.com/mm-agent/mm/internal/frontend/a2a"
)

// A ServeStore is an a2a.Store and back: cmd/mm passes mm serve's store
// through as it is.
var (
	_ a2a.Store  = ServeStore(nil)
	_ ServeStore = a2a.Store(nil)
)

// TestServeDefaultsAreFrontendA2As: mm serve's --max-tasks and
// --max-connections defaults are the server's, which cli does not import.
func TestServeDefaultsAreFrontendA2As(t *testing.T) {
	if defaultMaxTasks != a2a.DefaultMaxTasks {
		t.Errorf("--max-tasks defaults to %d, internal/frontend/a2a to %d: make them equal", defaultMaxTasks, a2a.DefaultMaxTasks)
	}
	if defaultMaxConns != a2a.DefaultMaxConns {
		t.Errorf("--max-connections defaults to %d, internal/frontend/a2a to %d: make them equal", defaultMaxConns, a2a.DefaultMaxConns)
	}
}
