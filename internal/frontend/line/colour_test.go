package line

import (
	"bytes"
	"errors"
	"testing"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// TestRendererColours: on a terminal with colours, tool and hook lines are
// dim, errors red, and the text in them is still made visible first.
func TestRendererColours(t *testing.T) {
	var out bytes.Buffer
	w := newVisibleWriter(&out)
	r := &renderer{out: w, side: w, prefix: true, alwaysGear: true, displayHooks: true, styleOut: true, styleSide: true}
	for _, ev := range []orchestrator.Event{
		orchestrator.ToolStarted{ID: "1", Name: "bash", Subject: "ls \x1b[2J"},
		orchestrator.ToolEnded{ID: "1", Name: "bash", Status: orchestrator.ToolFailed, Summary: "exit status 1"},
		orchestrator.ToolEnded{ID: "2", Name: "bash", Status: orchestrator.ToolDenied, DeniedBy: "hook", Summary: "[denied by a hook: no]"},
		orchestrator.Notice{Kind: orchestrator.NoticeHookFailure, Text: "🪝 postToolCall hook `x`: exit status 1"},
		orchestrator.TurnEnded{Err: errors.New("cannot reach ollama"), Hooks: []string{"🪝 1. preToolCall [bash] · g → deny"}},
	} {
		r.Emit(ev)
	}
	want := "\x1b[2m🔧 bash: ls \\x1b[2J\x1b[0m\n" +
		"\x1b[31m✗ bash: exit status 1\x1b[0m\n" +
		"\x1b[2m🪝 bash [denied by a hook: no]\x1b[0m\n" +
		"\x1b[31m🪝 postToolCall hook `x`: exit status 1\x1b[0m\n" +
		"\x1b[31mmm: cannot reach ollama\x1b[0m\n" +
		"\x1b[2m⚙ 0 command(s)\x1b[0m\n" +
		"\x1b[2m  🪝 1. preToolCall [bash] · g → deny\x1b[0m\n"
	if out.String() != want {
		t.Errorf("got\n%q\nwant\n%q", out.String(), want)
	}
}

// TestRendererMarkdown: on a terminal with colours the answer is rendered
// as markdown as it streams, an asked agent's too, and the model's escapes
// are shown, not obeyed; without colours it is written as the model wrote it.
func TestRendererMarkdown(t *testing.T) {
	events := []orchestrator.Event{
		orchestrator.Text{Text: "# Hi\n"},
		orchestrator.Text{Text: "Some **b"},
		orchestrator.Text{Text: "old** \x1b[2J"},
		orchestrator.ToolStarted{ID: "1", Name: "ask_agent", Subject: "expert"},
		orchestrator.Text{Agent: "expert", Text: "`x` is *unclosed"},
		orchestrator.Text{Text: "- done"},
		orchestrator.TurnEnded{},
	}
	tests := []struct {
		styled bool
		want   string
	}{
		{true, "🤖 \x1b[1;4;35mHi\x1b[0m\nSome \x1b[1mbold\x1b[0m \\x1b[2J\n" +
			"\x1b[2m🔧 ask_agent: expert\x1b[0m\n🤖 expert: \x1b[36mx\x1b[0m is *unclosed\n" +
			"🤖 \x1b[36m•\x1b[0m done\n\x1b[2m⚙ 0 command(s)\x1b[0m\n"},
		{false, "🤖 # Hi\nSome **bold** \\x1b[2J\n🔧 ask_agent: expert\n🤖 expert: `x` is *unclosed\n🤖 - done\n⚙ 0 command(s)\n"},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		w := newVisibleWriter(&out)
		r := &renderer{out: w, side: w, prefix: true, alwaysGear: true, styleOut: tt.styled, styleSide: tt.styled}
		for _, ev := range events {
			r.Emit(ev)
		}
		if out.String() != tt.want {
			t.Errorf("styled %v:\n got %q\nwant %q", tt.styled, out.String(), tt.want)
		}
	}
}
