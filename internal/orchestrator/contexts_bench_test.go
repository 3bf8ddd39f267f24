package orchestrator

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mm-agent/mm/internal/llamatest"
	"github.com/mm-agent/mm/internal/mmconfigs"
)

// The contexts session: the long session's questions (each makes the
// model read a file, then answer), with a preGeneration hook that adds a
// context of contextChars characters to every question, against
// llamatest's server and its prompt cache.
const (
	contextTurns = 20
	contextChars = 500
)

// padHook adds to the question q the context "context for q: ……", dots
// up to contextChars characters.
const padHook = `q=$(sed -n 's/.*"prompt":"\([^"]*\)".*/\1/p')
dots=$(printf '%0500d' 0 | tr 0 .)
c=$(printf 'context for %s: %s' "$q" "$dots" | cut -c1-500)
printf '{"context":"%s"}' "$c"
`

// contextsRun is the figures of one contexts session.
type contextsRun struct {
	// perTurn are the prompt tokens the server read anew in each turn;
	// last is the last request's tokens, prompt all the requests'.
	perTurn      []int
	last, prompt int
	bodies       [][]byte
}

// runContexts plays the contexts session, with the hook or without.
func runContexts(t testing.TB, hook bool) contextsRun {
	t.Helper()
	srv := llamatest.Start(llamatest.Options{NCtx: 65536, Reply: readingReply})
	defer srv.Close()
	dir := t.TempDir()
	longSessionConfig(t, dir) // the files the model reads
	yaml := "model: llamacpp/test\nproviders:\n  llamacpp:\n    baseURL: " + srv.URL + "\ntools: [read_file]\nyolo: true\n"
	if hook {
		yaml += "hooks:\n  preGeneration:\n    - command: sh \"$MM_CONFIG_DIR/pad.sh\"\n"
	}
	for name, body := range map[string]string{"agent.yaml": yaml, "pad.sh": padHook} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := mmconfigs.Load(filepath.Join(dir, "agent.yaml"), dir, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	sink := &recSink{}
	s, err := New(context.Background(), Options{Config: cfg, Cwd: dir, Sink: sink})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var run contextsRun
	for i := 1; i <= contextTurns; i++ {
		before := len(srv.Stats())
		if err := s.Prompt(context.Background(), fmt.Sprintf("question %d: what is in the next file?", i)); err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
		n := 0
		for _, st := range srv.Stats()[before:] {
			n += st.PromptN
		}
		run.perTurn = append(run.perTurn, n)
	}
	if c := len(sink.compressions()); c != 0 {
		t.Fatalf("%d compressions: the window is too small for the measure", c)
	}
	stats := srv.Stats()
	run.last = stats[len(stats)-1].Tokens
	for _, st := range stats {
		run.prompt += st.Tokens
	}
	run.bodies = srv.Bodies()
	return run
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// TestHookContextsCostOneRereadFromThePreviousQuestion: with a hook adding
// a context to every question, each turn's first request shares with the
// request before it every message up to the previous question, and differs
// from it there (that question's context is gone): the server reads anew
// the previous question, its tool calls, outputs and answer, once. The
// last request is as large as the same session's without the hook, but for
// its own question's context.
func TestHookContextsCostOneRereadFromThePreviousQuestion(t *testing.T) {
	with, without := runContexts(t, true), runContexts(t, false)
	var prev wireBody
	var prevQuestion int
	turn := 0
	for i, b := range with.bodies {
		w := decodeBody(t, b)
		last := w.Messages[len(w.Messages)-1]
		if !bytesHasPrefix(last, `{"role":"user"`) {
			prev = w
			continue
		}
		turn++
		if turn > 1 {
			shared := 0
			for shared < len(prev.Messages) && shared < len(w.Messages) && sameJSON(prev.Messages[shared], w.Messages[shared]) {
				shared++
			}
			if shared != prevQuestion {
				t.Errorf("request %d (turn %d) shares %d messages with the one before; want %d, up to the previous question", i+1, turn, shared, prevQuestion)
			}
		}
		prevQuestion = len(w.Messages) - 1
		prev = w
	}
	if turn != contextTurns {
		t.Fatalf("%d turns seen, want %d", turn, contextTurns)
	}
	// The context adds 500 characters and the header's 28, in 3-byte tokens.
	if got, want := with.last-without.last, (contextChars+len("\n\n[context added by a hook]\n")+2)/3; got < want-2 || got > want+2 {
		t.Errorf("the last request is %d tokens larger than without the hook, want about %d (its own context only)", got, want)
	}
	if slices.Equal(with.perTurn, without.perTurn) {
		t.Error("the hook's contexts cost nothing to read: the measure measures nothing")
	}
}

func bytesHasPrefix(b []byte, p string) bool { return len(b) >= len(p) && string(b[:len(p)]) == p }

// BenchmarkHookContexts is the contexts session and the same session
// without the hook; its figures are the prompt tokens the server read anew
// per turn and in all, the last request's tokens and all the requests'
// (what a server without a prompt cache reads; docs/explanation/performance.md).
func BenchmarkHookContexts(b *testing.B) {
	for _, hook := range []bool{false, true} {
		b.Run(fmt.Sprintf("hook=%v", hook), func(b *testing.B) {
			for b.Loop() {
				run := runContexts(b, hook)
				b.ReportMetric(float64(sum(run.perTurn))/float64(contextTurns), "reread-tokens/turn")
				b.ReportMetric(float64(sum(run.perTurn)), "reread-tokens")
				b.ReportMetric(float64(run.last), "last-request-tokens")
				b.ReportMetric(float64(run.prompt), "prompt-tokens")
				b.ReportMetric(float64(median(run.perTurn)), "median-reread/turn")
			}
		})
	}
}
