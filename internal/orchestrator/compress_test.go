package orchestrator

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/llamatest"
	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/mmconfigs"
)

// windowConfig is a configuration with no tools (their descriptions would
// fill a small window) and the window given.
func windowConfig(t *testing.T, window int) *mmconfigs.Config {
	t.Helper()
	cfg := mmconfigs.Default(t.TempDir(), func(string) string { return "" })
	cfg.Tools = []string{}
	cfg.System = "You are a test."
	cfg.ContextWindow = window
	return cfg
}

// compressions are the Compressed events the sink got.
func (r *recSink) compressions() []Compressed {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Compressed
	for _, e := range r.events {
		if c, ok := e.(Compressed); ok {
			out = append(out, c)
		}
	}
	return out
}

// replayRecorder records what the session saves.
type replayRecorder struct {
	appended [][]llm.Message
	replaced [][]llm.Message
}

func (r *replayRecorder) Append(msgs ...llm.Message) error {
	r.appended = append(r.appended, msgs)
	return nil
}
func (r *replayRecorder) Replace(msgs []llm.Message) error {
	r.replaced = append(r.replaced, msgs)
	return nil
}
func (r *replayRecorder) AskedSession(name, id string) error { return nil }
func (r *replayRecorder) UsesModel(string)                   {}

func TestCompressedLine(t *testing.T) {
	for _, tc := range []struct {
		c    Compressed
		want string
	}{
		{Compressed{Before: 14200, After: 2100}, "⚙ context compressed: 14,200 → 2,100 tokens"},
		{Compressed{Before: 999, After: 12}, "⚙ context compressed: 999 → 12 tokens"},
		{Compressed{Before: 1234567, After: 1000}, "⚙ context compressed: 1,234,567 → 1,000 tokens"},
	} {
		if got := tc.c.Line(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.c, got, tc.want)
		}
	}
}

