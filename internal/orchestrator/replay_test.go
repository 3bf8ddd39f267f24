package orchestrator

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mm-agent/mm/internal/handoff"
	"github.com/mm-agent/mm/internal/llm"
)

// TestReplay: a saved history shows again in its order, each call whole
// with how it ended.
func TestReplay(t *testing.T) {
	tests := []struct {
		name    string
		history []llm.Message
		want    []Event
	}{
		{"question and answer", []llm.Message{
			{Role: llm.RoleUser, Content: "hi"},
			{Role: llm.RoleAssistant, Content: "hello"},
		}, []Event{UserText{Text: "hi"}, Text{Text: "hello"}}},
		{"calls and their ends", []llm.Message{
			{Role: llm.RoleUser, Content: "look"},
			{Role: llm.RoleAssistant, Content: "Let me see.", ToolCalls: []llm.ToolCall{
				call("c1", "bash", `{"command":"ls"}`), call("c2", "read_file", `{"path":"a.txt"}`)}},
			{Role: llm.RoleTool, ToolCallID: "c1", Name: "bash", Content: "a.txt\n"},
			{Role: llm.RoleTool, ToolCallID: "c2", Name: "read_file", Content: "read_file: no such file", IsError: true},
			{Role: llm.RoleAssistant, Content: "There is a.txt."},
		}, []Event{
			UserText{Text: "look"},
			Text{Text: "Let me see."},
			ToolEnded{ID: "c1", Name: "bash", Subject: "ls", Input: json.RawMessage(`{"command":"ls"}`), Status: ToolCompleted, Output: "a.txt\n"},
			ToolEnded{ID: "c2", Name: "read_file", Subject: "a.txt", Path: "/work/project/a.txt", Input: json.RawMessage(`{"path":"a.txt"}`), Status: ToolFailed, Output: "read_file: no such file"},
			Text{Text: "There is a.txt."},
		}},
		{"refused calls", []llm.Message{
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{
				call("c1", "bash", `{"command":"rm -rf build"}`), call("c2", "bash", `{"command":"make"}`), call("c3", "ask_agent", `{"agent":"expert","question":"why?"}`)}},
			{Role: llm.RoleTool, ToolCallID: "c1", Name: "bash", Content: "[denied by a hook: no deletions]", IsError: true},
			{Role: llm.RoleTool, ToolCallID: "c2", Name: "bash", Content: "[refused: the person did not allow this call]", IsError: true},
			{Role: llm.RoleTool, ToolCallID: "c3", Name: "ask_agent", Content: handoff.DeniedText("not now"), IsError: true},
		}, []Event{
			ToolEnded{ID: "c1", Name: "bash", Subject: "rm -rf build", Input: json.RawMessage(`{"command":"rm -rf build"}`), Status: ToolDenied, DeniedBy: "hook",
				Output: "[denied by a hook: no deletions]", Summary: "[denied by a hook: no deletions]"},
			ToolEnded{ID: "c2", Name: "bash", Subject: "make", Input: json.RawMessage(`{"command":"make"}`), Status: ToolDenied, DeniedBy: "person",
				Output: "[refused: the person did not allow this call]", Summary: "[refused: the person did not allow this call]"},
			ToolEnded{ID: "c3", Name: "ask_agent", Subject: "expert", Input: json.RawMessage(`{"agent":"expert","question":"why?"}`), Status: ToolDenied, DeniedBy: "hook",
				Output: "[ask denied by a hook: not now]", Summary: "[ask denied by a hook: not now]"},
		}},
		{"an output that only looks like a refusal", []llm.Message{
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call("c1", "bash", `{"command":"cat notes"}`)}},
			{Role: llm.RoleTool, ToolCallID: "c1", Name: "bash", Content: "[refused: by me]"},
		}, []Event{
			ToolEnded{ID: "c1", Name: "bash", Subject: "cat notes", Input: json.RawMessage(`{"command":"cat notes"}`), Status: ToolCompleted, Output: "[refused: by me]"},
		}},
		{"bad arguments and a call left without a result", []llm.Message{
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call("c1", "bash", `{"command": `), call("c2", "bash", `{"command":"sleep 9"}`)}},
			{Role: llm.RoleTool, ToolCallID: "c1", Name: "bash", Content: "bash: invalid JSON arguments", IsError: true},
			{Role: llm.RoleUser, Content: "next"},
		}, []Event{
			ToolEnded{ID: "c1", Name: "bash", Status: ToolFailed, Output: "bash: invalid JSON arguments"},
			ToolEnded{ID: "c2", Name: "bash", Subject: "sleep 9", Input: json.RawMessage(`{"command":"sleep 9"}`), Status: ToolFailed},
			UserText{Text: "next"},
		}},
		{"an /ask exchange and a summary", []llm.Message{
			{Role: llm.RoleSystem, Content: "[summary] we looked at a.txt"},
			{Role: llm.RoleUser, Content: handoff.HistoryEntry("expert", "why?", "because")},
		}, []Event{
			Notice{Kind: NoticeInfo, Text: "[summary] we looked at a.txt"},
			UserText{Text: "/ask expert why?"},
			Text{Text: "because"},
		}},
		{"questions as typed, not as expanded", []llm.Message{
			{Role: llm.RoleUser, Content: "look\n[file: a.md]\n```\nx\n```", Typed: "look\n@a.md"},
			{Role: llm.RoleUser, Content: handoff.HistoryEntry("expert", "why?\n[file: a.md]\n```\nx\n```", "because"), Typed: "why?\n@a.md"},
		}, []Event{
			UserText{Text: "look\n@a.md"},
			UserText{Text: "/ask expert why?\n@a.md"},
			Text{Text: "because"},
		}},
		{"a compressed history", []llm.Message{
			{Role: llm.RoleUser, Content: compressedNote},
			{Role: llm.RoleAssistant, Content: "We listed the files."},
			{Role: llm.RoleUser, Content: "and now?"},
		}, []Event{
			Notice{Kind: NoticeInfo, Text: compressedNote},
			Text{Text: "We listed the files."},
			UserText{Text: "and now?"},
		}},
		{"nothing", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Replay(tt.history, "/work/project"); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Replay\n got %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

// TestReplayShowsCallsAsTheyEnded: what a replay says of each call of a
// real turn is what the turn said live: same id, tool, subject, status,
// refusal and output.
func TestReplayShowsCallsAsTheyEnded(t *testing.T) {
	sink := &recSink{answers: []ConsentAnswer{AllowOnce, AllowOnce, RejectOnce, AllowOnce}}
	m := &fakeModel{replies: []llm.Reply{
		{Content: "Trying.", ToolCalls: []llm.ToolCall{
			call("c1", "bash", `{"command":"echo hi"}`),
			call("c2", "bash", `{"command":"exit 3"}`),
			call("c3", "bash", `{"command":"rm x"}`),
			call("c4", "nosuch", `{}`),
			call("c5", "read_file", `{"path":"missing.txt"}`),
		}},
		{Content: "Done."},
	}}
	s := newTestSession(t, nil, m, sink)
	s.cfg.MaxParallelTools = 1 // consent answers in the calls' order
	if err := s.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	type end struct {
		ID, Name, Subject, DeniedBy, Output string
		Status                              ToolStatus
	}
	ends := func(evs []Event) []end {
		var out []end
		for _, ev := range evs {
			if e, ok := ev.(ToolEnded); ok {
				out = append(out, end{e.ID, e.Name, e.Subject, e.DeniedBy, e.Output, e.Status})
			}
		}
		return out
	}
	sink.mu.Lock()
	live := ends(sink.events)
	sink.mu.Unlock()
	replay := Replay(s.History(), "/work/project")
	if got := ends(replay); !reflect.DeepEqual(got, live) {
		t.Errorf("calls replayed\n got %+v\nlive %+v", got, live)
	}
	statuses := []ToolStatus{}
	for _, e := range live {
		statuses = append(statuses, e.Status)
	}
	if want := []ToolStatus{ToolCompleted, ToolFailed, ToolDenied, ToolFailed, ToolFailed}; !reflect.DeepEqual(statuses, want) {
		t.Errorf("live statuses %v, want %v", statuses, want)
	}
	if first, last := replay[0], replay[len(replay)-1]; first != (UserText{Text: "go"}) || last != (Text{Text: "Done."}) {
		t.Errorf("replay starts with %#v and ends with %#v", first, last)
	}
}
