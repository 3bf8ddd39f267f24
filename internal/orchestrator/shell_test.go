package orchestrator

import (
	"context"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/permissions"
)

// TestShell: a command the person runs with "!" runs without a consent
// question, its output shown as a CommandReply and read by the model
// before the next question, fenced; a deny rule refuses it; /clear drops
// an output not yet sent.
func TestShell(t *testing.T) {
	cfg := mmconfigs.Default(t.TempDir(), func(string) string { return "" })
	deny, err := permissions.Parse("bash: rm *", nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Permissions.Deny = []permissions.Rule{deny}
	sink := &recSink{}
	model := &fakeModel{}
	s := newTestSession(t, cfg, model, sink)
	if err := s.Shell(context.Background(), "echo '@x' && echo two"); err != nil {
		t.Fatal(err)
	}
	if len(sink.asked) > 0 {
		t.Errorf("consent asked: %q", sink.asked)
	}
	if got := sink.events[len(sink.events)-1]; got != (CommandReply{Command: ShellCommand, Text: "@x\ntwo"}) {
		t.Errorf("shown %#v", got)
	}
	if err := s.PromptTyped(context.Background(), "what did it say?"); err != nil {
		t.Fatal(err)
	}
	msgs := model.requests[0].Messages
	want := "[the person ran in the shell: echo '@x' && echo two]\n```\n@x\ntwo\n```\n\nwhat did it say?"
	if got := msgs[len(msgs)-1]; got.Role != llm.RoleUser || got.Content != want || got.Typed != "what did it say?" {
		t.Errorf("the model read %q (typed %q)\nwant %q", got.Content, got.Typed, want)
	}
	if err := s.PromptTyped(context.Background(), "and now?"); err != nil {
		t.Fatal(err)
	}
	if got := model.requests[1].Messages; got[len(got)-1].Content != "and now?" {
		t.Errorf("the output was read twice: %q", got[len(got)-1].Content)
	}
	err = s.Shell(context.Background(), "rm -rf build")
	if want := `!rm -rf build: refused: the rule "bash: rm *" in `; err == nil || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), " denies this call") {
		t.Errorf("a denied command: %v, want %s… denies this call", err, want)
	}
	s.Shell(context.Background(), "echo three")
	s.Clear()
	if s.takeShellRuns() != "" {
		t.Error("/clear kept the output")
	}
}
