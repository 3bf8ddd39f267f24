package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mm-agent/mm/llm"
	"github.com/mm-agent/mm/orchestrator"
)

// TestServedContextAfterRestart: an A2A context goes on with its saved
// history when it comes back to another mm serve (a restart), through the
// contexts file; a line cut short there is skipped, and a context never
// seen starts afresh.
func TestServedContextAfterRestart(t *testing.T) {
	state := t.TempDir()
	getenv := func(k string) string {
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	}
	o := orchestrator.Options{Cwd: t.TempDir(), Model: "echo/x"}
	said := []llm.Message{{Role: llm.RoleUser, Content: "the plan is A"}, {Role: llm.RoleAssistant, Content: "A it is"}}

	first := servedStore(getenv, true, io.Discard)
	rec, resumed, end, err := first.Open("ctx-1", o)
	if err != nil || resumed != nil {
		t.Fatalf("Open of a new context: resumed %v, err %v", resumed, err)
	}
	if err := rec.Append(said...); err != nil {
		t.Fatal(err)
	}
	if err := end(); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(state, "mm", "sessions", servedFolder, contextsFile)
	f, err := os.OpenFile(index, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"context":"ctx-2","sess`) // cut short
	f.Close()

	again := servedStore(getenv, true, io.Discard)
	_, resumed, end, err = again.Open("ctx-1", o)
	if err != nil || resumed == nil {
		t.Fatalf("Open after the restart: resumed %v, err %v; want the saved history", resumed, err)
	}
	end()
	// And again: what the second one wrote after the cut line is read.
	third := servedStore(getenv, true, io.Discard)
	_, resumed, end, err = third.Open("ctx-1", o)
	if err != nil || resumed == nil {
		t.Fatalf("Open after a second restart: resumed %v, err %v; want the saved history", resumed, err)
	}
	defer end()
	var got []string
	for _, m := range resumed.History {
		got = append(got, m.Content)
	}
	if strings.Join(got, " | ") != "the plan is A | A it is" {
		t.Errorf("resumed history %q", got)
	}
	if _, resumed, end2, err := third.Open("ctx-2", o); err != nil || resumed != nil {
		t.Errorf("a context never saved: resumed %v, err %v; want a new session", resumed, err)
	} else {
		end2()
	}
	// ctx-2's line starts after the cut one, on a line of its own.
	b, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, `{"context":"ctx-2","session":"`) {
		t.Errorf("the contexts file ends with %q, want ctx-2's line", last)
	}
}
