package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/orchestrator"
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

// TestContextsFileLines: every good line of the contexts file is read,
// whatever stands before it: a context id of 100 KB (past a scanner's 64
// KiB line, which ended the reading) or a line that is not one.
func TestContextsFileLines(t *testing.T) {
	long := strings.Repeat("c", 100<<10)
	state := t.TempDir()
	dir := filepath.Join(state, "mm", "sessions", servedFolder)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	file := `{"context":"ctx-a","session":"s-a"}` + "\n" +
		`{"context":"` + long + `","session":"s-long"}` + "\n" +
		"not a line of it\n" +
		`{"context":"ctx-b","session":"s-b"}` + "\n" +
		`{"context":"ctx-a","session":"s-a2"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, contextsFile), []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	st := servedStore(func(k string) string {
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	}, true, io.Discard).(*serveStore)
	for _, tc := range []struct{ context, want string }{
		{"ctx-a", "s-a2"},
		{long, "s-long"},
		{"ctx-b", "s-b"},
	} {
		if got := st.ids[tc.context]; got != tc.want {
			t.Errorf("context %.20s…: session %q, want %q", tc.context, got, tc.want)
		}
	}
	if len(st.ids) != 3 {
		t.Errorf("%d contexts read, want 3", len(st.ids))
	}
}
