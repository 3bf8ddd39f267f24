package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/ollamatest"
)

// mmAt runs mm in dir with OLLAMA_HOST set to host and stdin given,
// returning stdout, stderr and the exit code.
func mmAt(t *testing.T, dir, host, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(mmBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MM_CONFIG=", "MM_MODEL=", "MM_ASKED_DEPTH=", "OLLAMA_HOST="+host)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// TestRealOllamaCLI points mm at a real Ollama as a new user would: the
// address in OLLAMA_HOST, a model whose template has no tools (Ollama
// refuses every request that offers tools to it), an asked agent on the
// same model, and a model name the server does not have.
func TestRealOllamaCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real Ollama")
	}
	s := ollamatest.Start(t)
	s.Create(t, ollamatest.Model{Name: "tiny", NumCtx: 1024, NumPredict: 12})
	dir := t.TempDir()
	for name, body := range map[string]string{
		"agent.yaml":  "model: ollama/tiny\nmmConfigs:\n  expert: expert.yaml\n",
		"expert.yaml": "model: ollama/tiny\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	notice := "tiny has no tool support on this server: running without tools\n"
	_, port, _ := strings.Cut(s.Host, ":")
	// A random model may answer nothing (its first token an end), so each
	// run is checked by the generations that reached Ollama's runner, not
	// by the noise it printed.
	generated := func(t *testing.T, want int, run func()) {
		t.Helper()
		before := len(s.CacheLoads())
		run()
		if got := len(s.CacheLoads()) - before; got < want {
			t.Errorf("%d generation(s) reached the runner, want %d", got, want)
		}
	}

	// OLLAMA_HOST in each of its forms; the first request offers the
	// tools (ask_agent among them), is refused, and mm goes on without.
	for _, host := range []string{s.Host, "http://" + s.Host, "0.0.0.0:" + port} {
		generated(t, 1, func() {
			out, errOut, code := mmAt(t, dir, host, "", "-p", "hi")
			if code != 0 || errOut != notice {
				t.Errorf("OLLAMA_HOST=%s mm -p hi: exit %d, stderr %q (want %q), stdout %q", host, code, errOut, notice, out)
			}
		})
	}

	// mm --ask: the asked agent's model has no tools either.
	generated(t, 1, func() {
		if out, errOut, code := mmAt(t, dir, s.Host, "", "--ask", "expert", "hi"); code != 0 {
			t.Errorf("mm --ask expert hi: exit %d, stderr %q, stdout %q", code, errOut, out)
		}
	})

	// Line mode: a turn, a hand-off by /ask-expert, a turn: three
	// generations. The notice comes once, at the first turn.
	generated(t, 3, func() {
		out, errOut, code := mmAt(t, dir, s.Host, "hi\n/ask-expert what is it?\nagain\n")
		if code != 0 || strings.Count(out+errOut, notice) != 1 || strings.Contains(out+errOut, "mm: ") {
			t.Errorf("line mode: exit %d, the notice %d times (want 1), stdout:\n%s\nstderr:\n%s", code, strings.Count(out+errOut, notice), out, errOut)
		}
	})

	// A model the server does not have: what it has.
	_, errOut, code := mmAt(t, dir, s.Host, "", "--model", "ollama/qwen3:8", "-p", "hi")
	if want := "mm: ollama has no model \"qwen3:8\", it has: tiny:latest\n"; code != 1 || errOut != want {
		t.Errorf("an unknown model: exit %d, stderr %q, want %q", code, errOut, want)
	}
}

// TestRealOllamaNoTruncation runs a 30-turn line-mode session on a model
// Ollama runs with num_ctx 1024, past its window several times over: mm
// knows the window from the first request on and compresses before it,
// so that Ollama never cuts a request (`truncating input messages`) nor
// shifts its context (`context limit hit`), which it does in silence.
func TestRealOllamaNoTruncation(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real Ollama; 30 turns")
	}
	s := ollamatest.Start(t)
	s.Create(t, ollamatest.Model{Name: "tiny", NumCtx: 1024, NumPredict: 16})
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "agent.yaml"), []byte("model: ollama/tiny\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var in strings.Builder
	for i := range 30 {
		fmt.Fprintf(&in, "turn %d: what does the weather look like in the old town today?\n", i+1)
	}
	out, errOut, code := mmAt(t, dir, s.Host, in.String())
	if code != 0 && !onlyEmptySummaries(errOut) {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	if cut := s.Truncations(); len(cut) > 0 {
		t.Errorf("Ollama cut %d requests; the first:\n%s\nmm's stderr:\n%s", len(cut), cut[0], errOut)
	}
	loads := s.CacheLoads()
	reused := 0
	for _, l := range loads {
		reused += l.Used
		if l.Prompt > 1024 {
			t.Errorf("a request of %d tokens reached a 1024-token window: %+v", l.Prompt, l)
		}
	}
	if len(loads) < 30 {
		t.Errorf("%d requests reached the runner, want 30 turns' and the compressions'", len(loads))
	}
	t.Logf("%d requests, %d prompt tokens found in the cache", len(loads), reused)
}

// TestRealOllamaHandOffCache measures what a hand-off costs the parent's
// cache on a real Ollama: a line-mode session of two turns, /ask-expert
// (another agent on the same model), and a third turn, whose request
// should find the parent's conversation in a cache slot. With one slot, or
// two slots picked by longest common prefix (Ollama's default), the asked
// agent's request takes the parent's slot; with OLLAMA_MULTIUSER_CACHE=1
// and two slots it goes to the least recently used one, and the parent
// keeps its cache — what mm check advises (docs/explanation/performance.md
// has the figures).
func TestRealOllamaHandOffCache(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real Ollama three times")
	}
	for _, tc := range []struct {
		name string
		env  []string
		kept bool
	}{
		{"one slot", nil, false},
		{"two slots", []string{"OLLAMA_NUM_PARALLEL=2"}, false},
		// Ollama's llama.cpp runner (this llama model's by default) aborts
		// on its multi-user cache in v0.17.4 (GGML_ASSERT "seq_cp() is
		// only supported for full KV buffers"): its own engine does not.
		{"two slots, Ollama's engine", []string{"OLLAMA_NUM_PARALLEL=2", "OLLAMA_NEW_ENGINE=1"}, false},
		{"two slots, multi-user cache", []string{"OLLAMA_NUM_PARALLEL=2", "OLLAMA_MULTIUSER_CACHE=1", "OLLAMA_NEW_ENGINE=1"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := ollamatest.Start(t, tc.env...)
			s.Create(t, ollamatest.Model{Name: "tiny", NumCtx: 2048, NumPredict: 12})
			dir := t.TempDir()
			for name, body := range map[string]string{
				"agent.yaml":  "model: ollama/tiny\nmmConfigs:\n  expert: expert.yaml\n",
				"expert.yaml": "model: ollama/tiny\nsystem: You are the expert. Answer in one line.\n",
			} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			in := "the first question, about the old town\nthe second question, about its bridges\n/ask-expert how old is the stone bridge?\nthe third question, about the river\n"
			if _, errOut, code := mmAt(t, dir, s.Host, in); code != 0 {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			loads := s.CacheLoads()
			if len(loads) != 4 {
				t.Fatalf("%d requests reached the runner, want 4 (two turns, the asked agent's, a turn): %+v", len(loads), loads)
			}
			second, third := loads[1], loads[3]
			t.Logf("%s: the turn after the hand-off read %d of its %d prompt tokens anew (slot %d; the turn before it, slot %d, had %d)",
				tc.name, third.Prompt-third.Used, third.Prompt, third.Slot, second.Slot, second.Prompt)
			if kept := third.Used >= second.Prompt; kept != tc.kept {
				t.Errorf("the parent's cache kept: %v, want %v (%+v)", kept, tc.kept, loads)
			}
		})
	}
}

// benchCommand is mm (bin) in dir on the Ollama at host, reading stdin.
func benchCommand(bin, dir, host, stdin string) *exec.Cmd {
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MM_CONFIG=", "MM_MODEL=", "MM_ASKED_DEPTH=", "OLLAMA_HOST="+host, "MM_YOLO=")
	cmd.Stdin = strings.NewReader(stdin)
	return cmd
}

// emptySummary is the line of a turn whose compression got no summary: a
// random model answers the summary request with nothing now and then (an
// end token, or a <tool_call> token that Ollama's parser holds back), and
// the turn fails; the session goes on.
const emptySummary = "mm: compress the conversation: the model answered the summary request with no text; try /compact again, or /clear"

// onlyEmptySummaries says every line of stderr is emptySummary.
func onlyEmptySummaries(stderr string) bool {
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if line != emptySummary {
			return false
		}
	}
	return true
}
