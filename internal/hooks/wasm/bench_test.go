package wasm

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The benchmarks report the median of their iterations ("median-ms") next
// to Go's mean (ns/op): a shared machine's outliers move the mean only.
//
//	go test -run '^$' -bench . -benchtime 20x ./internal/hooks/wasm

// timeEach runs f once per iteration and reports the median duration.
func timeEach(b *testing.B, f func()) {
	var ds []time.Duration
	for b.Loop() {
		start := time.Now()
		f()
		ds = append(ds, time.Since(start))
	}
	reportMedian(b, ds, "median-ms")
}

func reportMedian(b *testing.B, ds []time.Duration, unit string) {
	if len(ds) == 0 {
		return
	}
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)/2].Nanoseconds())/1e6, unit)
}

const guardCommand = "ls -la"

// BenchmarkGuardWarm: a later run of the bash guard (compiled already, in
// the same Runtime): what each tool call of a session pays.
func BenchmarkGuardWarm(b *testing.B) {
	mod, in, cwd := bashGuard(b), guardInput(guardCommand), b.TempDir()
	if _, err := sharedRT.Run(context.Background(), Spec{Module: mod, Stdin: in, Cwd: cwd}); err != nil {
		b.Fatal(err)
	}
	timeEach(b, func() {
		if _, err := sharedRT.Run(context.Background(), Spec{Module: mod, Stdin: in, Cwd: cwd}); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkGuardNode: the same guard as a Node.js command hook, run as mm
// runs a command hook (sh -c, input on stdin).
func BenchmarkGuardNode(b *testing.B) {
	if _, err := exec.LookPath("node"); err != nil {
		b.Skip("node is not installed")
	}
	script, err := filepath.Abs("testdata/guard.js")
	if err != nil {
		b.Fatal(err)
	}
	in := guardInput(guardCommand)
	timeEach(b, func() {
		cmd := exec.Command("sh", "-c", "node "+script)
		cmd.Stdin = bytes.NewReader(in)
		out, err := cmd.Output()
		if err != nil || string(out) != `{"action":"continue"}`+"\n" {
			b.Fatalf("%s, %v", out, err)
		}
	})
}

// BenchmarkRunTiny: a run of a module that does nothing: the fixed cost of
// a run (a fresh instance, the sandbox's folders) without a Go runtime to
// start inside the module.
func BenchmarkRunTiny(b *testing.B) {
	mod, cwd := tinyModule(b), b.TempDir()
	if err := os.Mkdir(filepath.Join(cwd, "logs"), 0o755); err != nil {
		b.Fatal(err)
	}
	spec := Spec{Module: mod, Cwd: cwd, Write: []string{"logs"}}
	if _, err := sharedRT.Run(context.Background(), spec); err != nil {
		b.Fatal(err)
	}
	timeEach(b, func() {
		if _, err := sharedRT.Run(context.Background(), spec); err != nil {
			b.Fatal(err)
		}
	})
}

// firstRun runs the guard in a new Runtime using cache, as a new mm process
// does on its first wasm hook.
func firstRun(b *testing.B, mod, cache string) {
	r := New(Options{CacheDir: cache})
	defer r.Close(context.Background())
	if _, err := r.Run(context.Background(), Spec{Module: mod, Stdin: guardInput(guardCommand), Cwd: os.TempDir()}); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkFirstRunColdCache: the first run ever of the guard: it is
// compiled, and stored.
func BenchmarkFirstRunColdCache(b *testing.B) {
	mod, parent := bashGuard(b), b.TempDir()
	n := 0
	timeEach(b, func() {
		n++
		firstRun(b, mod, filepath.Join(parent, strconv.Itoa(n)))
	})
}

// BenchmarkFirstRunWarmCache: the first run of the guard in a process after
// another compiled it: loaded from the cache.
func BenchmarkFirstRunWarmCache(b *testing.B) {
	mod, cache := bashGuard(b), b.TempDir()
	firstRun(b, mod, cache)
	timeEach(b, func() { firstRun(b, mod, cache) })
}

// BenchmarkProcessFirstRun: a new process (this test binary in helper
// mode) runs the guard once, with a warm cache. Reports the whole process's
// time, the run's own time in it, and the process's peak resident memory.
func BenchmarkProcessFirstRun(b *testing.B) {
	mod, cache := bashGuard(b), b.TempDir()
	firstRun(b, mod, cache)
	var whole, inside []time.Duration
	var peakKiB int64
	for b.Loop() {
		start := time.Now()
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), helperEnv+"="+mod+" "+cache)
		out, err := cmd.Output()
		whole = append(whole, time.Since(start))
		if err != nil {
			b.Fatalf("helper: %v\n%s", err, out)
		}
		var ns, kib int64
		var reply string
		if _, err := fmt.Sscanf(string(out), "%d %d %s", &ns, &kib, &reply); err != nil || !strings.Contains(reply, "continue") {
			b.Fatalf("helper printed %q (%v)", out, err)
		}
		inside = append(inside, time.Duration(ns))
		peakKiB = max(peakKiB, kib)
	}
	reportMedian(b, whole, "process-median-ms")
	reportMedian(b, inside, "run-median-ms")
	b.ReportMetric(float64(peakKiB)/1024, "peak-RSS-MB")
}

// The wasm tool of examples/wasm-tools, on a text, as a model would call it.
const toolInput = `{"text":"one two three"}`

func wordcount(b testing.TB) string { return built(b, "../../../examples/wasm-tools/wordcount") }

// BenchmarkToolWarm: a later call of a wasm tool (the example's wordcount,
// compiled already, in the same Runtime): what each call after the first
// costs in a session.
func BenchmarkToolWarm(b *testing.B) {
	mod, cwd := wordcount(b), b.TempDir()
	call := func() {
		out, err := sharedRT.RunTool(context.Background(), "wordcount", mod, cwd, nil, nil, []byte(toolInput), 30000)
		if err != nil || !strings.Contains(string(out), "3 words") {
			b.Fatalf("%q, %v", out, err)
		}
	}
	call()
	timeEach(b, call)
}

// BenchmarkToolProcessFirstRun: a new process (this test binary in helper
// mode) calls the wasm tool once, with a warm disk cache: the first call of
// a session. Reports the whole process's time and the call's own time in it
// (a fresh Runtime, the module loaded from the cache, the run).
func BenchmarkToolProcessFirstRun(b *testing.B) {
	mod, cache := wordcount(b), b.TempDir()
	warm := New(Options{CacheDir: cache})
	if _, err := warm.RunTool(context.Background(), "wordcount", mod, b.TempDir(), nil, nil, []byte(toolInput), 30000); err != nil {
		b.Fatal(err)
	}
	warm.Close(context.Background())
	var whole, inside []time.Duration
	for b.Loop() {
		start := time.Now()
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), helperEnv+"="+mod+" "+cache+" tool")
		out, err := cmd.Output()
		whole = append(whole, time.Since(start))
		if err != nil {
			b.Fatalf("helper: %v\n%s", err, out)
		}
		var ns, kib int64
		if _, err := fmt.Sscanf(string(out), "%d %d", &ns, &kib); err != nil || !strings.Contains(string(out), "3 words") {
			b.Fatalf("helper printed %q (%v)", out, err)
		}
		inside = append(inside, time.Duration(ns))
	}
	reportMedian(b, whole, "process-median-ms")
	reportMedian(b, inside, "call-median-ms")
}
