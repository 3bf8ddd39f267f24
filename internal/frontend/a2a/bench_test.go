package a2a

import (
	"context"
	"net"
	"testing"

	"golang.org/x/sync/errgroup"

	"github.com/mm-agent/mm/internal/a2aagent"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// serveEcho serves real orchestrator sessions of the echo model.
func serveEcho(b *testing.B, maxTasks int) string {
	b.Helper()
	dir := b.TempDir()
	cfg := mmconfigs.Default(dir, func(string) string { return "" })
	cfg.Model = "echo/served"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, ln, Options{Name: "echo", MaxTasks: maxTasks, MaxSessions: 2 * maxTasks,
			Session: orchestrator.Options{Config: cfg, Cwd: dir}})
	}()
	b.Cleanup(func() { cancel(); <-done })
	return "http://" + ln.Addr().String() + "/"
}

// BenchmarkConcurrentTasks runs 50 tasks at once against mm serve with the
// echo model, each from a client (an A2A context) of its own: the figure
// is the time of one round of 50.
func BenchmarkConcurrentTasks(b *testing.B) {
	const tasks = 50
	url := serveEcho(b, tasks)
	clients := make([]*a2aagent.Agent, tasks)
	for i := range clients {
		clients[i], _ = a2aagent.New(a2aagent.Options{Name: "echo", URL: url})
		defer clients[i].Close()
	}
	for b.Loop() {
		var g errgroup.Group
		for _, c := range clients {
			g.Go(func() error { return c.Prompt(context.Background(), "hello", func(string) {}) })
		}
		if err := g.Wait(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHandOff is one question to mm serve with the echo model and its
// answer, over loopback: what an A2A hand-off adds to the asked agent's
// own time (the echo model's is next to nothing).
func BenchmarkHandOff(b *testing.B) {
	url := serveEcho(b, 1)
	c, _ := a2aagent.New(a2aagent.Options{Name: "echo", URL: url})
	defer c.Close()
	for b.Loop() {
		if err := c.Prompt(context.Background(), "hello", func(string) {}); err != nil {
			b.Fatal(err)
		}
	}
}
