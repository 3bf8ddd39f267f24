package wasm

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The modules the tests run, built once per test binary from Go sources
// with GOOS=wasip1 GOARCH=wasm, and the Runtime most tests share: compiling
// a Go module takes seconds, so the tests share its compiled code (and a
// cache folder) rather than each compiling it again.
var (
	buildDir string
	sharedRT *Runtime
	cacheDir string // sharedRT's cache

	builds sync.Map // package → *buildResult
)

type buildResult struct {
	once sync.Once
	path string
	err  error
}

func TestMain(m *testing.M) {
	if spec := os.Getenv(helperEnv); spec != "" {
		os.Exit(helper(spec)) // a child of BenchmarkProcessFirstRun
	}
	var err error
	if buildDir, err = os.MkdirTemp("", "mm-wasm-test-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cacheDir = filepath.Join(buildDir, "cache")
	sharedRT = New(Options{CacheDir: cacheDir})
	code := m.Run()
	sharedRT.Close(context.Background())
	os.RemoveAll(buildDir)
	os.Exit(code)
}

// built returns the path of the module built from the Go package pkg
// (relative to this folder), building it on first use.
func built(t testing.TB, pkg string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a wasm module with the go command: not in the -short lane")
	}
	v, _ := builds.LoadOrStore(pkg, &buildResult{})
	b := v.(*buildResult)
	b.once.Do(func() {
		b.path = filepath.Join(buildDir, filepath.Base(pkg)+".wasm")
		cmd := exec.Command("go", "build", "-o", b.path, "./"+pkg)
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("GOOS=wasip1 GOARCH=wasm go build ./%s: %v\n%s", pkg, err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

func guest(t testing.TB) string     { return built(t, "testdata/guest") }
func bashGuard(t testing.TB) string { return built(t, "../../../examples/hooks-wasm/bash_guard") }
func audit(t testing.TB) string     { return built(t, "../../../examples/hooks-wasm/audit") }

// run runs a module on the shared Runtime with a generous bound: a test
// must end even when what it tests does not.
func run(t testing.TB, s Spec) ([]byte, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return sharedRT.Run(ctx, s)
}

// writeFiles creates files (name → content) under dir; a content starting
// with "->" makes a symbolic link to the rest.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if target, ok := strings.CutPrefix(content, "->"); ok {
			err = os.Symlink(target, p)
		} else if content == "/" {
			err = os.Mkdir(p, 0o755)
		} else {
			err = os.WriteFile(p, []byte(content), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// guardInput is a preToolCall input for a bash call of command.
func guardInput(command string) []byte {
	b, _ := json.Marshal(map[string]any{
		"event": "preToolCall",
		"cwd":   "/home/me/project",
		"model": "script/script.yaml",
		"tool":  map[string]any{"id": "call_1", "name": "bash", "input": map[string]string{"command": command}},
	})
	return b
}
