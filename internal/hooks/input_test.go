package hooks

import (
	"encoding/json"
	"testing"

	"github.com/mm-agent/mm/internal/handoff"
)

func TestInputEncoding(t *testing.T) {
	zero, ms := int64(0), int64(25374)
	ask := &handoff.Ask{Agent: "expert", Config: "/p/agent.expert.yaml", AgentModel: "echo/x", Via: handoff.ViaTool, Prompt: "What is an inode?"}
	tests := []struct {
		name string
		in   Input
		want string
	}{
		{"preGeneration", Input{Event: PreGeneration, Cwd: "/p", Model: "llmman/m", Prompt: "list the files"},
			`{"event":"preGeneration","cwd":"/p","model":"llmman/m","prompt":"list the files"}`},
		{"no escaping", Input{Event: PreToolCall, Cwd: "/p", Tool: &ToolCall{ID: "call_1", Name: "bash", Input: json.RawMessage(`{"command": "make && ls > out < in"}`)}},
			`{"event":"preToolCall","cwd":"/p","tool":{"id":"call_1","name":"bash","input":{"command":"make && ls > out < in"}}}`},
		{"empty id kept, no input is {}", Input{Event: PreToolCall, Cwd: "/p", Tool: &ToolCall{Name: "read_file"}},
			`{"event":"preToolCall","cwd":"/p","tool":{"id":"","name":"read_file","input":{}}}`},
		{"input that is not JSON", Input{Event: PreToolCall, Cwd: "/p", Tool: &ToolCall{Name: "bash", Input: json.RawMessage(`{"command":"ls &&`)}},
			`{"event":"preToolCall","cwd":"/p","tool":{"id":"","name":"bash","input":"{\"command\":\"ls &&"}}`},
		{"postToolCall", Input{Event: PostToolCall, Cwd: "/p", Tool: &ToolCall{ID: "c", Name: "bash", Input: json.RawMessage(`{}`)}, Output: "<b>a & b</b>\n"},
			`{"event":"postToolCall","cwd":"/p","tool":{"id":"c","name":"bash","input":{}},"output":"<b>a & b</b>\n"}`},
		{"postGeneration with an error", Input{Event: PostGeneration, Cwd: "/p", Prompt: "q", Error: "cancelled"},
			`{"event":"postGeneration","cwd":"/p","prompt":"q","error":"cancelled"}`},
		{"postAsk", Input{Event: PostAsk, Cwd: "/p", Model: "m", Ask: ask, Answer: "An inode is …", DurationMs: &ms},
			`{"event":"postAsk","cwd":"/p","model":"m","ask":{"agent":"expert","config":"/p/agent.expert.yaml","agentModel":"echo/x","via":"tool","withContext":false,"depth":0,"prompt":"What is an inode?"},"answer":"An inode is …","durationMs":25374}`},
		{"postAsk that took no time", Input{Event: PostAsk, Cwd: "/p", Ask: &handoff.Ask{Agent: "a", Via: "cli", WithContext: true, Depth: 1, Transcript: "user: hi"}, DurationMs: &zero},
			`{"event":"postAsk","cwd":"/p","ask":{"agent":"a","config":"","via":"cli","withContext":true,"depth":1,"prompt":"","transcript":"user: hi"},"durationMs":0}`},
		{"asked", Input{Event: PreGeneration, Cwd: "/p", Asked: &Asked{Depth: 2}},
			`{"event":"preGeneration","cwd":"/p","asked":{"depth":2}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := tt.in.Tool
			var before []byte
			if tool != nil {
				before = append(before, tool.Input...)
			}
			b, err := tt.in.encode()
			if err != nil {
				t.Fatal(err)
			}
			if got := string(b); got != tt.want+"\n" {
				t.Errorf("\n got %s\nwant %s", got, tt.want)
			}
			if tool != nil && string(tool.Input) != string(before) {
				t.Errorf("encode changed the caller's tool input to %s", tool.Input)
			}
		})
	}
}
