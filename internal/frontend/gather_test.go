package frontend

import (
	"strings"
	"sync"
	"testing"
)

// TestGatherer: the first piece goes at once; then every piece is sent,
// in order, by Close at the latest; nothing is sent after Close.
func TestGatherer(t *testing.T) {
	var mu sync.Mutex
	var sent []string
	g := NewGatherer(func(text string) {
		mu.Lock()
		sent = append(sent, text)
		mu.Unlock()
	})
	g.Add("first")
	mu.Lock()
	if len(sent) != 1 || sent[0] != "first" {
		t.Fatalf("after the first piece: %q, want it sent at once", sent)
	}
	mu.Unlock()
	g.Add("a")
	g.Add(strings.Repeat("b", GatherBytes))
	g.Add("c")
	g.Close()
	g.Add("after")
	mu.Lock()
	defer mu.Unlock()
	if got, want := strings.Join(sent, ""), "first"+"a"+strings.Repeat("b", GatherBytes)+"c"; got != want {
		t.Errorf("sent %d bytes, want %d: every piece, in order, none after Close", len(got), len(want))
	}
}
