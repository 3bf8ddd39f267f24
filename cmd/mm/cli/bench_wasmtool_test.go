package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The wordcount example built once for the benchmarks below.
var (
	wordcountOnce sync.Once
	wordcountWasm string
	wordcountErr  error
)

func wordcountModule(b *testing.B) string {
	wordcountOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mm-bench-wasm-")
		if err != nil {
			wordcountErr = err
			return
		}
		wordcountWasm = filepath.Join(dir, "wordcount.wasm")
		cmd := exec.Command("go", "build", "-o", wordcountWasm, "./wordcount")
		cmd.Dir = filepath.Join(repoRoot(), "examples", "wasm-tools")
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
		if out, err := cmd.CombinedOutput(); err != nil {
			wordcountErr = err
			wordcountWasm = string(out)
		}
	})
	if wordcountErr != nil {
		b.Fatalf("build wordcount.wasm: %v\n%s", wordcountErr, wordcountWasm)
	}
	return wordcountWasm
}

// wasmToolBench runs mm -p on a scripted model that calls the example's
// wasm tool once (call) or not at all, in a folder whose mm cache already
// holds the compiled module (a warm disk cache), and reports the median.
// The difference between the two is what a first call costs a new mm
// process: the wazero runtime, the module loaded from the cache, the run.
func wasmToolBench(b *testing.B, call bool) {
	mod, dir := wordcountModule(b), b.TempDir()
	script := "rules:\n  - afterTool: wordcount\n    say: \"{{output}}\"\n  - calls:\n      - name: wordcount\n        args: {text: one two three}\n"
	tools := "tools:\n  - name: wordcount\n    description: counts words\n    wasm: " + mod + "\n"
	if !call {
		script = "rules:\n  - say: \"the text: 1 lines, 3 words, 13 characters\"\n"
		tools = "tools: []\n"
	}
	files := map[string]string{"script.yaml": script, "agent.yaml": "model: script/script.yaml\nyolo: true\n" + tools}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	run := func() {
		cmd := benchCmd(b, dir, mmBin, "-p", "count")
		cmd.Env = append(cmd.Env, "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
		out, err := cmd.Output()
		if err != nil || !strings.Contains(string(out), "3 words") {
			b.Fatalf("mm -p: %v\n%s", err, out)
		}
	}
	run() // compiles the module into the cache
	var times []time.Duration
	for b.Loop() {
		t0 := time.Now()
		run()
		times = append(times, time.Since(t0))
	}
	b.ReportMetric(medianMs(times), "median-ms")
}

// BenchmarkPrintWasmTool is one mm -p turn whose model calls a wasm tool
// once: the tool's first call in a new process, with a warm disk cache.
func BenchmarkPrintWasmTool(b *testing.B) { wasmToolBench(b, true) }

// BenchmarkPrintNoWasmTool is the same turn with the same answer and no
// wasm tool configured: the floor BenchmarkPrintWasmTool is read against.
func BenchmarkPrintNoWasmTool(b *testing.B) { wasmToolBench(b, false) }
