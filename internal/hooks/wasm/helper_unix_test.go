//go:build unix

package wasm

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// helperEnv puts the test binary in helper mode: it runs one module in a
// fresh Runtime, as a new mm process would, and prints the time the run
// took, the process's peak resident memory (KiB) and the module's stdout.
// BenchmarkProcessFirstRun uses it.
const helperEnv = "MM_WASM_TEST_HELPER"

// A spec of "<module> <cache> tool" runs the module as a wasm tool
// (BenchmarkToolProcessFirstRun) on toolInput; else as the bash guard.
func helper(spec string) int {
	f := strings.Fields(spec)
	if len(f) < 2 {
		fmt.Fprintln(os.Stderr, "helper: want <module> <cache> [tool], not", spec)
		return 2
	}
	module, cache := f[0], f[1]
	start := time.Now()
	r := New(Options{CacheDir: cache})
	var out []byte
	var err error
	if len(f) > 2 && f[2] == "tool" {
		out, err = r.RunTool(context.Background(), "wordcount", module, os.TempDir(), nil, nil, []byte(toolInput), 30000)
	} else {
		out, err = r.Run(context.Background(), Spec{Module: module, Stdin: guardInput("ls -la"), Cwd: os.TempDir()})
	}
	elapsed := time.Since(start)
	r.Close(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 1
	}
	fmt.Printf("%d %d %s", elapsed.Nanoseconds(), peakRSS(), out)
	return 0
}

// peakRSS is the process's peak resident memory in KiB. On Linux it is
// read from /proc (VmHWM): getrusage's figure, after a fork and exec, may
// be the parent's.
func peakRSS() int64 {
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				kib, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
				return kib
			}
		}
	}
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Maxrss
}
