package sessions_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mm-agent/mm/internal/sessions"
)

// TestLastUsed: the session marked last in a folder is that folder's,
// while its file is there; another folder, a missing file, a named pipe
// in the marker's place or a marker of another folder give none.
func TestLastUsed(t *testing.T) {
	dir := t.TempDir()
	const a, b = "1m7zzx0mj2hk", "1m7zzx0mj3ab"
	for _, id := range []string{a, b} {
		if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), []byte("{}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := sessions.LastUsed(dir, "/work/p"); ok {
		t.Error("a folder nothing was marked in has a last session")
	}
	for _, id := range []string{a, b, a} {
		if err := sessions.MarkUsed(dir, "/work/p", id); err != nil {
			t.Fatal(err)
		}
	}
	if err := sessions.MarkUsed(dir, "/work/q", b); err != nil {
		t.Fatal(err)
	}
	if got, ok := sessions.LastUsed(dir, "/work/p"); !ok || got != a {
		t.Errorf("LastUsed(/work/p) = %q, %v; want %s, the one marked last", got, ok, a)
	}
	if got, ok := sessions.LastUsed(dir, "/work/q"); !ok || got != b {
		t.Errorf("LastUsed(/work/q) = %q, %v; want %s", got, ok, b)
	}
	if err := os.Remove(filepath.Join(dir, a+".jsonl")); err != nil {
		t.Fatal(err)
	}
	if got, ok := sessions.LastUsed(dir, "/work/p"); ok {
		t.Errorf("LastUsed after its file went = %q, want none", got)
	}
}
