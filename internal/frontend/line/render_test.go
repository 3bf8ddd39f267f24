package line

import (
	"bytes"
	"errors"
	"testing"

	"github.com/mm-agent/mm/internal/orchestrator"
)

func TestRenderer(t *testing.T) {
	tests := []struct {
		name     string
		lineMode bool
		hooks    bool
		commands bool
		events   []orchestrator.Event
		out      string
		side     string
	}{
		{
			name:     "line mode answer",
			lineMode: true,
			events: []orchestrator.Event{
				orchestrator.Text{Text: "The capital "},
				orchestrator.Text{Text: "is Paris."},
				orchestrator.TurnEnded{Answer: "The capital is Paris."},
			},
			out: "🤖 The capital is Paris.\n⚙ 0 command(s)\n",
		},
		{
			name:     "a compression, one line among the answer's",
			lineMode: true,
			events: []orchestrator.Event{
				orchestrator.Compressed{Before: 14200, After: 2100, Trimmed: 2, Summarised: 8},
				orchestrator.Text{Text: "Go on."},
				orchestrator.TurnEnded{},
			},
			out: "⚙ context compressed: 14,200 → 2,100 tokens\n🤖 Go on.\n⚙ 0 command(s)\n",
		},
		{
			name: "-p: a compression on the side",
			events: []orchestrator.Event{
				orchestrator.Compressed{Before: 3300, After: 1900},
				orchestrator.Text{Text: "ok"},
				orchestrator.TurnEnded{},
			},
			out:  "ok\n",
			side: "⚙ context compressed: 3,300 → 1,900 tokens\n",
		},
		{
			name:     "blank lines kept, one prefix",
			lineMode: true,
			events: []orchestrator.Event{
				orchestrator.Text{Text: "a\n\n"},
				orchestrator.Text{Text: "b\n"},
				orchestrator.TurnEnded{},
			},
			out: "🤖 a\n\nb\n⚙ 0 command(s)\n",
		},
		{
			name:     "tools, denial, hooks and commands",
			lineMode: true, hooks: true, commands: true,
			events: []orchestrator.Event{
				orchestrator.Text{Text: "Let me look."},
				orchestrator.ToolStarted{ID: "1", Name: "bash", Subject: "ls"},
				orchestrator.ToolEnded{ID: "1", Name: "bash", Subject: "ls", Status: orchestrator.ToolCompleted, Output: "a\n"},
				orchestrator.ToolEnded{ID: "2", Name: "bash", Subject: "rm -rf /", Status: orchestrator.ToolDenied, DeniedBy: "hook", Summary: "[denied by a hook: no]"},
				orchestrator.Notice{Kind: orchestrator.NoticeHookFailure, Text: "🪝 postToolCall hook `x`: exit status 1"},
				orchestrator.Text{Text: "Done."},
				orchestrator.TurnEnded{Commands: []string{"bash: ls"}, Hooks: []string{"🪝 1. preToolCall [bash] · g → deny"}},
			},
			out: "🤖 Let me look.\n🔧 bash: ls\n🪝 bash [denied by a hook: no]\n🪝 postToolCall hook `x`: exit status 1\n🤖 Done.\n" +
				"⚙ 1 command(s)\n  $ bash: ls\n  🪝 1. preToolCall [bash] · g → deny\n",
		},
		{
			name:     "asked agent nested",
			lineMode: true,
			events: []orchestrator.Event{
				orchestrator.ToolStarted{ID: "1", Name: "ask_agent", Subject: "expert"},
				orchestrator.Text{Agent: "expert", Text: "An inode "},
				orchestrator.Text{Agent: "expert", Text: "is…"},
				orchestrator.ToolStarted{Agent: "expert", ID: "x", Name: "bash", Subject: "stat ."},
				orchestrator.ToolEnded{ID: "1", Name: "ask_agent", Subject: "expert", Status: orchestrator.ToolCompleted, Summary: "expert answered (12 characters)"},
				orchestrator.Text{Text: "It is…"},
				orchestrator.TurnEnded{Commands: []string{"ask_agent: expert"}},
			},
			out: "🔧 ask_agent: expert\n🤖 expert: An inode is…\n  🔧 [expert] bash: stat .\n  expert answered (12 characters)\n🤖 It is…\n⚙ 1 command(s)\n",
		},
		{
			name: "-p: answer alone on stdout",
			events: []orchestrator.Event{
				orchestrator.Text{Text: "42"},
				orchestrator.ToolStarted{ID: "1", Name: "bash", Subject: "ls"},
				orchestrator.Text{Text: "43"},
				orchestrator.TurnEnded{Commands: []string{"bash: ls"}},
			},
			out:  "42\n43\n",
			side: "🔧 bash: ls\n",
		},
		{
			name:  "-p with displayHooks: the ⚙ block on stdout",
			hooks: true,
			events: []orchestrator.Event{
				orchestrator.Text{Text: "ok"},
				orchestrator.TurnEnded{Hooks: []string{"🪝 1. preGeneration · h → continue"}},
			},
			out: "ok\n⚙ 0 command(s)\n  🪝 1. preGeneration · h → continue\n",
		},
		{
			name: "-p failure",
			events: []orchestrator.Event{
				orchestrator.TurnEnded{Err: errors.New("cannot reach ollama")},
			},
			side: "mm: cannot reach ollama\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, side bytes.Buffer
			r := &renderer{out: &out, side: &side, displayHooks: tt.hooks, displayCommands: tt.commands}
			if tt.lineMode {
				r.side, r.prefix, r.alwaysGear = &out, true, true
			}
			for _, ev := range tt.events {
				r.Emit(ev)
			}
			if out.String() != tt.out {
				t.Errorf("out\n got %q\nwant %q", out.String(), tt.out)
			}
			if side.String() != tt.side {
				t.Errorf("side\n got %q\nwant %q", side.String(), tt.side)
			}
		})
	}
}
