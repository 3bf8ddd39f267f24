package frontend

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/mm-agent/mm/internal/handoff"
	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// compressedNote is the note a compression puts before its summary
// (internal/orchestrator/compress.go).
const compressedNote = "[mm] The earlier part of this conversation was compressed to fit the model's context window; your summary of it follows."

// turn is a question and its answer, as a history keeps them.
func turn(q, a string) []llm.Message {
	return []llm.Message{{Role: llm.RoleUser, Content: q}, {Role: llm.RoleAssistant, Content: a}}
}

// turns are n questions "q1"… answered "a1"….
func turns(n int) []llm.Message {
	var h []llm.Message
	for i := 1; i <= n; i++ {
		h = append(h, turn(fmt.Sprint("q", i), fmt.Sprint("a", i))...)
	}
	return h
}

func shownQ(q string) orchestrator.Event { return orchestrator.UserText{Text: q} }
func shownA(a string) orchestrator.Event { return orchestrator.Text{Text: a} }
func info(text string) orchestrator.Event {
	return orchestrator.Notice{Kind: orchestrator.NoticeInfo, Text: text}
}

// TestShown: what a terminal shows of a saved conversation (Replay's
// events, as Session.Conversation gives them): a tool call on one line —
// a completed one as its start, a failed or refused one with why on one
// line —, an /ask… answer under its agent, and with last turns shown, a
// line saying how many earlier ones are not; a compression's summary
// stays where the older turns were.
func TestShown(t *testing.T) {
	bash := func(id, command string) llm.ToolCall {
		return llm.ToolCall{ID: id, Name: "bash", Arguments: `{"command":"` + command + `"}`}
	}
	input := func(command string) json.RawMessage { return json.RawMessage(`{"command":"` + command + `"}`) }
	tests := []struct {
		name    string
		history []llm.Message
		last    int
		want    []orchestrator.Event
	}{
		{"tool calls on one line each", []llm.Message{
			{Role: llm.RoleUser, Content: "build it"},
			{Role: llm.RoleAssistant, Content: "Building.", ToolCalls: []llm.ToolCall{bash("c1", "ls"), bash("c2", "make")}},
			{Role: llm.RoleTool, ToolCallID: "c1", Name: "bash", Content: "Makefile\na.go\n"},
			{Role: llm.RoleTool, ToolCallID: "c2", Name: "bash", Content: "make: *** no rule\nline two\n[exit status 2]", IsError: true},
			{Role: llm.RoleAssistant, Content: "It **failed**."},
		}, 0, []orchestrator.Event{
			shownQ("build it"),
			shownA("Building."),
			orchestrator.ToolStarted{ID: "c1", Name: "bash", Subject: "ls", Input: input("ls")},
			orchestrator.ToolEnded{ID: "c2", Name: "bash", Subject: "make", Input: input("make"), Status: orchestrator.ToolFailed,
				Output: "make: *** no rule\nline two\n[exit status 2]", Summary: "make: *** no rule"},
			shownA("It **failed**."),
		}},
		{"a call a hook denied", []llm.Message{
			{Role: llm.RoleUser, Content: "remove it"},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{bash("c1", "rm a.go")}},
			{Role: llm.RoleTool, ToolCallID: "c1", Name: "bash", Content: "[denied by a hook: no deleting]", IsError: true},
			{Role: llm.RoleAssistant, Content: "A hook refused."},
		}, 0, []orchestrator.Event{
			shownQ("remove it"),
			orchestrator.ToolEnded{ID: "c1", Name: "bash", Subject: "rm a.go", Input: input("rm a.go"), Status: orchestrator.ToolDenied, DeniedBy: "hook",
				Output: "[denied by a hook: no deleting]", Summary: "[denied by a hook: no deleting]"},
			shownA("A hook refused."),
		}},
		{"hand-offs with their agent", []llm.Message{
			{Role: llm.RoleUser, Content: handoff.HistoryEntry("expert", "What is an inode?", "A file's record.")},
			{Role: llm.RoleUser, Content: "ask the expert"},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "ask_agent", Arguments: `{"agent":"expert","question":"why?"}`}}},
			{Role: llm.RoleTool, ToolCallID: "c1", Name: "ask_agent", Content: "Because."},
			{Role: llm.RoleAssistant, Content: "The expert says: because."},
		}, 0, []orchestrator.Event{
			shownQ("/ask expert What is an inode?"),
			orchestrator.Text{Agent: "expert", Text: "A file's record."},
			shownQ("ask the expert"),
			orchestrator.ToolStarted{ID: "c1", Name: "ask_agent", Subject: "expert", Input: json.RawMessage(`{"agent":"expert","question":"why?"}`)},
			shownA("The expert says: because."),
		}},
		{"a question as typed", []llm.Message{
			{Role: llm.RoleUser, Content: "thanks\n[file: notes.md]\n```\nbuy milk\n```", Typed: "thanks\n@notes.md"},
		}, 0, []orchestrator.Event{shownQ("thanks\n@notes.md")}},
		{"every turn", turns(4), 0, []orchestrator.Event{
			shownQ("q1"), shownA("a1"), shownQ("q2"), shownA("a2"), shownQ("q3"), shownA("a3"), shownQ("q4"), shownA("a4"),
		}},
		{"no earlier turn", turns(3), 3, []orchestrator.Event{
			shownQ("q1"), shownA("a1"), shownQ("q2"), shownA("a2"), shownQ("q3"), shownA("a3"),
		}},
		{"one earlier turn", turns(4), 3, []orchestrator.Event{
			info("… 1 earlier turn: /history shows them"),
			shownQ("q2"), shownA("a2"), shownQ("q3"), shownA("a3"), shownQ("q4"), shownA("a4"),
		}},
		{"earlier turns", turns(5), 3, []orchestrator.Event{
			info("… 2 earlier turns: /history shows them"),
			shownQ("q3"), shownA("a3"), shownQ("q4"), shownA("a4"), shownQ("q5"), shownA("a5"),
		}},
		{"a compressed session", append(turn(compressedNote, "We set up the build."), turns(2)...), 1, []orchestrator.Event{
			info(compressedNote),
			shownA("We set up the build."),
			info("… 1 earlier turn: /history shows them"),
			shownQ("q2"), shownA("a2"),
		}},
		{"nothing", nil, 3, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Shown(orchestrator.Replay(tt.history, "/work/project"), tt.last)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Shown\n got %#v\nwant %#v", got, tt.want)
			}
		})
	}
}
