package orchestrator

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/llamatest"
	"github.com/mm-agent/mm/internal/mmconfigs"
)

// The long session: every question makes the model read one of five
// files (outputs of 300 to 800 bytes, and a large one of 6,000), then
// answer quoting it. It
// runs against llamatest's server, which refuses a request over its
// window as llama.cpp does and counts its prompt cache's reuse.

// outputSizes are the sizes of the files the model reads.
var outputSizes = []int{300, 500, 6000, 800, 400}

// readingReply is the server's side of the long session, decided by the
// request alone, as a model's is.
func readingReply(req llamatest.Request) llamatest.Reply {
	last := req.Messages[len(req.Messages)-1]
	switch {
	case last.Content == summaryPrompt:
		return llamatest.Reply{Content: fmt.Sprintf("SUMMARY: the person asked about %d messages' worth of files; each was read and quoted.", len(req.Messages)-2)}
	case last.Role == "tool":
		return llamatest.Reply{Content: "The file starts with: " + last.Content[:min(len(last.Content), 40)]}
	}
	path := fmt.Sprintf("out%d.txt", len(req.Messages)%len(outputSizes))
	return llamatest.Reply{Calls: [][2]string{{"read_file", `{"path":"` + path + `"}`}}}
}

// longSessionConfig is an agent with read_file only, yolo, in a folder
// holding the files.
func longSessionConfig(t testing.TB, dir string) *mmconfigs.Config {
	t.Helper()
	for i, n := range outputSizes {
		var b strings.Builder
		for line := 0; b.Len() < n; line++ {
			fmt.Fprintf(&b, "file %d, line %d: some text that a tool printed\n", i, line)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("out%d.txt", i)), []byte(b.String()[:n]), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cfg := mmconfigs.Default(dir, func(string) string { return "" })
	cfg.Tools = []string{"read_file"}
	cfg.Yolo = true
	return cfg
}

// startLong starts a session of the long session's agent on srv.
func startLong(t testing.TB, dir string, srv *llamatest.Server, sink *recSink, resume *Resumed) *Session {
	t.Helper()
	cfg := longSessionConfig(t, dir)
	cfg.Model = "llamacpp/test"
	cfg.Providers = map[string]mmconfigs.Provider{"llamacpp": {BaseURL: srv.URL}}
	s, err := New(context.Background(), Options{Config: cfg, Cwd: dir, Sink: sink, Resume: resume})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// wireBody is the part of a request body the cache sees.
type wireBody struct {
	Messages []json.RawMessage `json:"messages"`
	Tools    json.RawMessage   `json:"tools"`
}

// hasLongOutput says one of msgs is a tool output long enough to be cut,
// and not cut.
func hasLongOutput(msgs []json.RawMessage) bool {
	for _, raw := range msgs {
		var m struct{ Role, Content string }
		if json.Unmarshal(raw, &m) == nil && m.Role == "tool" && len(m.Content) > minTrimmed && !strings.Contains(m.Content, "[mm cut this") {
			return true
		}
	}
	return false
}

// sameJSON says a and b are the same bytes.
func sameJSON(a, b json.RawMessage) bool { return bytes.Equal(a, b) }

func decodeBody(t testing.TB, b []byte) wireBody {
	t.Helper()
	var w wireBody
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatalf("request body: %v", err)
	}
	return w
}

// TestRequestsOnlyAppend: between compressions every request's messages
// are the previous request's, byte for byte, and new ones after them; the
// system prompt comes first and never changes, nor do the tools. Only a
// compression (one per Compressed event, its summary request aside) starts
// a new prefix; a summary request starts with the messages as they were
// sent.
func TestRequestsOnlyAppend(t *testing.T) {
	srv := llamatest.Start(llamatest.Options{NCtx: 4096, Reply: readingReply})
	defer srv.Close()
	sink := &recSink{}
	s := startLong(t, t.TempDir(), srv, sink, nil)
	for i := 1; i <= 30; i++ {
		if err := s.Prompt(context.Background(), fmt.Sprintf("question %d: what is in the next file?", i)); err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
	}
	bodies := srv.Bodies()
	first := decodeBody(t, bodies[0])
	var prev wireBody
	breaks, cachedSummaries := 0, 0
	for i, b := range bodies {
		w := decodeBody(t, b)
		if !bytes.Equal(w.Messages[0], first.Messages[0]) || !bytes.Equal(w.Tools, first.Tools) {
			t.Fatalf("request %d: the system prompt or the tools changed:\n%s", i+1, w.Messages[0])
		}
		if strings.Contains(string(w.Messages[len(w.Messages)-1]), "about to be replaced by a summary") {
			// A summary request: when it fits, the previous request's
			// messages as they were sent, then mm's prompt.
			// Its long outputs uncut, although the compression cut them
			// all before it asked for a summary.
			older := w.Messages[:len(w.Messages)-1]
			if len(older) <= len(prev.Messages) && slices.EqualFunc(older, prev.Messages[:len(older)], sameJSON) && hasLongOutput(older) {
				cachedSummaries++
			}
			continue
		}
		if prev.Messages != nil && !(len(w.Messages) > len(prev.Messages) && slices.EqualFunc(prev.Messages, w.Messages[:len(prev.Messages)], sameJSON)) {
			breaks++
		}
		prev = w
	}
	if n := len(sink.compressions()); breaks != n || n == 0 {
		t.Errorf("%d requests did not extend the one before, for %d compressions; want as many, and some", breaks, n)
	}
	if cachedSummaries == 0 {
		t.Error("no summary request started with the messages the server had cached")
	}
}

// TestResumedSessionSendsTheSameRequest: a session resumed from the
// history another one had after a turn sends, for the next question, the
// very request (byte for byte) the first one sent — before and after a
// compression.
func TestResumedSessionSendsTheSameRequest(t *testing.T) {
	dir := t.TempDir()
	srv := llamatest.Start(llamatest.Options{NCtx: 4096, Reply: readingReply})
	defer srv.Close()
	sink := &recSink{}
	s := startLong(t, dir, srv, sink, nil)
	question := func(i int) string { return fmt.Sprintf("question %d: what is in the next file?", i) }
	type snapshot struct {
		turn, firstRequest int
		resumed            *Resumed
	}
	var snaps []snapshot
	compressed := 0
	for i := 1; i <= 16; i++ {
		snap := snapshot{turn: i, firstRequest: len(srv.Bodies()), resumed: &Resumed{History: s.History()}}
		if err := s.Prompt(context.Background(), question(i)); err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
		// A turn that began with a compression is left out: the resumed
		// session has no count from the server yet, so it may compress a
		// call earlier or later (context-window.md says so).
		if c := len(sink.compressions()); c == compressed && i > 1 {
			snaps = append(snaps, snap)
		} else {
			compressed = c
		}
	}
	if compressed == 0 {
		t.Fatal("no compression in 16 turns: the test does not cover one")
	}
	bodies := srv.Bodies()
	checked := 0
	for _, snap := range snaps {
		srv2 := llamatest.Start(llamatest.Options{NCtx: 4096, Reply: readingReply})
		r := startLong(t, dir, srv2, &recSink{}, snap.resumed)
		if err := r.Prompt(context.Background(), question(snap.turn)); err != nil {
			t.Fatalf("resumed before turn %d: %v", snap.turn, err)
		}
		got := srv2.Bodies()[0]
		srv2.Close()
		if want := bodies[snap.firstRequest]; !bytes.Equal(got, want) {
			t.Errorf("resumed before turn %d, the request differs:\n got %s\nwant %s", snap.turn, got, want)
		}
		checked++
	}
	if checked < 8 {
		t.Errorf("only %d turns checked", checked)
	}
}

// longRun is the figures of one long session.
type longRun struct {
	turns, requests, refused, compressions int
	// maxTokens is the largest request; reread the prompt tokens the
	// server read anew (not from its cache), over all requests; prompt all
	// the prompt tokens.
	maxTokens, reread, prompt int
	// perTurn are the tokens read anew per turn, for the median.
	perTurn []int
}

// runLong plays turns questions of the long session against a server of
// the given window and returns its figures.
func runLong(t testing.TB, turns, window int) longRun {
	srv := llamatest.Start(llamatest.Options{NCtx: window, Reply: readingReply})
	defer srv.Close()
	sink := &recSink{}
	s := startLong(t, t.TempDir(), srv, sink, nil)
	run := longRun{turns: turns}
	for i := 1; i <= turns; i++ {
		before := len(srv.Stats())
		if err := s.Prompt(context.Background(), fmt.Sprintf("question %d: what is in the next file?", i)); err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
		turn := 0
		for _, st := range srv.Stats()[before:] {
			turn += st.PromptN
		}
		run.perTurn = append(run.perTurn, turn)
	}
	for _, st := range srv.Stats() {
		run.requests++
		if st.Refused {
			run.refused++
			continue
		}
		run.maxTokens = max(run.maxTokens, st.Tokens)
		run.reread += st.PromptN
		run.prompt += st.Tokens
	}
	run.compressions = len(sink.compressions())
	return run
}

// median is the middle of xs.
func median(xs []int) int {
	s := slices.Clone(xs)
	sort.Ints(s)
	return s[len(s)/2]
}

// TestLongSessionStaysInTheWindow: 200 turns, each reading a large file,
// against a server with a 4,096-token window that refuses what does not
// fit: every turn completes, no request is refused, and most of each
// prompt comes from the server's cache.
func TestLongSessionStaysInTheWindow(t *testing.T) {
	run := runLong(t, 200, 4096)
	if run.refused != 0 || run.maxTokens >= 4096 {
		t.Errorf("%d requests refused, the largest %d tokens; want none refused, all under 4,096", run.refused, run.maxTokens)
	}
	if run.compressions == 0 {
		t.Error("no compression in 200 turns")
	}
	t.Logf("200 turns: %d requests, %d compressions, largest request %d tokens; prompt tokens read anew: %d of %d (%.0f%%), median %d a turn",
		run.requests, run.compressions, run.maxTokens, run.reread, run.prompt, 100*float64(run.reread)/float64(run.prompt), median(run.perTurn))
	if run.reread*2 > run.prompt {
		t.Errorf("%d of %d prompt tokens read anew: the cache is not reused", run.reread, run.prompt)
	}
}

// BenchmarkLongSession runs the 200-turn session against a 4,096-token
// window, and an 8,192-token one beside it; its figures are the prompt
// tokens the server read anew per turn (prefix reuse) next to all the
// prompt tokens per turn (what a server without a prompt cache reads), the
// compressions and the largest request. bench/window.sh runs it.
func BenchmarkLongSession(b *testing.B) {
	for _, window := range []int{4096, 8192} {
		b.Run(fmt.Sprintf("window=%d", window), func(b *testing.B) {
			for b.Loop() {
				run := runLong(b, 200, window)
				b.ReportMetric(float64(run.reread)/float64(run.turns), "reread-tokens/turn")
				b.ReportMetric(float64(median(run.perTurn)), "median-reread/turn")
				b.ReportMetric(float64(run.prompt)/float64(run.turns), "prompt-tokens/turn")
				b.ReportMetric(float64(run.compressions), "compressions")
				b.ReportMetric(float64(run.maxTokens), "max-request-tokens")
				b.ReportMetric(float64(run.refused), "refused")
			}
		})
	}
}
