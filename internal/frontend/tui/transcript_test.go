package tui

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/orchestrator"
	"github.com/mm-agent/mm/internal/tools"
)

// shown lists the transcript's lines, each after its style's name unless
// plain.
func shown(t *transcript) []string {
	names := map[style]string{styleDim: "dim", styleQuestion: "question", styleFailed: "failed", styleAsk: "ask",
		styleAskAdded: "added", styleAskRemoved: "removed", styleAskHunk: "hunk"}
	var out []string
	for _, l := range t.lines {
		s := l.text
		if n := names[l.style]; n != "" {
			s = "[" + n + "] " + s
		}
		out = append(out, s)
	}
	return out
}

func TestTranscript(t *testing.T) {
	tests := []struct {
		name            string
		hooks, commands bool
		events          []orchestrator.Event
		want            []string
	}{
		{
			name: "streamed answer, one 🤖",
			events: []orchestrator.Event{
				orchestrator.Text{Text: "The capital "},
				orchestrator.Text{Text: "is Paris."},
				orchestrator.TurnEnded{Answer: "The capital is Paris."},
			},
			want: []string{"🤖 The capital is Paris.", "[dim] ⚙ 0 command(s)"},
		},
		{
			name: "a compression is one dim line",
			events: []orchestrator.Event{
				orchestrator.Compressed{Before: 14200, After: 2100},
				orchestrator.Text{Text: "Go on."},
				orchestrator.TurnEnded{},
			},
			want: []string{"[dim] ⚙ context compressed: 14,200 → 2,100 tokens", "🤖 Go on.", "[dim] ⚙ 0 command(s)"},
		},
		{
			name: "lines of an answer under its first, blank lines kept, last newline dropped",
			events: []orchestrator.Event{
				orchestrator.Text{Text: "a\n\n"},
				orchestrator.Text{Text: "b\n"},
				orchestrator.TurnEnded{},
			},
			want: []string{"🤖 a", "   ", "   b", "[dim] ⚙ 0 command(s)"},
		},
		{
			name:  "tools, a hook's denial and failure report, hooks and commands under ⚙",
			hooks: true, commands: true,
			events: []orchestrator.Event{
				orchestrator.Text{Text: "Let me look."},
				orchestrator.ToolStarted{ID: "1", Name: "bash", Subject: "ls"},
				orchestrator.ToolEnded{ID: "1", Name: "bash", Subject: "ls", Status: orchestrator.ToolCompleted, Output: "a\n"},
				orchestrator.ToolEnded{ID: "2", Name: "bash", Subject: "rm -rf build", Status: orchestrator.ToolDenied, DeniedBy: "hook",
					Output: "[denied by a hook: no deletions]", Summary: "[denied by a hook: no deletions]"},
				orchestrator.ToolEnded{ID: "3", Name: "my_tool", Status: orchestrator.ToolDenied, DeniedBy: "hook", Summary: "[denied by a hook: no]"},
				orchestrator.HookRan{N: 1, Line: "🪝 1. preToolCall [bash] · g → deny"},
				orchestrator.Notice{Kind: orchestrator.NoticeHookFailure, Text: "🪝 postToolCall hook `x`: exit status 1"},
				orchestrator.Text{Text: "Done."},
				orchestrator.TurnEnded{Commands: []string{"bash: ls"}, Hooks: []string{"🪝 1. preToolCall [bash] · g → deny"}},
			},
			want: []string{
				"🤖 Let me look.",
				"🔧 bash: ls",
				"[failed] 🪝 bash: rm -rf build — denied by a hook",
				"[dim]    [denied by a hook: no deletions]",
				"[failed] 🪝 my_tool — denied by a hook",
				"[dim]    [denied by a hook: no]",
				"[dim] 🪝 postToolCall hook `x`: exit status 1",
				"🤖 Done.",
				"[dim] ⚙ 1 command(s)",
				"[dim]   $ bash: ls",
				"[dim]   🪝 1. preToolCall [bash] · g → deny",
			},
		},
		{
			name: "hooks and commands not displayed unless asked",
			events: []orchestrator.Event{
				orchestrator.TurnEnded{Commands: []string{"bash: ls"}, Hooks: []string{"🪝 1. preGeneration · h → continue"}},
			},
			want: []string{"[dim] ⚙ 1 command(s)"},
		},
		{
			name: "asked agent indented",
			events: []orchestrator.Event{
				orchestrator.ToolStarted{ID: "1", Name: "ask_agent", Subject: "expert"},
				orchestrator.Text{Agent: "expert", Text: "An inode "},
				orchestrator.Text{Agent: "expert", Text: "is…\nmetadata."},
				orchestrator.ToolStarted{Agent: "expert", ID: "x", Name: "bash", Subject: "stat ."},
				orchestrator.ToolEnded{Agent: "expert", ID: "x", Name: "bash", Subject: "stat .", Status: orchestrator.ToolFailed, Summary: "exit status 1\nmore"},
				orchestrator.Text{Agent: "expert/checker", Text: "deeper"},
				orchestrator.ToolEnded{ID: "1", Name: "ask_agent", Subject: "expert", Status: orchestrator.ToolCompleted, Summary: "expert answered (12 characters)"},
				orchestrator.Text{Text: "It is…"},
				orchestrator.TurnEnded{Commands: []string{"ask_agent: expert"}},
			},
			want: []string{
				"🔧 ask_agent: expert",
				"  🤖 expert: An inode is…",
				"     metadata.",
				"  🔧 [expert] bash: stat .",
				"[failed]   ✗ [expert] bash: stat .: exit status 1",
				"    🤖 expert/checker: deeper",
				"[dim]    expert answered (12 characters)",
				"🤖 It is…",
				"[dim] ⚙ 1 command(s)",
			},
		},
		{
			name: "a call the person refused, a failed turn",
			events: []orchestrator.Event{
				orchestrator.ToolEnded{ID: "1", Name: "bash", Subject: "ls", Status: orchestrator.ToolDenied, DeniedBy: "person",
					Summary: "[refused: the person did not allow this call]"},
				orchestrator.Notice{Kind: orchestrator.NoticeInfo, Text: "🪝 postAsk: expert's answer was replaced"},
				orchestrator.TurnEnded{Err: errors.New("cancelled")},
			},
			want: []string{
				"[failed] ⛔ bash: ls — denied",
				"[dim]    [refused: the person did not allow this call]",
				"[dim] 🪝 postAsk: expert's answer was replaced",
				"[failed] mm: cancelled",
				"[dim] ⚙ 0 command(s)",
			},
		},
		{
			name: "control characters from a model are not drawn",
			events: []orchestrator.Event{
				orchestrator.Text{Text: "\x1b[2Jhi\tthere\r\n"},
				orchestrator.TurnEnded{},
			},
			want: []string{`🤖 \x1b[2Jhi    there`, "[dim] ⚙ 0 command(s)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := transcript{displayHooks: tt.hooks, displayCommands: tt.commands}
			for _, ev := range tt.events {
				tr.event(ev)
			}
			if got := shown(&tr); !slices.Equal(got, tt.want) {
				t.Errorf("lines\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestTranscriptQuestionAndConsent(t *testing.T) {
	var tr transcript
	tr.notice("Type a question.\n  /help")
	tr.question("run ls")
	tr.event(orchestrator.Text{Text: "Let me"})
	last := tr.consent(orchestrator.ConsentRequest{Tool: "bash", Subject: "cat <<EOF…", Detail: "cat <<EOF\nhi\nEOF", Always: &orchestrator.AlwaysOffer{For: "bash"}})
	if want := len(tr.lines) - 1; last != want {
		t.Fatalf("consent() = %d, want the last line %d", last, want)
	}
	want := []string{
		"[dim] Type a question.",
		"[dim]   /help",
		"",
		"[question] › run ls",
		"🤖 Let me",
		"[ask] Allow bash, 3 lines:",
		"[ask]       cat <<EOF",
		"[ask]       hi",
		"[ask]       EOF",
		"[ask]   Allow these lines? [y] once [n] no [a] always for bash [v] never",
	}
	if got := shown(&tr); !slices.Equal(got, want) {
		t.Errorf("asked\n got %q\nwant %q", got, want)
	}
	tr.answered(last, "yes, once")
	tr.consent(orchestrator.ConsentRequest{Agent: "expert", Tool: "bash", Subject: "ls", Always: &orchestrator.AlwaysOffer{For: "bash"}})
	want = append(want[:5],
		"[dim] Allow bash, 3 lines:",
		"[dim]       cat <<EOF",
		"[dim]       hi",
		"[dim]       EOF",
		"[dim]   Allow these lines? [y] once [n] no [a] always for bash [v] never → yes, once",
		"[ask] Allow [expert] bash: ls? [y] once [n] no [a] always for bash [v] never",
	)
	if got := shown(&tr); !slices.Equal(got, want) {
		t.Errorf("answered\n got %q\nwant %q", got, want)
	}
}

// TestTranscriptChange: an edit's consent question shows its diff, each
// line in the style of what it does to the file, in colour on a terminal
// and plain with NO_COLOR; answered, the whole question is dimmed.
func TestTranscriptChange(t *testing.T) {
	var tr transcript
	last := tr.consent(orchestrator.ConsentRequest{Tool: "edit_file", Subject: "f.txt",
		Change: &tools.Change{Path: "/p/f.txt", Old: "a\nb\n", OldSize: -1, New: "a\nc\n"}, Always: &orchestrator.AlwaysOffer{For: "edit_file"}})
	want := []string{
		"[ask] Allow edit_file: f.txt, to make this change:",
		"[hunk]   @@ -1,2 +1,2 @@",
		"[ask]    a",
		"[removed]   -b",
		"[added]   +c",
		"[ask]   Allow this change? [y] once [n] no [a] always for edit_file [v] never",
	}
	if got := shown(&tr); !slices.Equal(got, want) {
		t.Errorf("asked\n got %q\nwant %q", got, want)
	}
	for _, tt := range []struct {
		colour bool
		want   []string
	}{
		{true, []string{sgrCyan, sgrQuestion, sgrRed, sgrGreen}},
		{false, []string{"", sgrBold, "", ""}},
	} {
		var got []string
		for _, st := range []style{styleAskHunk, styleAsk, styleAskRemoved, styleAskAdded} {
			got = append(got, st.sgr(tt.colour))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("colour %v: styles drawn %q, want %q", tt.colour, got, tt.want)
		}
	}
	tr.answered(last, "yes, once")
	for _, l := range tr.lines {
		if l.style != styleDim {
			t.Errorf("answered, %q is still %v", l.text, l.style)
		}
	}
}

func TestTranscriptView(t *testing.T) {
	var tr transcript
	tr.event(orchestrator.Text{Text: "one two three four five six"})
	tr.event(orchestrator.TurnEnded{})
	// Wrapped to 12 columns: "🤖 one two", "   three", "   four five", "   six",
	// "⚙ 0", "  command(s)".
	if got := tr.total(12); got != 6 {
		t.Fatalf("total(12) = %d, want 6", got)
	}
	tests := []struct {
		height, scroll int
		want           []string
	}{
		{3, 0, []string{"   six", "⚙ 0", "  command(s)"}},
		{3, 2, []string{"   three", "   four five", "   six"}},
		{10, 0, []string{"🤖 one two", "   three", "   four five", "   six", "⚙ 0", "  command(s)"}},
	}
	for _, tt := range tests {
		got, styles := tr.view(12, tt.height, tt.scroll)
		if !slices.Equal(got, tt.want) || len(styles) != len(got) {
			t.Errorf("view(12, %d, %d)\n got %q\nwant %q", tt.height, tt.scroll, got, tt.want)
		}
	}
	if got := strings.Join(tr.lines[0].wrapped(40), "|"); got != "🤖 one two three four five six" {
		t.Errorf("rewrapped to 40: %q", got)
	}
}
