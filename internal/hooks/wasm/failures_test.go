package wasm

import (
	"context"
	"errors"
	"github.com/mm-agent/mm/internal/hooks"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// wasmBinary assembles a module from its sections (each id, then content);
// the contents here are all shorter than 128 bytes.
func wasmBinary(sections ...[]byte) []byte {
	b := []byte{0, 'a', 's', 'm', 1, 0, 0, 0}
	for _, s := range sections {
		b = append(b, s[0], byte(len(s)-1))
		b = append(b, s[1:]...)
	}
	return b
}

// Sections of the hand-made modules below.
var (
	typeVoid     = []byte{1, 1, 0x60, 0, 0}                               // type 0: () → ()
	oneFunc      = []byte{3, 1, 0}                                        // one function of type 0
	exportStart  = []byte{7, 1, 6, '_', 's', 't', 'a', 'r', 't', 0, 0}    // _start = function 0
	exportMain   = []byte{7, 1, 4, 'm', 'a', 'i', 'n', 0, 0}              // main = function 0
	emptyBody    = []byte{10, 1, 2, 0, 0x0b}                              // function 0: nothing
	trapBody     = []byte{10, 1, 3, 0, 0x00, 0x0b}                        // function 0: unreachable
	importFoo    = []byte{2, 1, 3, 'e', 'n', 'v', 3, 'f', 'o', 'o', 0, 0} // env.foo, type 0
	exportStart1 = []byte{7, 1, 6, '_', 's', 't', 'a', 'r', 't', 0, 1}    // _start = function 1
	memory4GiB   = []byte{5, 1, 1, 1, 0x80, 0x80, 0x04}                   // memory: 1 page, at most 65536
	memoryHuge   = []byte{5, 1, 0, 0x81, 0x20}                            // memory: 4097 pages at start
)

// writeModule writes a hand-made module and returns its path.
func writeModule(t testing.TB, name string, bin []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, bin, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLoadFailures: a module that cannot be run as a command is named with
// the reason, in the reference's words.
func TestLoadFailures(t *testing.T) {
	tests := []struct {
		name string
		bin  []byte // nil: no file
		want string
	}{
		{"missing.wasm", nil, "missing.wasm cannot be loaded: no such file or directory"},
		{"text.wasm", []byte("#!/bin/sh\necho hi\n"), "text.wasm cannot be loaded: invalid magic number"},
		{"empty.wasm", []byte{}, "empty.wasm cannot be loaded: invalid magic number"},
		{"lib.wasm", wasmBinary(typeVoid, oneFunc, exportMain, emptyBody),
			"lib.wasm cannot be loaded: it has no _start function: build it as a WASI preview 1 command (GOOS=wasip1 GOARCH=wasm go build)"},
		{"browser.wasm", wasmBinary(typeVoid, importFoo, oneFunc, exportStart1, emptyBody),
			"browser.wasm cannot be loaded: it imports env.foo, which mm does not provide (only wasi_snapshot_preview1)"},
		{"huge.wasm", wasmBinary(typeVoid, oneFunc, memoryHuge, exportStart, emptyBody),
			"huge.wasm cannot be loaded: it needs 257 MiB of memory at start, more than the 256 MiB a module may have"},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		p := filepath.Join(dir, tt.name)
		if tt.bin != nil {
			if err := os.WriteFile(p, tt.bin, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_, err := run(t, Spec{Module: p, Cwd: dir})
		var le *LoadError
		if !errors.As(err, &le) || err.Error() != tt.want {
			t.Errorf("%s:\n got %v\nwant %s", tt.name, err, tt.want)
		}
	}
}

// TestRunFailures: how a run that started ends badly.
func TestRunFailures(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name   string
		spec   Spec
		want   string
		prefix bool // want is the start of the text
	}{
		{"non-zero exit", Spec{Module: guest(t), Args: []string{"exit"}},
			"exit code 3:   " + strings.Repeat("é", 149), false},
		{"4 GiB of memory allowed, 256 MiB given", Spec{Module: writeModule(t, "max.wasm", wasmBinary(typeVoid, oneFunc, memory4GiB, exportStart, trapBody))},
			"crashed: wasm error: unreachable", false},
		{"trap", Spec{Module: writeModule(t, "trap.wasm", wasmBinary(typeVoid, oneFunc, exportStart, trapBody))},
			"crashed: wasm error: unreachable", false},
		{"stdout without end", Spec{Module: guest(t), Args: []string{"flood"}},
			"stdout larger than 1048576 bytes", false},
		{"1 GiB of memory", Spec{Module: guest(t), Args: []string{"alloc"}},
			"exit code 2: runtime: out of memory: cannot allocate 1073741824-byte block", true},
	}
	for _, tt := range tests {
		tt.spec.Cwd = dir
		_, err := run(t, tt.spec)
		if err == nil {
			t.Errorf("%s: no failure", tt.name)
			continue
		}
		if got := err.Error(); got != tt.want && !(tt.prefix && strings.HasPrefix(got, tt.want)) {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
	if _, err := run(t, Spec{Module: guest(t), Args: []string{"flood"}, Cwd: dir}); err != hooks.ErrStdoutTooLarge {
		t.Errorf("flood: got %v, want hooks.ErrStdoutTooLarge", err)
	}
}

// TestStdoutLimit: exactly hooks.MaxStdout bytes is a reply.
func TestStdoutLimit(t *testing.T) {
	out, err := run(t, Spec{Module: guest(t), Args: []string{"big"}, Cwd: t.TempDir()})
	if err != nil || len(out) != hooks.MaxStdout {
		t.Errorf("got %d bytes, %v; want %d bytes", len(out), err, hooks.MaxStdout)
	}
}

// TestAfterMemoryFailure: a module that runs out of memory fails alone;
// the next runs, of it or another module, work.
func TestAfterMemoryFailure(t *testing.T) {
	dir := t.TempDir()
	if _, err := run(t, Spec{Module: guest(t), Args: []string{"alloc"}, Cwd: dir}); err == nil {
		t.Fatal("alloc: no failure")
	}
	out, err := run(t, Spec{Module: bashGuard(t), Stdin: guardInput("ls"), Cwd: dir})
	if err != nil || string(out) != `{"action":"continue"}`+"\n" {
		t.Errorf("bash_guard after alloc: %q, %v", out, err)
	}
	out, err = run(t, Spec{Module: guest(t), Args: []string{"echo"}, Stdin: []byte("again"), Cwd: dir})
	if err != nil || string(out) != "again" {
		t.Errorf("guest after alloc: %q, %v", out, err)
	}
}

// TestStopped: a module that computes forever and one that sleeps for an
// hour are both stopped when the run's context ends, and Run returns the
// context's error.
func TestStopped(t *testing.T) {
	tests := []struct {
		mode   string
		cancel bool // cancel rather than time out
		want   error
	}{
		{"spin", false, context.DeadlineExceeded},
		{"sleep", false, context.DeadlineExceeded},
		{"spin", true, context.Canceled},
		{"sleep", true, context.Canceled},
	}
	mod := guest(t)
	for _, tt := range tests {
		ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
		if tt.cancel {
			ctx, cancel = context.WithCancel(t.Context())
			time.AfterFunc(300*time.Millisecond, cancel)
		}
		done := make(chan error, 1)
		go func() {
			_, err := sharedRT.Run(ctx, Spec{Module: mod, Args: []string{tt.mode}, Cwd: t.TempDir()})
			done <- err
		}()
		select {
		case err := <-done:
			if err != tt.want {
				t.Errorf("%s (cancel %v): got %v, want %v", tt.mode, tt.cancel, err, tt.want)
			}
		case <-time.After(time.Minute):
			t.Fatalf("%s (cancel %v): still running a minute after its context ended", tt.mode, tt.cancel)
		}
		cancel()
	}
}

// TestConcurrentRuns: runs of one module at once each get their own
// instance.
func TestConcurrentRuns(t *testing.T) {
	mod := guest(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Go(func() {
			in := strings.Repeat(string(rune('a'+i)), 1000+i)
			out, err := run(t, Spec{Module: mod, Args: []string{"echo"}, Stdin: []byte(in), Cwd: t.TempDir()})
			if err == nil && string(out) != in {
				err = errors.New("run " + string(rune('a'+i)) + " read another run's output")
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// TestFirstRunsCompileOnce: runs of a module not yet compiled wait for one
// compilation; a module file that changes is compiled again.
func TestFirstRunsCompileOnce(t *testing.T) {
	r := New(Options{CacheDir: filepath.Join(t.TempDir(), "cache")})
	defer r.Close(context.Background())
	dir := t.TempDir()
	p := filepath.Join(dir, "m.wasm")
	if err := os.WriteFile(p, wasmBinary(typeVoid, oneFunc, exportStart, emptyBody), 0o644); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if _, err := r.Run(t.Context(), Spec{Module: p, Cwd: dir}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := r.compiles.Load(); n != 1 {
		t.Errorf("4 first runs compiled %d times, want 1", n)
	}

	// Rebuilt: another size, so another module.
	if err := os.WriteFile(p, wasmBinary(typeVoid, oneFunc, exportStart, trapBody), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Run(t.Context(), Spec{Module: p, Cwd: dir}); err == nil || err.Error() != "crashed: wasm error: unreachable" {
		t.Errorf("rebuilt module: got %v, want its trap", err)
	}
	if n := r.compiles.Load(); n != 2 {
		t.Errorf("compiled %d times, want 2", n)
	}
}

// TestClosed: a closed Runtime runs nothing.
func TestClosed(t *testing.T) {
	r := New(Options{CacheDir: filepath.Join(t.TempDir(), "cache")})
	if err := r.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Run(t.Context(), Spec{Module: guest(t), Cwd: t.TempDir()}); err != errClosed {
		t.Errorf("got %v, want %v", err, errClosed)
	}
}

// TestPreload: a preloaded module is compiled once, before its first run.
func TestPreload(t *testing.T) {
	r := New(Options{CacheDir: filepath.Join(t.TempDir(), "cache")})
	defer r.Close(context.Background())
	mod := tinyModule(t)
	r.Preload(mod, filepath.Join(t.TempDir(), "missing.wasm"))
	r.Preload(mod)
	if _, err := r.Run(t.Context(), Spec{Module: mod, Cwd: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	if n := r.compiles.Load(); n != 1 {
		t.Errorf("compiled %d times, want 1", n)
	}
}

// TestCompileNotCounted: a module's compilation, on its first run, is not
// part of the time the run is given; the run itself still is bounded.
func TestCompileNotCounted(t *testing.T) {
	r := New(Options{CacheDir: filepath.Join(t.TempDir(), "cache")})
	defer r.Close(context.Background())
	mod, cwd := guest(t), t.TempDir()
	runWithin := func(mode string, timeout time.Duration) error {
		ctx, cancel := context.WithTimeout(t.Context(), timeout)
		defer cancel()
		_, err := r.Run(ctx, Spec{Module: mod, Args: []string{mode}, Cwd: cwd})
		return err
	}
	// Both wait for one compilation, which takes seconds; a run of echo,
	// milliseconds.
	echo := make(chan error, 1)
	go func() { echo <- runWithin("echo", 500*time.Millisecond) }()
	if err := runWithin("spin", 300*time.Millisecond); err != context.DeadlineExceeded {
		t.Errorf("spin: got %v, want %v", err, context.DeadlineExceeded)
	}
	if err := <-echo; err != nil {
		t.Errorf("echo: got %v, want no failure", err)
	}
}