// TestOldToolOutputsAreCutFirst: past compressAt, the tool outputs the
// model has read are cut, oldest first, each replaced in place by its head
// and a note; when that is enough, nothing is summarised.
func TestOldToolOutputsAreCutFirst(t *testing.T) {
	sink := &recSink{}
	m := &fakeModel{replies: []llm.Reply{{Content: "a3"}}}
	cfg := windowConfig(t, 1000)
	cfg.Model = "echo/test"
	big := strings.Repeat("0123456789abcdef\n", 180) // 3,060 bytes
	rec := &replayRecorder{}
	s, err := New(context.Background(), Options{Config: cfg, Cwd: cfg.Dir, Sink: sink, Recorder: rec, Resume: &Resumed{History: []llm.Message{
		{Role: llm.RoleUser, Content: "q1"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call("c1", "read_file", `{"path":"big"}`)}},
		{Role: llm.RoleTool, ToolCallID: "c1", Name: "read_file", Content: big},
		{Role: llm.RoleAssistant, Content: "a1"},
		{Role: llm.RoleUser, Content: "q2"},
		{Role: llm.RoleAssistant, Content: "a2"},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.model = m
	if err := s.Prompt(context.Background(), "q3"); err != nil {
		t.Fatal(err)
	}
	wantCut := big[:240] + "\n[mm cut this read_file output from 3060 bytes to the 240 above to fit the model's context window; run the tool again if the rest is needed]"
	if got := m.requests[0].Messages[3].Content; got != wantCut {
		t.Errorf("the cut output reads\n%q\nwant\n%q", got, wantCut)
	}
	if n := len(m.requests); n != 1 {
		t.Errorf("%d model calls, want 1 (nothing summarised)", n)
	}
	want := []Compressed{{Before: 813, After: 143, Trimmed: 1}}
	if got := sink.compressions(); len(got) != 1 || got[0] != want[0] {
		t.Errorf("compressions %+v, want %+v", got, want)
	}
	if len(rec.replaced) != 1 || rec.replaced[0][2].Content != wantCut {
		t.Errorf("the recorder was not told of the compression: %d replacements", len(rec.replaced))
	}
}

// TestOlderTurnsAreSummarised: when cutting outputs is not enough, the
// model summarises the older turns (the summary request: the same system
// prompt and messages, then mm's prompt; the longest messages cut when they
// would pass compressAt of the window), the latest turn is kept as it was,
// and the history starts with the summary.
func TestOlderTurnsAreSummarised(t *testing.T) {
	sink := &recSink{}
	m := &fakeModel{replies: []llm.Reply{{Content: "SUMMARY"}, {Content: "a4"}}}
	cfg := windowConfig(t, 1000)
	cfg.Model = "echo/test"
	long := strings.Repeat("a long answer. ", 73) // 1,095 bytes
	var hist []llm.Message
	for _, q := range []string{"q1", "q2", "q3"} {
		hist = append(hist, llm.Message{Role: llm.RoleUser, Content: q}, llm.Message{Role: llm.RoleAssistant, Content: long})
	}
	s, err := New(context.Background(), Options{Config: cfg, Cwd: cfg.Dir, Sink: sink, Resume: &Resumed{History: hist}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.model = m
	if err := s.Prompt(context.Background(), "q4"); err != nil {
		t.Fatal(err)
	}
	if len(m.requests) != 2 {
		t.Fatalf("%d model calls, want the summary's and the turn's", len(m.requests))
	}
	sum := m.requests[0]
	if sum.Purpose != llm.PurposeSummary || len(sum.Messages) != 1+6+1 || sum.Messages[0].Content != cfg.System ||
		sum.Messages[7].Content != summaryPrompt || sum.Messages[2].Content != long[:len(long)/4]+" […]" || sum.Messages[6].Content != long {
		t.Errorf("summary request: purpose %q, %d messages, last %q", sum.Purpose, len(sum.Messages), sum.Messages[len(sum.Messages)-1].Content)
	}
	got := roles(m.requests[1].Messages)
	want := "system: You are a test. | user: " + compressedNote + " | assistant: SUMMARY | user: q4"
	if got != want {
		t.Errorf("the turn's request\n%s\nwant\n%s", got, want)
	}
	if c := sink.compressions(); len(c) != 1 || c[0].Summarised != 6 || c[0].Line() != "⚙ context compressed: 862 → 53 tokens" {
		t.Errorf("compressions %+v", c)
	}
}

// roles writes messages as "role: content" joined by " | ".
func roles(msgs []llm.Message) string {
	var parts []string
	for _, m := range msgs {
		parts = append(parts, m.Role+": "+m.Content)
	}
	return strings.Join(parts, " | ")
}

// TestNoCompressionUnderTheThreshold: under compressAt nothing changes.
func TestNoCompressionUnderTheThreshold(t *testing.T) {
	sink := &recSink{}
	m := &fakeModel{}
	s := newTestSession(t, windowConfig(t, 4096), m, sink)
	for _, q := range []string{"one", "two", "three"} {
		if err := s.Prompt(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	if c := sink.compressions(); len(c) != 0 {
		t.Errorf("compressions %+v, want none", c)
	}
}

// TestQuestionLargerThanTheWindow: a question that alone is over the
// window is a clear error, not a compression loop, and the model is not
// called.
func TestQuestionLargerThanTheWindow(t *testing.T) {
	sink := &recSink{}
	m := &fakeModel{}
	s := newTestSession(t, windowConfig(t, 1000), m, sink)
	err := s.Prompt(context.Background(), strings.Repeat("x", 5000))
	want := "the question is about 1,262 tokens (with the system prompt and the tools), more than the model's context window of 1,000: shorten it, or give the model a larger window (contextWindow, or the server's context size)"
	if err == nil || err.Error() != want {
		t.Errorf("error %v\nwant  %s", err, want)
	}
	if len(m.requests) != 0 {
		t.Errorf("%d model calls, want none", len(m.requests))
	}
}

// TestCompactCommand: /compact compresses at once whatever it can; on an
// empty conversation it says there is nothing to compress.
func TestCompactCommand(t *testing.T) {
	sink := &recSink{}
	m := &fakeModel{replies: []llm.Reply{{Content: "a1"}, {Content: "a2"}, {Content: "SUMMARY"}}}
	s := newTestSession(t, windowConfig(t, 4096), m, sink)
	if err := s.PromptTyped(context.Background(), "/compact"); err != nil {
		t.Fatal(err)
	}
	if r, ok := lastEvent[CommandReply](sink); !ok || r.Text != "(nothing to compress)" {
		t.Errorf("reply %+v", r)
	}
	for _, q := range []string{"q1", "q2"} {
		if err := s.Prompt(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PromptTyped(context.Background(), " /compact "); err != nil {
		t.Fatal(err)
	}
	got := roles(s.History())
	want := "user: " + compressedNote + " | assistant: SUMMARY | user: q2 | assistant: a2"
	if got != want {
		t.Errorf("history\n%s\nwant\n%s", got, want)
	}
	if c := sink.compressions(); len(c) != 1 || c[0].Summarised != 2 {
		t.Errorf("compressions %+v", c)
	}
}

// lastEvent is the last event of type E the sink got.
func lastEvent[E Event](r *recSink) (E, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.events) - 1; i >= 0; i-- {
		if e, ok := r.events[i].(E); ok {
			return e, true
		}
	}
	var zero E
	return zero, false
}

// serverSession is a session whose model is llamatest's server, as
// provider llamacpp.
func serverSession(t *testing.T, cfg *mmconfigs.Config, srv *llamatest.Server, sink *recSink, resume *Resumed) *Session {
	t.Helper()
	cfg.Model = "llamacpp/test"
	cfg.Providers = map[string]mmconfigs.Provider{"llamacpp": {BaseURL: srv.URL}}
	s, err := New(context.Background(), Options{Config: cfg, Cwd: cfg.Dir, Sink: sink, Resume: resume})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// echoReply answers a summary request with a summary and anything else
// with an answer quoting the question.
func echoReply(req llamatest.Request) llamatest.Reply {
	last := req.Messages[len(req.Messages)-1].Content
	if last == summaryPrompt {
		return llamatest.Reply{Content: "SUMMARY"}
	}
	return llamatest.Reply{Content: "answer to " + last[:min(len(last), 20)]}
}

// TestWindowFromTheServer: the window is the server's where it says, the
// configuration's when smaller or when the server does not say, else the
// default; the server is asked once, at the first request (a server that
// truncates in silence never refuses: the window must be known before any
// request could pass it).
func TestWindowFromTheServer(t *testing.T) {
	for _, tc := range []struct {
		name          string
		props, config int
		want          int
	}{
		{name: "the server says", props: 8192, want: 8192},
		{name: "the configuration is smaller", props: 8192, config: 2048, want: 2048},
		{name: "the server is smaller", props: 2048, config: 8192, want: 2048},
		{name: "no /props, the configuration", props: -1, config: 6000, want: 6000},
		{name: "no /props, the default", props: -1, want: 4096},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llamatest.Start(llamatest.Options{NCtx: 1 << 20, Props: tc.props, Reply: echoReply})
			defer srv.Close()
			s := serverSession(t, windowConfig(t, tc.config), srv, &recSink{}, nil)
			if err := s.Prompt(context.Background(), "hello"); err != nil {
				t.Fatal(err)
			}
			if srv.Probes() != 1 {
				t.Errorf("the first request asked the server %d times, want once", srv.Probes())
			}
			for i := 0; i < 3; i++ {
				if err := s.Prompt(context.Background(), strings.Repeat("words ", 800)); err != nil {
					t.Fatal(err)
				}
			}
			if got := s.windowSize(context.Background()); got != tc.want {
				t.Errorf("window %d, want %d", got, tc.want)
			}
			if srv.Probes() != 1 {
				t.Errorf("the server was asked %d times, want once", srv.Probes())
			}
		})
	}
}

// TestRefusedRequestIsCompressedAndRetried: a server whose /props is
// missing or lies refuses a request over its real window (llama.cpp's
// error); mm learns the window from the refusal, compresses and tries once
// more. A request still refused after that is one clear error.
func TestRefusedRequestIsCompressedAndRetried(t *testing.T) {
	for _, props := range []int{-1, 32768} {
		srv := llamatest.Start(llamatest.Options{NCtx: 2048, Props: props, Reply: echoReply})
		defer srv.Close()
		sink := &recSink{}
		s := serverSession(t, windowConfig(t, 0), srv, sink, nil)
		for i := 0; i < 3; i++ {
			if err := s.Prompt(context.Background(), strings.Repeat("some text ", 200)); err != nil {
				t.Fatalf("/props %d: turn %d: %v", props, i+1, err)
			}
		}
		var refused int
		for _, st := range srv.Stats() {
			if st.Refused {
				refused++
			}
		}
		if refused != 1 || len(sink.compressions()) != 1 || s.windowSize(context.Background()) != 2048 {
			t.Errorf("/props %d: %d refused, %d compressions, window %d; want 1, 1, 2048", props, refused, len(sink.compressions()), s.windowSize(context.Background()))
		}
	}

	srv := llamatest.Start(llamatest.Options{NCtx: 2048, Props: -1, Reply: echoReply})
	defer srv.Close()
	s := serverSession(t, windowConfig(t, 0), srv, &recSink{}, nil)
	err := s.Prompt(context.Background(), strings.Repeat("x", 6500))
	want := "llamacpp: HTTP 400: request (2191 tokens) exceeds the available context size (2048 tokens), try increasing it — even after compressing the conversation: give the model a larger window (the server's context size, e.g. llama-server -c), or lower contextWindow in the configuration"
	if err == nil || err.Error() != want {
		t.Errorf("error %v\nwant  %s", err, want)
	}
	if _, ok := errors.AsType[*llm.ContextTooLongError](err); !ok {
		t.Errorf("error %T does not unwrap to the refusal", err)
	}
	if n := len(srv.Stats()); n != 2 {
		t.Errorf("%d requests, want 2 (one retry)", n)
	}
}

// TestGuessedWindowLeavesTheServerToJudge: when neither the server nor
// the configuration gave the window, a question over mm's guess is sent
// as it is (the server refuses it if it must); when the server gave it,
// the question is refused before any chat request.
func TestGuessedWindowLeavesTheServerToJudge(t *testing.T) {
	m := &fakeModel{}
	s := newTestSession(t, windowConfig(t, 0), m, &recSink{})
	if err := s.Prompt(context.Background(), strings.Repeat("x", 20000)); err != nil {
		t.Errorf("guessed window: %v", err)
	}
	if len(m.requests) != 1 {
		t.Errorf("guessed window: %d model calls, want 1", len(m.requests))
	}

	srv := llamatest.Start(llamatest.Options{NCtx: 2048, Reply: echoReply})
	defer srv.Close()
	s2 := serverSession(t, windowConfig(t, 0), srv, &recSink{}, nil)
	err := s2.Prompt(context.Background(), strings.Repeat("x", 9000))
	want := "the question is about 2,262 tokens (with the system prompt and the tools), more than the model's context window of 2,048: shorten it, or give the model a larger window (contextWindow, or the server's context size)"
	if err == nil || err.Error() != want {
		t.Errorf("told window: error %v\nwant  %s", err, want)
	}
	if n := len(srv.Bodies()); n != 0 {
		t.Errorf("told window: %d chat requests, want none", n)
	}
}

// summaryModel answers a turn's call with "ok" and a summary request with
// summary, or fails it with err.
type summaryModel struct {
	summary string
	err     error
}

func (m summaryModel) Stream(ctx context.Context, req llm.Request, onText func(string)) (llm.Reply, error) {
	if req.Purpose == llm.PurposeSummary {
		return llm.Reply{Content: m.summary}, m.err
	}
	return llm.Reply{Content: "ok"}, nil
}

// TestFailedSummary: a summary request that fails, or answers nothing,
// ends the turn with one line; the outputs cut before it stay cut.
func TestFailedSummary(t *testing.T) {
	big := strings.Repeat("0123456789abcdef\n", 180)
	long := strings.Repeat("a long answer. ", 73)
	hist := []llm.Message{
		{Role: llm.RoleUser, Content: "q1"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call("c1", "read_file", `{"path":"big"}`)}},
		{Role: llm.RoleTool, ToolCallID: "c1", Name: "read_file", Content: big},
		{Role: llm.RoleAssistant, Content: long},
		{Role: llm.RoleUser, Content: "q2"},
		{Role: llm.RoleAssistant, Content: long},
	}
	for _, tc := range []struct {
		model summaryModel
		want  string
	}{
		{summaryModel{err: errors.New("llamacpp: HTTP 500: boom")}, "compress the conversation: the summary request failed: llamacpp: HTTP 500: boom"},
		{summaryModel{summary: "  \n"}, "compress the conversation: the model answered the summary request with no text; try /compact again, or /clear"},
	} {
		sink := &recSink{}
		cfg := windowConfig(t, 1000)
		cfg.Model = "echo/test"
		s, err := New(context.Background(), Options{Config: cfg, Cwd: cfg.Dir, Sink: sink, Resume: &Resumed{History: hist}})
		if err != nil {
			t.Fatal(err)
		}
		s.model = tc.model
		err = s.Prompt(context.Background(), "q3")
		if err == nil || err.Error() != tc.want {
			t.Errorf("error %v\nwant  %s", err, tc.want)
		}
		if got := s.History()[2].Content; !strings.HasSuffix(got, "run the tool again if the rest is needed]") {
			t.Errorf("the output is not cut: %.60q…", got)
		}
		if c := sink.compressions(); len(c) != 1 || c[0].Trimmed != 1 || c[0].Summarised != 0 {
			t.Errorf("compressions %+v", c)
		}
		s.Close()
	}
}

// nextRequestTokens is the session's next request between turns, with the
// tools specs, as its window estimates it.
func nextRequestTokens(s *Session, specs []llm.ToolSpec) int {
	return s.window.requestTokens(s.system, specs, s.History(), 0)
}

// TestTokenAccounting: after a call, the next request's size is the
// server's count of the last one and its reply, plus an estimate of what
// joined the history since (a token for 4 bytes, 4 a message); a history
// replaced by whatever means is estimated whole, after the server's
// measure of the system prompt and the tools.
func TestTokenAccounting(t *testing.T) {
	srv := llamatest.Start(llamatest.Options{NCtx: 1 << 20, Reply: echoReply})
	defer srv.Close()
	sink := &recSink{}
	s := serverSession(t, windowConfig(t, 0), srv, sink, nil)
	specs := s.toolSpecs()
	if got, want := nextRequestTokens(s, specs), estimateTokens([]llm.Message{{Content: "You are a test."}}); got != want {
		t.Errorf("before any call: %d, want the system prompt's estimate %d", got, want)
	}
	if err := s.Prompt(context.Background(), "hello"); err != nil {
		t.Fatal(err)
	}
	u := sink.ended().Usage
	exact := u.InputTokens + u.OutputTokens
	if st := srv.Stats()[0]; u.InputTokens != st.Tokens || exact == 0 {
		t.Fatalf("usage %+v, server's count %+v", u, st)
	}
	if got := nextRequestTokens(s, specs); got != exact {
		t.Errorf("after the call: %d, want the server's %d", got, exact)
	}
	s.history.append(llm.Message{Role: llm.RoleUser, Content: strings.Repeat("x", 400)})
	if got := nextRequestTokens(s, specs); got != exact+104 {
		t.Errorf("with a new message: %d, want %d + 104", got, exact)
	}
	s.history.mu.Lock()
	s.history.msgs = []llm.Message{{Role: llm.RoleUser, Content: strings.Repeat("y", 40)}, {Role: llm.RoleAssistant, Content: "z"}}
	s.history.mu.Unlock()
	// The server's count of the first request measured the system prompt
	// and the tools (3 bytes a token, its tokenizer): the rest is estimated.
	base := s.window.baseEstimate(s.system, specs)
	if base == estimateTokens([]llm.Message{{Content: "You are a test."}}) {
		t.Errorf("the system prompt's measure %d is mm's estimate of it", base)
	}
	if got, want := nextRequestTokens(s, specs), base+14+5; got != want {
		t.Errorf("a history replaced behind the count's back: %d, want the measure of the rest and the estimate of the history %d", got, want)
	}
}
