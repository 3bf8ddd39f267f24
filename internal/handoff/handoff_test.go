package handoff

import (
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
)

func TestTranscript(t *testing.T) {
	long := strings.Repeat("x", MaxTranscriptOutput+5)
	msgs := []llm.Message{
		{Role: llm.RoleSystem, Content: "secret system prompt"},
		{Role: llm.RoleUser, Content: "list the files"},
		{Role: llm.RoleAssistant, Content: "Let me look.", ToolCalls: []llm.ToolCall{{ID: "1", Name: "bash", Arguments: `{"command":"ls"}`}}},
		{Role: llm.RoleTool, Name: "bash", ToolCallID: "1", Content: "a.go\nb.go"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{Name: "read_file", Arguments: `{"path":"a.go"}`}}},
		{Role: llm.RoleTool, Name: "read_file", Content: long},
		{Role: llm.RoleAssistant, Content: "Two files."},
	}
	want := "user: list the files\n\n" +
		"assistant: Let me look.\n\n" +
		`assistant called bash: {"command":"ls"}` + "\n\n" +
		"bash returned: a.go\nb.go\n\n" +
		`assistant called read_file: {"path":"a.go"}` + "\n\n" +
		"read_file returned: " + strings.Repeat("x", MaxTranscriptOutput) + "\n[… 5 more characters cut]\n\n" +
		"assistant: Two files."
	if got := Transcript(msgs); got != want {
		t.Errorf("Transcript\n got: %q\nwant: %q", got, want)
	}
	if got := Transcript(nil); got != "" {
		t.Errorf("empty transcript = %q", got)
	}
}

func TestMessage(t *testing.T) {
	tests := []struct {
		name, question, transcript string
		contexts                   []string
		want                       string
	}{
		{"question only", "What is an inode?", "", nil, "What is an inode?"},
		{"with transcript", "Why?", "user: hi", nil, "[conversation so far]\nuser: hi\n[end of conversation]\n\nWhy?"},
		{"contexts", "Q", "", []string{"c1", "  ", "c2"}, "Q\n\n[context added by a hook]\nc1\n\n[context added by a hook]\nc2"},
		{"all", "Q", "user: a", []string{"c"}, "[conversation so far]\nuser: a\n[end of conversation]\n\nQ\n\n[context added by a hook]\nc"},
	}
	for _, tt := range tests {
		if got := Message(tt.question, tt.transcript, tt.contexts); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

func TestTexts(t *testing.T) {
	tests := []struct{ got, want string }{
		{HistoryEntry("expert", "Q?", "A."), "[question for expert]\nQ?\n\n[expert's answer]\nA."},
		{DeniedText("no secrets"), "[ask denied by a hook: no secrets]"},
		{FailedText("boom"), "[ask failed: boom]"},
		{Summary("expert", 12, false), "expert answered (12 characters)"},
		{Summary("expert", 3, true), "expert answered; a hook replaced the answer (3 characters)"},
		{ReplacedNotice("expert"), "🪝 postAsk: expert's answer was replaced by a hook — the asking agent reads the new one"},
		{(&UnknownAgentError{Name: "x", Known: []string{"a", "b"}}).Error(), `no agent "x" in mmConfigs (known: a, b)`},
		{(&DepthError{Name: "expert", Depth: 4, Max: 3}).Error(), "ask refused: expert would run at depth 4, beyond maxAskDepth 3"},
		{ToolOutput("short"), "short"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q\nwant %q", tt.got, tt.want)
		}
	}
	long := strings.Repeat("é", MaxToolOutput+10)
	got := ToolOutput(long)
	if want := strings.Repeat("é", MaxToolOutput) + "\n\n[answer cut: 20000 of 20010 characters shown]"; got != want {
		t.Errorf("ToolOutput cut wrong: tail %q", got[len(got)-60:])
	}
}

// TestSplitHistoryEntry: what HistoryEntry writes reads back; nothing
// else does.
func TestSplitHistoryEntry(t *testing.T) {
	tests := []struct {
		entry                   string
		agent, question, answer string
		ok                      bool
	}{
		{HistoryEntry("expert", "Q?", "A."), "expert", "Q?", "A.", true},
		{HistoryEntry("expert", "line 1\nline 2", "A\n\n[expert's answer]\nB"), "expert", "line 1\nline 2", "A\n\n[expert's answer]\nB", true},
		{HistoryEntry("expert", "Q?", ""), "expert", "Q?", "", true},
		{"[question for expert]\nQ?\n\n[critic's answer]\nA.", "", "", "", false},
		{"[question for ]\nQ?\n\n['s answer]\nA.", "", "", "", false},
		{"what is [question for expert]?", "", "", "", false},
		{"[question for expert]", "", "", "", false},
	}
	for _, tt := range tests {
		agent, question, answer, ok := SplitHistoryEntry(tt.entry)
		if agent != tt.agent || question != tt.question || answer != tt.answer || ok != tt.ok {
			t.Errorf("SplitHistoryEntry(%q) = %q, %q, %q, %v; want %q, %q, %q, %v", tt.entry, agent, question, answer, ok, tt.agent, tt.question, tt.answer, tt.ok)
		}
	}
}
