package cli

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/agentproc"
)

// BenchmarkHandOffPhases splits the child's part of a hand-off into its
// phases, on the real mm as the asked agent (echo model): start and the
// ACP handshake (process start, initialize, session/new), one prompt and
// its answer, and stopping and reaping the child. Each is reported as a
// median in ms (start-ms, prompt-ms, stop-ms).
func BenchmarkHandOffPhases(b *testing.B) {
	dir := b.TempDir()
	cfg := filepath.Join(dir, "e.yaml")
	if err := os.WriteFile(cfg, []byte("model: echo/e\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), "MM_CONFIG="+cfg, "MM_ASKED_DEPTH=1", "MM_ASK_CHAIN=e", "MM_BIN="+mmBin)
	opts := agentproc.Options{Name: "e", Bin: mmBin, Config: cfg, Cwd: dir, Environ: env}
	ctx := context.Background()
	var start, prompt, stop []time.Duration
	for b.Loop() {
		t0 := time.Now()
		a, err := agentproc.Start(ctx, opts)
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if err := a.Prompt(ctx, "hi", nopHandler{}); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		a.Close()
		t3 := time.Now()
		start, prompt, stop = append(start, t1.Sub(t0)), append(prompt, t2.Sub(t1)), append(stop, t3.Sub(t2))
	}
	for name, d := range map[string][]time.Duration{"start-ms": start, "prompt-ms": prompt, "stop-ms": stop} {
		slices.Sort(d)
		b.ReportMetric(float64(d[len(d)/2])/float64(time.Millisecond), name)
	}
}

// nopHandler shows nothing and refuses every permission; no prompt of
// the benchmark starts a child (Start did).
type nopHandler struct{}

func (nopHandler) Options(context.Context) agentproc.Options { return agentproc.Options{} }
func (nopHandler) Warn(string)                               {}
func (nopHandler) Answered(string)                           {}
func (nopHandler) Text(string, string)                       {}
func (nopHandler) ToolCall(agentproc.ToolUpdate)             {}
func (nopHandler) Permission(context.Context, agentproc.PermissionRequest) agentproc.PermissionAnswer {
	return agentproc.Refused
}
