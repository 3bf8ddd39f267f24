package hooks

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"testing"
)

// BenchmarkCommandHook is one preGeneration run of `cat >/dev/null` through
// the engine: input encoding, the process group, the pipes, the timeout, the
// reply. Compare with BenchmarkBareSpawn, the same process started bare: the
// difference is the engine's overhead.
func BenchmarkCommandHook(b *testing.B) {
	eng := NewEngine(configOf(PreGeneration, hook("cat >/dev/null")), Options{
		Cwd:     b.TempDir(),
		Model:   "echo/bench",
		Environ: os.Environ(),
	})
	ctx := context.Background()
	for b.Loop() {
		var failure string
		eng.PreGeneration(ctx, "list the files", func(r Run) { failure = r.Failure })
		if failure != "" {
			b.Fatal(failure)
		}
	}
}

// BenchmarkBareSpawn starts the same command with the same input as
// BenchmarkCommandHook, and nothing else.
func BenchmarkBareSpawn(b *testing.B) {
	input := []byte(`{"event":"preGeneration","cwd":"/tmp","model":"echo/bench","prompt":"list the files"}` + "\n")
	for b.Loop() {
		cmd := exec.Command("sh", "-c", "cat >/dev/null")
		cmd.Stdin = bytes.NewReader(input)
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkChainOnly is the engine's own work for one run, without a
// process: a wasm entry whose runner answers at once.
func BenchmarkChainOnly(b *testing.B) {
	e := wasmHook(0)
	eng := NewEngine(configOf(PreGeneration, e), Options{Cwd: "/tmp", Model: "echo/bench", Wasm: &fakeWasm{out: []byte(`{"context":"c"}`)}})
	ctx := context.Background()
	for b.Loop() {
		if r := eng.PreGeneration(ctx, "list the files", nil); len(r.Contexts) != 1 {
			b.Fatal(r)
		}
	}
}
