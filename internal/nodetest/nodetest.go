// Package nodetest prepares the Node.js peers of mm's tests (the official
// ACP client, MCP servers from npm): it installs a folder's locked npm
// dependencies once, so that `go test ./...` needs no step before it.
package nodetest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// Require makes sure node runs and that dir's package-lock.json is installed
// in dir/node_modules, running npm ci when it is not; the test is skipped,
// saying why, when npm's registry cannot be reached for it. Concurrent test
// binaries take a lock on the folder, so only one installs.
func Require(t testing.TB, dir string) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node is not installed: the tests need Node.js 20 or later")
	}
	lock, err := os.OpenFile(filepath.Join(dir, ".npm-install.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatalf("lock %s: %v", dir, err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatalf("lock %s: %v", dir, err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if installed(dir) {
		return
	}
	cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil && unreachable(out) {
		// The one case a test may not run: the peers cannot be had. Any
		// other failure of the install is the test's to report.
		t.Skipf("npm's registry cannot be reached, and %s has no node_modules yet: this test needs its npm peers installed once (npm ci in %s)\n%s", dir, dir, out)
	}
	if err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
	}
	if !installed(dir) {
		t.Fatalf("npm ci in %s left no node_modules/.package-lock.json", dir)
	}
}

// unreachable says npm's output is that of a registry it could not reach:
// no name resolution, no route, a connection refused or timed out.
func unreachable(out []byte) bool {
	for _, code := range []string{"ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENETUNREACH", "EHOSTUNREACH"} {
		if bytes.Contains(out, []byte(code)) {
			return true
		}
	}
	return false
}

// installed reports whether node_modules matches the lock file: npm writes
// node_modules/.package-lock.json on every install.
func installed(dir string) bool {
	lock, err := os.Stat(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return false
	}
	inst, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json"))
	return err == nil && !inst.ModTime().Before(lock.ModTime())
}
