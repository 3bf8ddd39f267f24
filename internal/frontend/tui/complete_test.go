package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// completingSession is a fakeSession that says where its paths start and
// which skills it has.
type completingSession struct {
	fakeSession
	cwd string
}

func (c *completingSession) Cwd() string      { return c.cwd }
func (c *completingSession) Skills() []string { return []string{"pdf", "pdf-forms"} }

// Tab completes an @path line to what the candidates share, and lists them
// in the status line when that is nothing more; $name lines complete
// skills.
func TestWindowTabCompletes(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"src/main.go", "src/main_test.go"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tw := newTestWindow(t, func(context.Context, sink, string) {})
	tw.s = &completingSession{cwd: dir}
	steps := []struct{ keys, line, hint string }{
		{"@s\t", "@src/", ""},
		{"m\t", "@src/main", ""},
		{"\t", "@src/main", "main.go  main_test.go"},
		{"_\t", "@src/main_test.go", ""},
	}
	for _, st := range steps {
		tw.typeKeys(st.keys)
		if got := tw.ed.String(); got != st.line || tw.hint != st.hint {
			t.Errorf("after %q: line %q, hint %q; want %q, %q", st.keys, got, tw.hint, st.line, st.hint)
		}
	}
	tw.ed.clear()
	tw.typeKeys("$p\t")
	if got := tw.ed.String(); got != "$pdf" {
		t.Errorf("skill: %q", got)
	}
	// An @path inside a sentence completes too.
	tw.ed.clear()
	tw.typeKeys("what about @s\t")
	if got := tw.ed.String(); got != "what about @src/" {
		t.Errorf("inside a line: %q, %q", got, tw.hint)
	}
	// Elsewhere Tab does nothing.
	tw.ed.clear()
	tw.typeKeys("what about s\t")
	if got := tw.ed.String(); got != "what about s" || strings.Contains(tw.hint, "src") {
		t.Errorf("a word without @: %q, %q", got, tw.hint)
	}
}

// A line ending in a backslash goes on on the next one: the turn gets the
// lines joined by line breaks, and the transcript shows each as typed.
func TestWindowContinuedLines(t *testing.T) {
	got := make(chan string, 1)
	tw := newTestWindow(t, func(ctx context.Context, k sink, text string) {
		got <- text
		k.Emit(orchestrator.TurnEnded{})
	})
	tw.typeKeys("what is in it? \\\r")
	if tw.running {
		t.Fatal("a turn started on a continued line")
	}
	tw.typeKeys("@notes.md\r")
	tw.handleUntil("the end of the turn", isDone)
	if text := <-got; text != "what is in it?\n@notes.md" {
		t.Errorf("the turn got %q", text)
	}
	want := []string{"› what is in it?", "  @notes.md"}
	if lines := tw.lines(); len(lines) < 2 || lines[0] != want[0] || lines[1] != want[1] {
		t.Errorf("transcript %q, want it to start with %q", lines, want)
	}
}
