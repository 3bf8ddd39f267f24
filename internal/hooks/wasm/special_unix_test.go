//go:build unix

package wasm

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestSpecialFiles: a named pipe (or a device) in a module's folders is
// refused at once, read or written, so that a hook which opens one still
// ends — at the latest at its timeout. An open of a named pipe on the host
// would otherwise wait for a writer, and no timeout can stop a module
// inside a host call.
func TestSpecialFiles(t *testing.T) {
	cwd := t.TempDir()
	writeFiles(t, cwd, map[string]string{
		"ro/data.txt":  "data",
		"ro/pipe-link": "->pipe",
		"rw":           "/",
	})
	for _, p := range []string{"ro/pipe", "rw/pipe"} {
		if err := syscall.Mkfifo(filepath.Join(cwd, p), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"open", "read:ro/data.txt", "read:ro/pipe", "read:ro/pipe-link", "read:rw/pipe", "write:rw/pipe"}
	want := map[string]string{
		"read:ro/data.txt":  "ok data",
		"read:ro/pipe":      "refused: open ro/pipe: Permission denied",
		"read:ro/pipe-link": "refused: open ro/pipe-link: Permission denied",
		"read:rw/pipe":      "refused: open rw/pipe: Permission denied",
		"write:rw/pipe":     "refused: open rw/pipe: Permission denied",
	}
	// A device too, where this user may make one.
	if syscall.Mknod(filepath.Join(cwd, "ro/null"), syscall.S_IFCHR|0o666, 1<<8|3) == nil {
		args = append(args, "read:ro/null")
		want["read:ro/null"] = "refused: open ro/null: Permission denied"
	}

	// A Runtime of its own: one stuck in a host call could not be closed.
	rt := New(Options{CacheDir: cacheDir})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // the hook's timeout
	defer cancel()
	type result struct {
		out []byte
		err error
	}
	module := guest(t) // here, not in the goroutine: it may skip or fail the test
	done := make(chan result, 1)
	go func() {
		out, err := rt.Run(ctx, Spec{Module: module, Args: args, Cwd: cwd, Read: []string{"ro"}, Write: []string{"rw"}})
		done <- result{out, err}
	}()
	var res result
	select {
	case res = <-done:
		rt.Close(context.Background())
	case <-time.After(time.Minute):
		t.Fatal("the module did not end at its timeout: a host open is waiting for a writer")
	}
	if res.err != nil {
		t.Fatalf("run: %v", res.err)
	}
	var got map[string]string
	if err := json.Unmarshal(res.out, &got); err != nil {
		t.Fatalf("output %q: %v", res.out, err)
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s:\n got %q\nwant %q", k, got[k], w)
		}
	}
	if _, err := os.Stat(filepath.Join(cwd, "rw/pipe")); err != nil {
		t.Errorf("rw/pipe: %v", err)
	}
}
