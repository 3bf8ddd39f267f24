package orchestrator

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/llamatest"
	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/mmconfigs"
)

// contextHook is a preGeneration hook that rewrites the question q to
// "REWRITTEN q" and adds the context CTX-ONE to the question "first",
// CTX-TWO to any other.
const contextHook = `q=$(sed -n 's/.*"prompt":"\([^"]*\)".*/\1/p')
case $q in first) c=CTX-ONE;; *) c=CTX-TWO;; esac
printf '{"prompt":"REWRITTEN %s","context":"%s"}' "$q" "$c"
`

// hookedConfig loads an agent.yaml of yaml, written with files in a
// folder of its own.
func hookedConfig(t testing.TB, yaml string, files map[string]string) *mmconfigs.Config {
	t.Helper()
	dir := t.TempDir()
	files["agent.yaml"] = yaml
	writeTree(t, dir, files)
	cfg, err := mmconfigs.Load(filepath.Join(dir, "agent.yaml"), dir, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// contextsConfig is an agent on srv, with read_file and contextHook.
func contextsConfig(t testing.TB, srv *llamatest.Server) *mmconfigs.Config {
	return hookedConfig(t, `model: llamacpp/test
providers:
  llamacpp:
    baseURL: `+srv.URL+`
system: You are a test.
tools: [read_file]
yolo: true
hooks:
  preGeneration:
    - command: sh "$MM_CONFIG_DIR/context.sh"
`, map[string]string{"context.sh": contextHook, "note.txt": "a note"})
}

// noteReply reads note.txt for the first question, then answers.
func noteReply(req llamatest.Request) llamatest.Reply {
	last := req.Messages[len(req.Messages)-1]
	switch {
	case last.Role == "tool":
		return llamatest.Reply{Content: "A1"}
	case strings.HasPrefix(last.Content, "REWRITTEN first"):
		return llamatest.Reply{Calls: [][2]string{{"read_file", `{"path":"note.txt"}`}}}
	}
	return llamatest.Reply{Content: "A2"}
}

// messagesAfterSystem are a request body's messages after the system
// prompt, as the bytes sent, joined by commas.
func messagesAfterSystem(t testing.TB, body []byte) string {
	t.Helper()
	var parts []string
	for _, m := range decodeBody(t, body).Messages[1:] {
		parts = append(parts, string(m))
	}
	return strings.Join(parts, ",")
}

// TestReferenceHistoryKeepsRewrittenQuestionWithoutContexts holds the
// reference's row of preGeneration's `prompt` and/or `context`: the model
// reads "the rewritten question, then each context" — in every model call
// of the turn, the tool loop's included — and the history keeps "the
// rewritten question": the next turn's request has the contexts no more.
func TestReferenceHistoryKeepsRewrittenQuestionWithoutContexts(t *testing.T) {
	srv := llamatest.Start(llamatest.Options{NCtx: 32768, Reply: noteReply})
	defer srv.Close()
	cfg := contextsConfig(t, srv)
	rec := &replayRecorder{}
	s, err := New(context.Background(), Options{Config: cfg, Cwd: cfg.Dir, Sink: &recSink{}, Recorder: rec})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, q := range []string{"first", "second"} {
		if err := s.Prompt(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	bodies := srv.Bodies()
	if len(bodies) != 3 {
		t.Fatalf("%d requests, want 3 (the first turn's two, the second's one)", len(bodies))
	}
	want := []string{
		// The first turn: the question, then its context, in both calls.
		`{"role":"user","content":"REWRITTEN first\n\n[context added by a hook]\nCTX-ONE"}`,
		`{"role":"user","content":"REWRITTEN first\n\n[context added by a hook]\nCTX-ONE"},` +
			`{"role":"assistant","content":"","tool_calls":[{"id":"call_2_0","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"note.txt\"}"}}]},` +
			`{"role":"tool","content":"a note","tool_call_id":"call_2_0"}`,
		// The second turn: the first question without its context.
		`{"role":"user","content":"REWRITTEN first"},` +
			`{"role":"assistant","content":"","tool_calls":[{"id":"call_2_0","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"note.txt\"}"}}]},` +
			`{"role":"tool","content":"a note","tool_call_id":"call_2_0"},` +
			`{"role":"assistant","content":"A1"},` +
			`{"role":"user","content":"REWRITTEN second\n\n[context added by a hook]\nCTX-TWO"}`,
	}
	for i, body := range bodies {
		if got := messagesAfterSystem(t, body); got != want[i] {
			t.Errorf("request %d sent\n%s\nwant\n%s", i+1, got, want[i])
		}
	}
	if got := roles(s.History()); got != "user: REWRITTEN first | assistant:  | tool: a note | assistant: A1 | user: REWRITTEN second | assistant: A2" {
		t.Errorf("the history is %s", got)
	}
	for _, msgs := range rec.appended {
		for _, m := range msgs {
			if strings.Contains(m.Content, "CTX-") {
				t.Errorf("the session saved a context: %q", m.Content)
			}
		}
	}
}

// TestReferenceResumedSessionSendsTheSameRequestWithoutContexts: what a
// session saves is the history the reference gives — the rewritten
// question, no context — so a session resumed after the first turn sends
// for the second, byte for byte, the request the first session sent.
func TestReferenceResumedSessionSendsTheSameRequestWithoutContexts(t *testing.T) {
	srv := llamatest.Start(llamatest.Options{NCtx: 32768, Reply: noteReply})
	defer srv.Close()
	cfg := contextsConfig(t, srv)
	rec := &replayRecorder{}
	s, err := New(context.Background(), Options{Config: cfg, Cwd: cfg.Dir, Sink: &recSink{}, Recorder: rec})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Prompt(context.Background(), "first"); err != nil {
		t.Fatal(err)
	}
	var saved []llm.Message
	for _, msgs := range rec.appended {
		saved = append(saved, msgs...)
	}
	if err := s.Prompt(context.Background(), "second"); err != nil {
		t.Fatal(err)
	}

	srv2 := llamatest.Start(llamatest.Options{NCtx: 32768, Reply: noteReply})
	defer srv2.Close()
	cfg2 := *cfg
	cfg2.Providers = map[string]mmconfigs.Provider{"llamacpp": {BaseURL: srv2.URL}}
	r, err := New(context.Background(), Options{Config: &cfg2, Cwd: cfg.Dir, Sink: &recSink{}, Resume: &Resumed{History: saved}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.Prompt(context.Background(), "second"); err != nil {
		t.Fatal(err)
	}
	if got, want := srv2.Bodies()[0], srv.Bodies()[2]; !bytes.Equal(got, want) {
		t.Errorf("the resumed session sent\n%s\nwant\n%s", got, want)
	}
}

// TestReferenceHistoryKeepsExpansionsNotContexts: @path and $skill lines
// are the question — the history keeps their expansion — while the context
// a hook added to it is gone from the next turn's request.
func TestReferenceHistoryKeepsExpansionsNotContexts(t *testing.T) {
	cfg := hookedConfig(t, `hooks:
  preGeneration:
    - command: printf '{"context":"CTX-ONE"}'
`, map[string]string{"notes.md": "buy milk\n", ".mm/skills/pdf/SKILL.md": "---\nname: pdf\ndescription: d\n---\nUse pdftotext.\n"})
	m := &fakeModel{}
	s := newTestSession(t, cfg, m, &recSink{})
	// Typed by the person: expanded.
	for _, q := range []string{"what is this?\n@notes.md\n$pdf", "and then?"} {
		if err := s.PromptTyped(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	expanded := "what is this?\n[file: notes.md]\n```\nbuy milk\n```\n" +
		"[skill pdf, from .mm/skills/pdf/SKILL.md: follow its instructions; its other files are in .mm/skills/pdf]\n" +
		"---\nname: pdf\ndescription: d\n---\nUse pdftotext.\n[end of skill pdf]"
	ctx := "\n\n[context added by a hook]\nCTX-ONE"
	for i, want := range []string{
		"system: " + s.system + " | user: " + expanded + ctx,
		"system: " + s.system + " | user: " + expanded + " | assistant: done | user: and then?" + ctx,
	} {
		if got := roles(m.requests[i].Messages); got != want {
			t.Errorf("request %d\n%q\nwant\n%q", i+1, got, want)
		}
	}
}

// TestReferenceCompressionKeepsTheTurnsContexts: a compression before a
// model call of the turn rewrites the history, not the contexts: the
// turn's request still reads its question, then its context; the summary
// and the history have none.
func TestReferenceCompressionKeepsTheTurnsContexts(t *testing.T) {
	sink := &recSink{}
	m := &fakeModel{replies: []llm.Reply{{Content: "SUMMARY"}, {Content: "a4"}}}
	cfg := hookedConfig(t, `system: You are a test.
tools: []
contextWindow: 1000
hooks:
  preGeneration:
    - command: printf '{"context":"CTX-ONE"}'
`, map[string]string{})
	cfg.Model = "echo/test"
	long := strings.Repeat("a long answer. ", 73)
	var hist []llm.Message
	for _, q := range []string{"q1", "q2", "q3"} {
		hist = append(hist, llm.Message{Role: llm.RoleUser, Content: q}, llm.Message{Role: llm.RoleAssistant, Content: long})
	}
	rec := &replayRecorder{}
	s, err := New(context.Background(), Options{Config: cfg, Cwd: cfg.Dir, Sink: sink, Recorder: rec, Resume: &Resumed{History: hist}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.model = m
	if err := s.Prompt(context.Background(), "q4"); err != nil {
		t.Fatal(err)
	}
	if len(m.requests) != 2 || len(sink.compressions()) != 1 {
		t.Fatalf("%d model calls, %d compressions; want the summary's and the turn's, and one", len(m.requests), len(sink.compressions()))
	}
	want := "system: You are a test. | user: " + compressedNote + " | assistant: SUMMARY | user: q4\n\n[context added by a hook]\nCTX-ONE"
	if got := roles(m.requests[1].Messages); got != want {
		t.Errorf("the turn's request\n%s\nwant\n%s", got, want)
	}
	if got := roles(rec.replaced[0]); got != "user: "+compressedNote+" | assistant: SUMMARY | user: q4" {
		t.Errorf("the compressed history saved is %s", got)
	}
}

// TestTokenCountLeavesTheContextsToTheirTurn: the server's count of a
// turn's last call included the turn's context; once the turn is over the
// next request is that count without it, so that no compression is made
// for a context no request holds any more.
func TestTokenCountLeavesTheContextsToTheirTurn(t *testing.T) {
	srv := llamatest.Start(llamatest.Options{NCtx: 1 << 20, Reply: echoReply})
	defer srv.Close()
	ctx400 := strings.Repeat("x", 400)
	cfg := hookedConfig(t, `system: You are a test.
tools: []
hooks:
  preGeneration:
    - command: printf '{"context":"`+ctx400+`"}'
`, map[string]string{})
	sink := &recSink{}
	s := serverSession(t, cfg, srv, sink, nil)
	if err := s.Prompt(context.Background(), "hello"); err != nil {
		t.Fatal(err)
	}
	u := sink.ended().Usage
	read := "hello\n\n[context added by a hook]\n" + ctx400
	contexts := estimateMessage(llm.Message{Content: read}) - estimateMessage(llm.Message{Content: "hello"})
	if got, want := nextRequestTokens(s, s.toolSpecs()), u.InputTokens+u.OutputTokens-contexts; got != want || contexts != 107 {
		t.Errorf("after the turn: %d tokens, want the server's count %d less the context's %d", got, u.InputTokens+u.OutputTokens, contexts)
	}
}
