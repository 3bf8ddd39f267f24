package line

import (
	"os"
	"path/filepath"
	"testing"
)

// The line mode's readline completer: nothing before the session starts,
// then the rests of the candidates and the length of what they continue.
func TestLineCompleter(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c := &lineCompleter{}
	if got, n := c.Do([]rune("@no"), 3); got != nil || n != 0 {
		t.Errorf("before the session: %q, %d", got, n)
	}
	c.set(dir, nil)
	got, n := c.Do([]rune("@notes"), 3)
	if len(got) != 1 || string(got[0]) != "tes.md" || n != 2 {
		t.Errorf("Do = %q, %d", got, n)
	}
	// A slash word: the front end's and the session's commands.
	c.setWords([]string{"/help", "/review"})
	got, n = c.Do([]rune("/rev"), 4)
	if len(got) != 1 || string(got[0]) != "iew" || n != 4 {
		t.Errorf("Do(/rev) = %q, %d", got, n)
	}
}
