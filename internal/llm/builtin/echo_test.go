package builtin

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
)

func TestEcho(t *testing.T) {
	tests := []struct {
		name string
		msgs []llm.Message
		want string
	}{
		{"one message", []llm.Message{{Role: llm.RoleUser, Content: "hello"}}, "hello"},
		{"latest user message", []llm.Message{
			{Role: llm.RoleSystem, Content: "be kind"},
			{Role: llm.RoleUser, Content: "first"},
			{Role: llm.RoleAssistant, Content: "first"},
			{Role: llm.RoleUser, Content: "[conversation so far]\nuser: a\n[end of conversation]\n\nsecond\n"},
		}, "[conversation so far]\nuser: a\n[end of conversation]\n\nsecond\n"},
		{"after a tool result", []llm.Message{
			{Role: llm.RoleUser, Content: "q"},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "1", Name: "bash"}}},
			{Role: llm.RoleTool, ToolCallID: "1", Content: "out"},
		}, "q"},
		{"no user message", []llm.Message{{Role: llm.RoleSystem, Content: "s"}}, ""},
		{"nothing", nil, ""},
	}
	m := Echo()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var streamed string
			got, err := m.Stream(t.Context(), llm.Request{Messages: tt.msgs}, func(s string) { streamed += s })
			if err != nil {
				t.Fatal(err)
			}
			if want := (llm.Reply{Content: tt.want, FinishReason: "stop"}); !reflect.DeepEqual(got, want) {
				t.Errorf("got %#v, want %#v", got, want)
			}
			if streamed != tt.want {
				t.Errorf("streamed %q, want %q", streamed, tt.want)
			}
		})
	}
	if _, err := m.Stream(t.Context(), llm.Request{Messages: tests[0].msgs}, nil); err != nil {
		t.Errorf("nil onText: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := m.Stream(ctx, llm.Request{Messages: tests[0].msgs}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v", err)
	}
}
